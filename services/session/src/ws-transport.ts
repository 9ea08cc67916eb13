/**
 * A session transport over the `ws` package, for Node: the gateway's tests and tools. Not for the
 * browser (the client has its own over `WebSocket`). State: the one socket; its errors end in a close.
 */
import WebSocket from 'ws';
import type { Connect, Transport, TransportEvents } from './transport.ts';

export class WsTransport implements Transport {
  readonly ws: WebSocket;

  constructor(url: string, events: TransportEvents) {
    this.ws = new WebSocket(url, { perMessageDeflate: false });
    this.ws.on('open', () => events.open());
    this.ws.on('message', (data) => events.message(String(data)));
    this.ws.on('close', (code) => events.close(code));
    // A failed connect or a reset socket: 'close' follows and reports it.
    this.ws.on('error', () => {});
  }

  send(text: string): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(text);
  }

  close(code?: number, reason?: string): void {
    this.ws.close(code, reason);
  }
}

export const wsConnect =
  (url: string): Connect =>
  (events) =>
    new WsTransport(url, events);
