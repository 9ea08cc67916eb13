/**
 * Stale commands (issue 39): every action the client sends carries the seq of the room's view it was
 * chosen on, resends included; a refusal `stale` (someone moved first) resolves as a race, not as an
 * illegal move. Against a scripted socket, no server.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ActResult } from '../src/net/gateway.ts';
import { closeClients, type ScriptedSocket, scriptedClient, welcome } from './support/scripted-socket.ts';

afterEach(closeClients);

async function online() {
  const gw = scriptedClient();
  const ws = await welcome(gw);
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
