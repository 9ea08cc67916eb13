/**
 * The quick-match wait's size against a late acknowledgement: on a loaded box the gateway's first try of
 * a `queue` timed out, the matchmaker served it anyway and told the queue's size, and the retry's reply
 * (`queued`) reached the client last. The size must stand: nothing repeats it until the queue changes
 * (queue-full-processes-browser.test.ts waited 90 s for "1/2명" so). Against a scripted socket, no server.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayClient, QueueStatus } from '../src/net/gateway.ts';
import { closeClients, type ScriptedSocket, scriptedClient, welcome } from './support/scripted-socket.ts';

afterEach(closeClients);

async function queued(): Promise<{ ws: ScriptedSocket; seen: QueueStatus[]; gw: GatewayClient }> {
  const gw = scriptedClient();
  const seen: QueueStatus[] = [];
  gw.on('queue', (s) => seen.push(s));
  const ws = await welcome(gw);
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
