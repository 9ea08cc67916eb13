/**
 * A Bot fed frame bytes as its socket would hand them (no socket): the header
 * read must route, time and check views exactly as a full parse would — a
 * view of another room is ignored, a header that disagrees with its body is a
 * `frameHeader` error, another seat's view a `foreignView` one, and a view for
 * its room advances the table. Views come as the room worker writes them: the
 * game's fixed members left out, except in the frames that carry them as
 * `fixed`, which the bot keeps and puts back into every view it parses.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { games, Rng } from '@joke/engine';
import { Bot, type BotSink } from '../src/bot.ts';
import { VIEW_GATES } from '../src/frames.ts';
import type { BotSocket, BotSocketEvents } from '../src/bot-socket.ts';

const game = games['one-card'];
const players = ['u1', 'u2', 'u3', 'u4'].map((id, i) => ({ id, name: `봇00000${i}` }));
const state = game.setup({
  seed: 'bot-frames',
  players,
  options: game.optionsSchema.parse({ mode: 'classic' }),
  now: 0,
});

const parts = game.viewParts!;
const fixed = parts.fixed(state);

function frame(roomId: string, seq: number, viewer: string, bodyRoomId = roomId, withFixed = false): Buffer {
  // A body whose roomId differs from the header's: the header's is written first, the body's last wins in JSON.
  const tail = bodyRoomId === roomId ? '' : `,"roomId":${JSON.stringify(bodyRoomId)}`;
  const view = { ...parts.own(state, viewer), ...parts.shared(state) };
  return Buffer.from(
    `{"v":1,"t":"view","roomId":"${roomId}","seq":${seq},"role":"player","view":${JSON.stringify(view)}` +
      `,"events":[],"presence":[]${withFixed ? `,"fixed":${JSON.stringify(fixed)}` : ''}${tail}}`,
  );
}

const bots: Bot[] = [];
afterEach(() => bots.splice(0).forEach((b) => b.stop()));

/**
 * `joined`: the bot already got its join reply (the table's fixed members); `matched` false: it still waits
 * for its quick match (no table yet).
 */
function botFor(userId: string, checkEvery: number, joined = true, matched = true) {
  const seen = { views: [] as [string, number][], errors: [] as string[], raced: 0 };
  const sink: BotSink = {
    matched() {},
    view: (roomId, seq) => void seen.views.push([roomId, seq]),
    finished() {},
    acked() {},
    latency() {},
    raced: () => void seen.raced++,
    error: (kind) => void seen.errors.push(kind),
    connected() {},
    reconnected() {},
    socket() {},
    stopping: () => false,
  };
  // The views the policy is asked about: the bot decides when a view arrives and keeps no view.
  const policyViews: any[] = [];
  const policy = { ...game, bot: (view: any, rng: Rng) => (policyViews.push(view), game.bot(view, rng)) };
  const cfg = { url: 'ws://127.0.0.1:1/ws', token: 't', userId, game: policy, gameId: 'one-card', mode: 'classic' };
  const sent: any[] = [];
  let on!: BotSocketEvents;
  const socket: BotSocket = {
    isOpen: true,
    send: (text: string) => void sent.push(JSON.parse(text)),
    close() {},
    terminate() {},
  };
  const bot = new Bot(
    {
      ...cfg,
      players: 4,
      think: () => 1000,
      requeue: false,
      gate: VIEW_GATES['one-card'],
      checkEvery,
      socket: (events) => ((on = events), socket),
    },
    sink,
  );
  bots.push(bot);
  // Signed in and matched to room-1, as its session would be.
  const message = (m: object) => on.message(Buffer.from(JSON.stringify({ v: 1, ...m })));
  bot.start();
  on.open();
  message({ t: 'welcome', userId, name: userId, serverTime: 0 });
  if (matched) message({ t: 'matched', roomId: 'room-1', game: 'one-card', mode: 'classic' });
  if (matched && joined) on.message(frame('room-1', 0, userId, 'room-1', true));
  sent.length = policyViews.length = seen.views.length = 0;
  const b = bot as unknown as { lastSeq: number; act(): void };
  return {
    feed: (buf: Buffer) => on.message(buf),
    act: () => b.act(),
    seen,
    sent,
    policyViews,
    lastSeq: () => b.lastSeq,
  };
}

describe('a bot reading frames by their header', () => {
  // Seat order: whoever may act at the start reads its view in full, the others skip theirs.
  const actor = players.find((p) => game.bot(game.view(state, p.id), Rng.fromSeed('x')) !== null)!.id;
  const idle = players.find((p) => p.id !== actor)!.id;

  for (const [who, checkEvery] of [
    ['a seat that may act', 1_000_000],
    ['a seat with nothing to do, every view checked', 1],
    ['a seat with nothing to do, none checked', 1_000_000],
  ] as const) {
    const userId = who.startsWith('a seat that') ? actor : idle;

    it(`${who}: follows its own room only`, () => {
      const { feed, seen } = botFor(userId, checkEvery);
      feed(frame('room-2', 1, userId));
      feed(frame('room-10', 2, userId));
      feed(frame('room-', 3, userId));
      feed(frame('room-1', 4, userId));
      expect(seen.views).toEqual([['room-1', 4]]);
      expect(seen.errors).toEqual([]);
    });

    // A view the gate skips and nobody checks is not opened, so nothing in its body can show.
    if (who.includes('none checked')) continue;
    it(`${who}: a body that disagrees with its header is an error`, () => {
      const { feed, seen } = botFor(userId, checkEvery);
      feed(frame('room-1', 5, userId, 'room-9'));
      expect(seen.errors).toEqual(['frameHeader']);
      expect(seen.views).toEqual([]);
    });
  }

  it('puts the fixed members back into every view it parses: the whole view the policy reads', () => {
    const { feed, seen, policyViews } = botFor(actor, 1_000_000, false);
    feed(frame('room-1', 7, actor, 'room-1', true));
    feed(frame('room-1', 8, actor));
    expect(seen.views).toEqual([
      ['room-1', 7],
      ['room-1', 8],
    ]);
    expect(policyViews).toHaveLength(2);
    expect(policyViews[1]).toEqual(JSON.parse(JSON.stringify(game.view(state, actor))));
    expect(seen.errors).toEqual([]);
  });

  it('parses a frame carrying fixed members even where the gate would skip it', () => {
    const { feed, seen, policyViews, lastSeq } = botFor(idle, 1_000_000, false);
    feed(frame('room-1', 7, idle, 'room-1', true));
    expect(policyViews).toEqual([expect.objectContaining({ game: 'one-card', options: expect.any(Object) })]);
    // The next one, without them, is read by its header alone: the policy is not asked.
    feed(frame('room-1', 8, idle));
    expect(lastSeq()).toBe(8);
    expect(policyViews).toHaveLength(1);
    expect(seen.errors).toEqual([]);
  });

  it('ignores a parsed view while it holds no fixed members and joins the table again, once', () => {
    const { feed, seen, sent, policyViews, lastSeq } = botFor(actor, 1_000_000, false);
    feed(frame('room-1', 7, actor));
    feed(frame('room-1', 8, actor));
    expect(seen.views).toEqual([]);
    expect(lastSeq()).toBe(-1);
    expect(policyViews).toEqual([]);
    expect(seen.errors).toEqual(['fixedMissing', 'fixedMissing']);
    expect(sent).toEqual([{ v: 1, t: 'join', roomId: 'room-1', spectate: false }]);
    // The join's reply brings them.
    feed(frame('room-1', 8, actor, 'room-1', true));
    expect(seen.views).toEqual([['room-1', 8]]);
  });

  it("another seat's view, opened, is an error", () => {
    const { feed, seen } = botFor(idle, 1);
    feed(frame('room-1', 6, actor));
    expect(seen.errors).toEqual(['foreignView']);
    expect(seen.views).toEqual([]);
  });
});

describe('a join the gateway could not get answered', () => {
  it('is sent again for the bot’s own table, as the browser client does, and counted', async () => {
    const { feed, seen, sent } = botFor('u1', 1);
    const unavailable = (roomId: string, actionId?: string) =>
      Buffer.from(JSON.stringify({ v: 1, t: 'error', code: 'unavailable', message: '바빠요', roomId, actionId }));
    // Another table's, and one about an action (the bot resends actions itself): no join for those.
    feed(unavailable('room-2'));
    feed(unavailable('room-1', 'a-not-pending'));
    feed(unavailable('room-1'));
    for (let i = 0; i < 400 && !sent.some((m) => m.t === 'join'); i++) await new Promise((r) => setTimeout(r, 25));
    expect(sent.filter((m) => m.t === 'join')).toEqual([{ v: 1, t: 'join', roomId: 'room-1', spectate: false }]);
    expect(seen.errors).toEqual(['unavailable', 'unavailable', 'unavailable']);
  });
});

describe('a quick-match wait the matchmaker flagged full', () => {
  it('is one queueFull refusal per wait, however many full statuses come', () => {
    const { feed, seen } = botFor('u1', 1);
    const status = (full: boolean) =>
      Buffer.from(JSON.stringify({ v: 1, t: 'queueStatus', game: 'one-card', mode: 'classic', waiting: 3, full }));
    feed(status(false));
    feed(status(true));
    feed(status(true));
    expect(seen.errors).toEqual(['queueFull']);
  });
});

describe('a quick match refused for load', () => {
  const rejected = (refusal: string) =>
    Buffer.from(JSON.stringify({ v: 1, t: 'error', code: 'queueRejected', message: '가득 찼어요', refusal }));

  it('is a refusal by its code (`capacity`), not an error, and the bot queues again a while later', async () => {
    const { feed, seen, sent } = botFor('u1', 1, false, false);
    feed(rejected('capacity'));
    expect(seen.errors).toEqual(['capacity']);
    // As a player told "try later": the same quick match again, after ≈ 2 s.
    for (let i = 0; i < 400 && !sent.some((m) => m.t === 'queue'); i++) await new Promise((r) => setTimeout(r, 25));
    expect(sent.filter((m) => m.t === 'queue')).toEqual([
      { v: 1, t: 'queue', game: 'one-card', mode: 'classic', players: 4 },
    ]);
  });

  it('any other refusal of a quick match stays an error', () => {
    const { feed, seen } = botFor('u1', 1, false, false);
    feed(rejected('unknownGame'));
    expect(seen.errors).toEqual(['queueRejected']);
  });
});

describe('stale commands (issue 39)', () => {
  // Issue 39: the worker tells a race from an illegal choice by the view seq the action carries.
  it('sends the seq of the view it decided on; `stale` is a race, any other refusal an error at once', () => {
    const actor = players.find((p) => game.bot(game.view(state, p.id), Rng.fromSeed('x')) !== null)!.id;
    const refused = (actionId: string, code: string) =>
      Buffer.from(JSON.stringify({ v: 1, t: 'rejected', roomId: 'room-1', actionId, code, reason: '안 돼요' }));
    for (const [code, raced, errors] of [
      ['stale', 1, []],
      ['illegal', 0, ['rejected']],
    ] as const) {
      const { feed, act, seen, sent } = botFor(actor, 1_000_000);
      feed(frame('room-1', 7, actor));
      act();
      const action = sent.find((m) => m.t === 'action');
      expect(action).toMatchObject({ roomId: 'room-1', seq: 7 });
      feed(refused(action.actionId, code));
      expect([seen.raced, seen.errors]).toEqual([raced, errors]);
    }
  });
});
