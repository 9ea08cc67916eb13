/**
 * A scripted WebSocket for the GatewayClient's unit tests: no server. It opens on the next microtask,
 * records every frame the client sends (parsed), and `receive` hands the client a frame as the gateway
 * would. `welcome(scriptedClient())` gives a client past its welcome; `closeClients()` (in afterEach) closes every client
 * made by `scriptedClient`, so no reconnect timer outlives its test.
 *
 * Failure modes: `ScriptedSocket.last` is the socket made last — a test that reconnects reads it again
 * after the reconnect; frames are parsed JSON, so a test sees what the client meant to send, not bytes.
 */
import { GatewayClient, type GatewayOptions } from '../../src/net/gateway.ts';

export class ScriptedSocket {
  static last: ScriptedSocket | null = null;
  readyState = 0;
  sent: any[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((ev: { data: string }) => void) | null = null;
  onclose: ((ev: { code: number }) => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(readonly url: string) {
    ScriptedSocket.last = this;
    queueMicrotask(() => {
      this.readyState = 1;
      this.onopen?.();
    });
  }
  send(text: string): void {
    this.sent.push(JSON.parse(text));
  }
  close(): void {
    this.readyState = 3;
  }
  receive(msg: object): void {
    this.onmessage?.({ data: JSON.stringify(msg) });
  }
}

const clients: GatewayClient[] = [];

/** Closes every client `scriptedClient` made (call it in afterEach). */
export function closeClients(): void {
  for (const c of clients.splice(0)) c.close();
}

/** A GatewayClient on a ScriptedSocket, not yet connected (add listeners, then `welcome`). */
export function scriptedClient(extra: Partial<GatewayOptions> = {}): GatewayClient {
  const gw = new GatewayClient({
    url: 'ws://test',
    token: () => 'token',
    WebSocketImpl: ScriptedSocket as unknown as typeof WebSocket,
    ...extra,
  });
  clients.push(gw);
  return gw;
}

/** Connects `gw` and answers its hello with a welcome for u1; resolves with the socket. */
export async function welcome(gw: GatewayClient): Promise<ScriptedSocket> {
  gw.connect();
  await new Promise((r) => setTimeout(r, 0));
  const ws = ScriptedSocket.last!;
  ws.receive({ v: 1, t: 'welcome', userId: 'u1', name: '나', serverTime: Date.now() });
  return ws;
}
