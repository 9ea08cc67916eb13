/**
 * The quick-match wait's size against a late acknowledgement: on a loaded box the gateway's first try of
 * a `queue` timed out, the matchmaker served it anyway and told the queue's size, and the retry's reply
 * (`queued`) reached the client last. The size must stand: nothing repeats it until the queue changes
 * (queue-full-processes-browser.test.ts waited 90 s for "1/2명" so). Against a scripted socket, no server.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayClient, type QueueStatus } from '../src/net/gateway.ts';

class ScriptedSocket {
  static last: ScriptedSocket | null = null;
  readyState = 0;
  sent: { t: string }[] = [];
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
    this.sent.push(JSON.parse(text) as { t: string });
  }
  close(): void {
    this.readyState = 3;
  }
  receive(msg: object): void {
    this.onmessage?.({ data: JSON.stringify(msg) });
  }
}

const clients: GatewayClient[] = [];
afterEach(() => {
  for (const c of clients.splice(0)) c.close();
});

async function queued(): Promise<{ ws: ScriptedSocket; seen: QueueStatus[]; gw: GatewayClient }> {
  const gw = new GatewayClient({
    url: 'ws://test',
    token: () => 'token',
    WebSocketImpl: ScriptedSocket as unknown as typeof WebSocket,
  });
  clients.push(gw);
  const seen: QueueStatus[] = [];
  gw.on('queue', (s) => seen.push(s));
  gw.connect();
  await new Promise((r) => setTimeout(r, 0));
  const ws = ScriptedSocket.last!;
  ws.receive({ v: 1, t: 'welcome', userId: 'u1', name: '나', serverTime: Date.now() });
  gw.queue({ game: 'one-card', mode: 'classic', players: 2, bots: false });
  expect(ws.sent.some((m) => m.t === 'queue')).toBe(true);
  return { ws, seen, gw };
}

const q = { v: 1, game: 'one-card', mode: 'classic', players: 2 };

describe('the quick-match wait', () => {
  it('keeps the size it was told when the acknowledgement comes after it', async () => {
    const { ws, seen } = await queued();
    ws.receive({ ...q, t: 'queueStatus', waiting: 1, botsAt: null });
    ws.receive({ ...q, t: 'queued' });
    expect(seen.map((s) => s.waiting)).toEqual([1, 1]);
  });

  it('knows no size from an acknowledgement alone, nor from a queue left before', async () => {
    const { ws, seen, gw } = await queued();
    ws.receive({ ...q, t: 'queued' });
    ws.receive({ ...q, t: 'queueStatus', waiting: 2, botsAt: null, full: true });
    gw.unqueue();
    gw.queue({ game: 'one-card', mode: 'classic', players: 2, bots: false });
    ws.receive({ ...q, t: 'queued' });
    expect(seen.map((s) => s.waiting)).toEqual([null, 2, null]);
  });
});
