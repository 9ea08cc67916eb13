/**
 * View frames without the game's fixed members (protocol `view.fixed`): the client keeps the last
 * ones per room and hands on `{ ...fixed, ...view }`; a view without them while it holds none is
 * ignored and the room joined again (once per few seconds), until a frame brings them. The presence
 * list, left out of a view while it is unchanged, is held and filled in the same way. A join the
 * gateway could not get answered (`unavailable` for the room) is sent again shortly. Against a
 * scripted socket, no server.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ViewFrame } from '../src/net/gateway.ts';
import { closeClients, type ScriptedSocket, scriptedClient, welcome } from './support/scripted-socket.ts';

afterEach(closeClients);

async function online() {
  const gw = scriptedClient();
  const views: ViewFrame[] = [];
  gw.on('view', (f) => views.push(f));
  const ws = await welcome(gw);
  return { gw, ws, views };
}

const frame = (seq: number, view: object, fixed?: object) => ({
  v: 1,
  t: 'view',
  roomId: 'r1',
  seq,
  role: 'player',
  view,
  events: [],
  presence: [],
  ...(fixed ? { fixed } : {}),
});

const joins = (ws: ScriptedSocket) => ws.sent.filter((m) => m.t === 'join');

describe('fixed view members', () => {
  it('keeps the last fixed members per room and merges them into every view', async () => {
    const { gw, ws, views } = await online();
    gw.join('r1');
    expect(joins(ws)).toHaveLength(1);
    ws.receive(frame(5, { seq: 5, hand: [1] }, { game: 'one-card', decks: 1 }));
    ws.receive(frame(6, { seq: 6, hand: [] }));
    expect(views.map((v) => v.view)).toEqual([
      { game: 'one-card', decks: 1, seq: 5, hand: [1] },
      { game: 'one-card', decks: 1, seq: 6, hand: [] },
    ]);
    // New fixed members replace the old ones.
    ws.receive(frame(7, { seq: 7 }, { game: 'one-card', decks: 2 }));
    ws.receive(frame(8, { seq: 8 }));
    expect(views.slice(2).map((v) => v.view)).toEqual([
      { game: 'one-card', decks: 2, seq: 7 },
      { game: 'one-card', decks: 2, seq: 8 },
    ]);
    expect(joins(ws)).toHaveLength(1);
  });

  it('ignores a view without them while it holds none and joins the room again, once, until they come', async () => {
    const { gw, ws, views } = await online();
    gw.join('r1', true);
    ws.receive(frame(5, { seq: 5 }));
    ws.receive(frame(6, { seq: 6 }));
    expect(views).toEqual([]);
    expect(joins(ws)).toEqual([
      { v: 1, t: 'join', roomId: 'r1', spectate: true },
      { v: 1, t: 'join', roomId: 'r1', spectate: true },
    ]);
    // The join's reply brings them, at the room's current seq.
    ws.receive(frame(6, { seq: 6 }, { game: 'hula' }));
    ws.receive(frame(7, { seq: 7 }));
    expect(views.map((v) => v.view)).toEqual([
      { game: 'hula', seq: 6 },
      { game: 'hula', seq: 7 },
    ]);
    expect(joins(ws)).toHaveLength(2);
  });

  it('takes a whole view (one naming its game, from a worker older than `fixed`) as it is', async () => {
    const { gw, ws, views } = await online();
    gw.join('r1');
    ws.receive(frame(5, { game: 'one-card', seq: 5, options: {} }));
    expect(views.map((v) => v.view)).toEqual([{ game: 'one-card', seq: 5, options: {} }]);
    expect(joins(ws)).toHaveLength(1);
  });

  it('forgets them when it leaves the room', async () => {
    const { gw, ws, views } = await online();
    gw.join('r1');
    ws.receive(frame(5, { seq: 5 }, { game: 'poker' }));
    gw.leave('r1');
    gw.join('r1');
    ws.receive(frame(6, { seq: 6 }));
    expect(views).toHaveLength(1);
    expect(joins(ws)).toHaveLength(3);
  });
});

describe('the presence list left out of a view', () => {
  const seat = (id: string, connected: boolean) => ({ id, connected, away: false, bot: false });
  const bare = (seq: number, fixed?: object) => {
    const { presence: _left, ...f } = frame(seq, { seq }, fixed);
    return f;
  };

  it('fills in the last list the room got, from a view or a presence message', async () => {
    const { gw, ws, views } = await online();
    gw.join('r1');
    ws.receive({ ...frame(5, { seq: 5 }, { game: 'one-card' }), presence: [seat('a', true)] });
    ws.receive(bare(6));
    ws.receive({ v: 1, t: 'presence', roomId: 'r1', presence: [seat('a', false)] });
    ws.receive(bare(7));
    expect(views.map((v) => [v.seq, v.presence])).toEqual([
      [5, [seat('a', true)]],
      [6, [seat('a', true)]],
      [7, [seat('a', false)]],
    ]);
    expect(joins(ws)).toHaveLength(1);
  });

  it('ignores a view without one while it holds none and joins the room again', async () => {
    const { gw, ws, views } = await online();
    gw.join('r1');
    ws.receive(bare(5, { game: 'one-card' }));
    expect(views).toEqual([]);
    expect(joins(ws)).toHaveLength(2);
    // The reply brings it (and the fixed members were kept from the ignored frame).
    ws.receive({ ...frame(5, { seq: 5 }), presence: [seat('a', true)] });
    expect(views.map((v) => [v.view, v.presence])).toEqual([[{ game: 'one-card', seq: 5 }, [seat('a', true)]]]);
  });
});

describe('a join the gateway could not get answered', () => {
  const unavailable = (roomId: string, actionId?: string) => ({
    v: 1,
    t: 'error',
    code: 'unavailable',
    message: '서버가 잠시 바빠요',
    roomId,
    ...(actionId ? { actionId } : {}),
  });
  const joinsOf = (ws: ScriptedSocket, roomId: string) => joins(ws).filter((m) => m.roomId === roomId);
  /** Waits for the client's tick (1 s) to send `roomId`'s `n`th join. */
  const joinSent = async (ws: ScriptedSocket, roomId: string, n: number) => {
    for (let i = 0; i < 400 && joinsOf(ws, roomId).length < n; i++) await new Promise((r) => setTimeout(r, 25));
    expect(joinsOf(ws, roomId)).toHaveLength(n);
  };

  it('is sent again shortly while the room is still wanted, and not once a view came', async () => {
    const { gw, ws, views } = await online();
    gw.join('r1');
    ws.receive(unavailable('r1'));
    await joinSent(ws, 'r1', 2);
    expect(joinsOf(ws, 'r1')[1]).toEqual({ v: 1, t: 'join', roomId: 'r1', spectate: false });
    ws.receive(frame(3, { seq: 3 }, { game: 'one-card' }));
    expect(views).toHaveLength(1);
    // A marker: r9's join again is due after anything of r1's would have been, on the same kind of tick.
    gw.join('r9');
    ws.receive(unavailable('r9'));
    await joinSent(ws, 'r9', 2);
    expect(joinsOf(ws, 'r1')).toHaveLength(2);
  });

  it('is not sent again for a room left meanwhile, nor after an action the gateway could not deliver', async () => {
    const { gw, ws } = await online();
    gw.join('r1');
    gw.join('r2');
    ws.receive(unavailable('r1'));
    gw.leave('r1');
    void gw.act('r2', { type: 'draw' });
    const actionId = ws.sent.find((m) => m.t === 'action').actionId as string;
    // The action is kept and sent again under its id; the room needs no new join for it.
    ws.receive(unavailable('r2', actionId));
    gw.join('r9');
    ws.receive(unavailable('r9'));
    await joinSent(ws, 'r9', 2);
    expect(joinsOf(ws, 'r1')).toHaveLength(1);
    expect(joinsOf(ws, 'r2')).toHaveLength(1);
  });
});
