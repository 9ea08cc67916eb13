/**
 * A bot's connection to the gateway, by either WebSocket client: the lean one
 * (lean-ws.ts) or the `ws` package, kept for comparison (`--ws-client ws`)
 * and for wss:// targets, which the lean client does not speak.
 */
import { connect, type NetConnectOpts, type Socket } from 'node:net';
import WebSocket from 'ws';
import { LeanSocket, ReadyState } from './lean-ws.ts';
import type { WsClient } from './options.ts';

export type { WsClient } from './options.ts';

export interface BotSocketEvents {
  open(): void;
  /** One text message; the buffer is valid only during the call (the lean client reuses it). */
  message(data: Buffer): void;
  error(err: Error): void;
  close(code: number): void;
}

export interface BotSocket {
  readonly isOpen: boolean;
  send(text: string): void;
  /** Close handshake. */
  close(): void;
  /** Drop at once, no handshake. */
  terminate(): void;
}

export function openBotSocket(
  client: WsClient,
  url: string,
  localAddress: string | undefined,
  on: BotSocketEvents,
): BotSocket {
  if (client === 'lean' && url.startsWith('ws:')) return new LeanBotSocket(new LeanSocket(url, localAddress, on));
  return new WsBotSocket(url, localAddress, on);
}

class LeanBotSocket implements BotSocket {
  constructor(private readonly s: LeanSocket) {}
  get isOpen(): boolean {
    return this.s.readyState === ReadyState.Open;
  }
  send(text: string): void {
    this.s.send(text);
  }
  close(): void {
    this.s.close();
  }
  terminate(): void {
    this.s.terminate();
  }
}

/**
 * Client frames must be masked, but the key only protects browsers' proxies:
 * an all-zero key lets ws skip XOR-ing every byte and refilling its random pool.
 */
const zeroMask = (): void => {};
/**
 * Every ws socket of the process reads into this one buffer (net's `onread`)
 * instead of a fresh 64 KB backing store per read, which a 2 KB frame then
 * pinned as external memory and drove the GC (15 % of the swarm's busy time).
 * Each read is copied out at once — into Buffer's shared pool, frames being
 * small — and handed to the HTTP parser / ws as the 'data' it expects.
 */
const readBuffer = Buffer.allocUnsafe(64 * 1024);
function connectReadingIntoSharedBuffer(options: NetConnectOpts): Socket {
  const socket: Socket = connect({
    ...options,
    onread: {
      buffer: readBuffer,
      callback: (n, buf) => {
        socket.emit('data', Buffer.from(buf.subarray(0, n)));
        // Keep reading: ws handles each frame synchronously (no compression), so it never needs to pause us.
        return true;
      },
    },
  });
  return socket;
}

class WsBotSocket implements BotSocket {
  private readonly ws: WebSocket;
  constructor(url: string, localAddress: string | undefined, on: BotSocketEvents) {
    const ws = new WebSocket(url, {
      perMessageDeflate: false,
      localAddress,
      generateMask: zeroMask,
      createConnection: connectReadingIntoSharedBuffer as never,
    });
    this.ws = ws;
    ws.on('open', () => on.open());
    ws.on('message', (data: Buffer) => on.message(data));
    ws.on('error', (err) => on.error(err));
    ws.on('close', (code) => on.close(code));
  }
  get isOpen(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }
  send(text: string): void {
    this.ws.send(text);
  }
  close(): void {
    this.ws.close();
  }
  terminate(): void {
    this.ws.terminate();
  }
}
