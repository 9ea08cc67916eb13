/**
 * Stale commands (issue 39): every action the client sends carries the seq of the room's view it was
 * chosen on, resends included; a refusal `stale` (someone moved first) resolves as a race, not as an
 * illegal move. Against a scripted socket, no server.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayClient, type ActResult } from '../src/net/gateway.ts';

class ScriptedSocket {
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
afterEach(() => {
  for (const c of clients.splice(0)) c.close();
});

async function online() {
  const gw = new GatewayClient({
    url: 'ws://test',
    token: () => 'token',
    WebSocketImpl: ScriptedSocket as unknown as typeof WebSocket,
  });
  clients.push(gw);
  gw.connect();
  await new Promise((r) => setTimeout(r, 0));
  const ws = ScriptedSocket.last!;
  ws.receive({ v: 1, t: 'welcome', userId: 'u1', name: '나', serverTime: Date.now() });
  return { gw, ws };
}

const view = (seq: number) => ({
  v: 1,
  t: 'view',
  roomId: 'r1',
  seq,
  role: 'player',
  view: { game: 'one-card', seq },
  events: [],
  presence: [],
});
const actions = (ws: ScriptedSocket) => ws.sent.filter((m) => m.t === 'action');

describe('stale commands', () => {
  it('sends the seq of the view the move was chosen on, and none before any view', async () => {
    const { gw, ws } = await online();
    void gw.act('r1', { type: 'draw' }, 'a0');
    gw.join('r1');
    ws.receive(view(4));
    ws.receive(view(7));
    void gw.act('r1', { type: 'draw' }, 'a1');
    ws.receive(view(8));
    expect(actions(ws).map((m) => [m.actionId, m.seq])).toEqual([
      ['a0', undefined],
      ['a1', 7],
    ]);
  });

  it('resolves a `stale` refusal as a race with its code, any other refusal as before', async () => {
    const { gw, ws } = await online();
    gw.join('r1');
    ws.receive(view(3));
    const results: ActResult[] = [];
    void gw.act('r1', { type: 'draw' }, 'a1').then((r) => results.push(r));
    void gw.act('r1', { type: 'play' }, 'a2').then((r) => results.push(r));
    ws.receive({
      v: 1,
      t: 'rejected',
      roomId: 'r1',
      actionId: 'a1',
      code: 'stale',
      reason: '이미 지난 화면에서 보낸 동작이에요',
    });
    ws.receive({ v: 1, t: 'rejected', roomId: 'r1', actionId: 'a2', code: 'illegal', reason: '낼 수 없는 카드예요' });
    await new Promise((r) => setTimeout(r, 0));
    expect(results).toEqual([
      { ok: false, code: 'stale', race: true, reason: '이미 지난 화면에서 보낸 동작이에요' },
      { ok: false, code: 'illegal', reason: '낼 수 없는 카드예요' },
    ]);
  });
});
