/**
 * The session core on a fake transport and a fake clock: every behaviour the three protocol users
 * rely on (hello, join, resync of fixed members and presence, actions under their id across a
 * reconnect, join retries after `unavailable` on a bounded jittered back-off, races, reconnects).
 */
import { describe, expect, it } from 'vitest';
import { Session, type ActResult, type SessionHandler, type SessionOptions } from '../src/index.ts';
import { FakeClock, fakeNetwork } from './fakes.ts';

const PRESENCE = [{ id: 'u1', connected: true, away: false, bot: false }];

function setup(over: Partial<SessionOptions> = {}, handler: SessionHandler = {}) {
  const clock = new FakeClock();
  const net = fakeNetwork();
  const seen = {
    views: [] as { seq: number; view: any; presence: unknown }[],
    errors: [] as string[],
    resyncs: [] as string[],
  };
  const session = new Session({
    connect: net.connect,
    token: () => 'tok',
    clock,
    random: () => 0.5,
    handler: {
      view: (f, presence) => seen.views.push({ seq: f.seq, view: f.view, presence }),
      error: (m) => seen.errors.push(m.code),
      resync: (roomId, seq, missing) => seen.resyncs.push(`${roomId}#${seq}:${missing}`),
      ...handler,
    },
    ...over,
  });
  const online = () => {
    const s = net.sockets.at(-1)!;
    s.events.open();
    s.feed({ t: 'welcome', userId: 'u1', name: 'U', serverTime: clock.now() });
    return s;
  };
  return { clock, net, session, seen, online };
}

const view = (seq: number, extra: object = {}) => ({
  t: 'view',
  roomId: 'r1',
  seq,
  role: 'player',
  view: { viewer: 'u1', turn: seq },
  events: [],
  ...extra,
});

describe('Session', () => {
  it('says hello on open, goes online on welcome and sends the joins it was asked for meanwhile', () => {
    const { session, net, online } = setup();
    session.join('r1');
    session.connect();
    expect(session.status).toBe('connecting');
    const s = online();
    expect(s.sent.map((m) => m.t)).toEqual(['hello', 'join']);
    expect(s.of('hello')[0]).toMatchObject({ token: 'tok', revision: 2 });
    expect(session.status).toBe('online');
    session.join('r2', true);
    expect(net.sockets[0].of('join').at(-1)).toMatchObject({ roomId: 'r2', spectate: true });
  });

  it('puts the fixed members back into views that leave them out and keeps presence', () => {
    const { session, online, seen } = setup();
    session.join('r1');
    session.connect();
    const s = online();
    s.feed(view(1, { fixed: { game: 'one-card', seed: 'x' }, presence: PRESENCE }));
    s.feed(view(2));
    expect(seen.views.map((v) => v.seq)).toEqual([1, 2]);
    expect(seen.views[1].view).toEqual({ viewer: 'u1', turn: 2, game: 'one-card', seed: 'x' });
    expect(seen.views[1].presence).toEqual(PRESENCE);
    // A replay older than what was shown is dropped.
    s.feed(view(1, { fixed: { game: 'one-card' }, presence: PRESENCE }));
    expect(seen.views).toHaveLength(2);
  });

  it('drops half a view and joins again, at most once per 3 s, until the reply brings what was missing', () => {
    const { session, online, seen, clock } = setup();
    session.join('r1');
    session.connect();
    const s = online();
    s.feed(view(5, { presence: PRESENCE }));
    s.feed(view(6));
    expect(seen.views).toHaveLength(0);
    expect(seen.resyncs).toEqual(['r1#5:fixed', 'r1#6:fixed']);
    expect(s.of('join')).toHaveLength(2); // the first join, one resync
    clock.advance(3_000);
    s.feed(view(7));
    expect(s.of('join')).toHaveLength(3);
    s.feed(view(7, { fixed: { game: 'g' } }));
    expect(seen.views.map((v) => v.seq)).toEqual([7]);
  });

  it('resyncs a view without presence while the room holds none', () => {
    const { session, online, seen } = setup();
    session.join('r1');
    session.connect();
    const s = online();
    s.feed(view(1, { fixed: { game: 'g' } }));
    expect(seen.resyncs).toEqual(['r1#1:presence']);
    s.feed({ t: 'presence', roomId: 'r1', presence: PRESENCE });
    s.feed(view(2));
    expect(seen.views.map((v) => v.seq)).toEqual([2]);
  });

  it('settles an action on its ack, sends the seq it was chosen on, and reports `stale` as a race', () => {
    const { session, online } = setup();
    session.join('r1');
    session.connect();
    const s = online();
    s.feed(view(4, { fixed: { game: 'g' }, presence: PRESENCE }));
    const results: ActResult[] = [];
    session.act('r1', { type: 'play' }, (r) => results.push(r), 'a1');
    session.act('r1', { type: 'pass' }, (r) => results.push(r), 'a2');
    expect(s.of('action').map((m) => [m.actionId, m.seq])).toEqual([
      ['a1', 4],
      ['a2', 4],
    ]);
    s.feed({ t: 'ack', roomId: 'r1', actionId: 'a1', seq: 5 });
    s.feed({ t: 'rejected', roomId: 'r1', actionId: 'a2', reason: '늦었어요', code: 'stale' });
    expect(results).toEqual([
      { ok: true, seq: 5 },
      { ok: false, reason: '늦었어요', code: 'stale', race: true },
    ]);
    expect(session.pendingCount).toBe(0);
  });

  it('reconnects on a jittered back-off and resends unanswered actions under their id after the welcome', () => {
    const { session, net, online, clock } = setup({ random: () => 0 });
    session.join('r1');
    session.connect();
    const first = online();
    const results: ActResult[] = [];
    session.act('r1', { type: 'draw' }, (r) => results.push(r), 'a7');
    first.drop();
    expect(session.status).toBe('reconnecting');
    // random 0 → the low end of ±25 %: 400 ms × 0.75.
    clock.advance(299);
    expect(net.sockets).toHaveLength(1);
    clock.advance(1);
    expect(net.sockets).toHaveLength(2);
    const second = online();
    expect(second.sent.map((m) => m.t)).toEqual(['hello', 'join', 'action']);
    expect(second.of('action')[0].actionId).toBe('a7');
    second.feed({ t: 'ack', roomId: 'r1', actionId: 'a7', seq: 3 });
    expect(results).toEqual([{ ok: true, seq: 3 }]);
  });

  it('grows the reconnect wait up to its cap and stops when the budget runs out', () => {
    const closes: (number | null)[] = [];
    const { session, net, clock } = setup(
      { reconnect: { baseMs: 100, maxMs: 400, jitter: 0, budget: 4 } },
      { closed: (_code, wait) => closes.push(wait) },
    );
    session.connect();
    for (let i = 0; i < 5; i++) {
      net.sockets.at(-1)!.drop();
      clock.advance(1_000);
    }
    expect(closes).toEqual([100, 200, 400, 400, null]);
    expect(session.status).toBe('closed');
  });

  it('stays closed when its handler closes it on a lost socket: no reconnect is armed', () => {
    const statuses: string[] = [];
    const { session, net, clock, online } = setup(
      {},
      { closed: () => session.close(), status: (s) => statuses.push(s) },
    );
    session.connect();
    online();
    net.sockets[0].drop();
    expect(statuses).toEqual(['connecting', 'online', 'closed']);
    expect(clock.armed).toBe(0);
    clock.advance(60_000);
    expect(net.sockets).toHaveLength(1);
  });

  it('retries an action the gateway answered `unavailable` under the same id, then gives up at its budget', () => {
    const { session, online, clock } = setup({ actionRetry: { baseMs: 100, maxMs: 1_000, jitter: 0.25, budget: 2 } });
    session.join('r1');
    session.connect();
    const s = online();
    const results: ActResult[] = [];
    session.act('r1', 'x', (r) => results.push(r), 'a1');
    for (let i = 0; i < 3; i++) {
      s.feed({ t: 'error', code: 'unavailable', message: '바빠요', roomId: 'r1', actionId: 'a1' });
      clock.advance(1_000);
    }
    expect(s.of('action').map((m) => m.actionId)).toEqual(['a1', 'a1', 'a1']);
    expect(results).toEqual([expect.objectContaining({ ok: false, code: 'gaveUp' })]);
  });

  it('sends an unanswered action again after actionResendMs and gives up after actionGiveUpMs', () => {
    const unanswered: string[] = [];
    const { session, online, clock } = setup(
      { actionResendMs: 1_000, actionGiveUpMs: 2_500 },
      { unanswered: (_r, id) => unanswered.push(id) },
    );
    session.connect();
    const s = online();
    const results: ActResult[] = [];
    session.act('r1', 'x', (r) => results.push(r), 'a1');
    clock.advance(2_000);
    expect(unanswered).toEqual(['a1', 'a1']);
    expect(s.of('action')).toHaveLength(3);
    clock.advance(1_000);
    expect(results).toEqual([expect.objectContaining({ ok: false, code: 'timeout' })]);
  });

  it('joins again after `unavailable` on a bounded jittered back-off, and reports when the budget runs out', () => {
    const gaveUp: string[] = [];
    const { session, online, clock, seen } = setup(
      { joinRetry: { baseMs: 1_000, maxMs: 4_000, jitter: 0.25, budget: 3 } },
      { joinGaveUp: (roomId) => gaveUp.push(roomId) },
    );
    session.join('r1');
    session.connect();
    const s = online();
    const unavailable = { t: 'error', code: 'unavailable', message: '바빠요', roomId: 'r1' };
    const joinsAt: number[] = [];
    const t0 = clock.now();
    for (let i = 0; i < 4; i++) {
      s.feed(unavailable);
      const before = s.of('join').length;
      for (let ms = 0; ms < 6_000 && s.of('join').length === before; ms += 50) clock.advance(50);
      if (s.of('join').length > before) joinsAt.push(clock.now() - t0);
    }
    // 1 s, 2 s, 4 s (random 0.5: no jitter), each counted from the previous join.
    expect(joinsAt).toEqual([1_000, 3_000, 7_000]);
    expect(gaveUp).toEqual(['r1']);
    expect(seen.errors).toEqual(['unavailable', 'unavailable', 'unavailable', 'unavailable']);
  });

  it('does not join again for an error about an action it no longer waits on', () => {
    const { session, online, clock, seen } = setup();
    session.join('r1');
    session.connect();
    const s = online();
    s.feed({ t: 'error', code: 'unavailable', message: '바빠요', roomId: 'r1', actionId: 'answered-long-ago' });
    clock.advance(20_000);
    expect(s.of('join')).toHaveLength(1);
    expect(seen.errors).toEqual(['unavailable']);
  });

  it('holds an action made before the welcome and sends it once, after the welcome', () => {
    const { session, net, online } = setup();
    session.connect();
    net.sockets[0].events.open();
    session.act('r1', 'x', () => {}, 'a1');
    expect(net.sockets[0].of('action')).toHaveLength(0);
    const s = online();
    expect(s.of('action').map((m) => m.actionId)).toEqual(['a1']);
  });

  it('forgets a room the gateway says is gone, and closes for good on a fatal error', () => {
    const { session, online } = setup();
    session.join('r1');
    session.connect();
    const s = online();
    s.feed({ t: 'error', code: 'noRoom', message: '없어요', roomId: 'r1' });
    expect(session.room('r1')).toBeUndefined();
    const results: ActResult[] = [];
    session.act('r2', 'x', (r) => results.push(r), 'a1');
    s.feed({ t: 'error', code: 'badToken', message: '다시 로그인' });
    expect(session.status).toBe('closed');
    expect(results).toEqual([expect.objectContaining({ code: 'closed' })]);
  });

  it('takes a header-only view seq for the next action (the bots’ fast path)', () => {
    const { session, online } = setup();
    session.join('r1');
    session.connect();
    const s = online();
    session.viewSeen('r1', 9);
    session.act('r1', 'x', () => {}, 'a1');
    expect(s.of('action')[0].seq).toBe(9);
  });

  it('pings while online and closes a silent socket', () => {
    const { session, net, online, clock } = setup({ pingEveryMs: 1_000, silenceMs: 2_500 });
    session.connect();
    online();
    clock.advance(2_000);
    expect(net.sockets[0].of('ping')).toHaveLength(2);
    clock.advance(1_000);
    expect(net.sockets[0].closed).toBe(4001);
  });
});
