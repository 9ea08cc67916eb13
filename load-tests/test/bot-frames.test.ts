/**
 * A Bot fed frame bytes as its socket would hand them (no socket): the header
 * read must route, time and check views exactly as a full parse would — a
 * view of another room is ignored, a header that disagrees with its body is a
 * `frameHeader` error, another seat's view a `foreignView` one, and a view for
 * its room advances the table.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { games, Rng } from '@joke/engine';
import { Bot, type BotSink } from '../src/bot.ts';
import { VIEW_GATES } from '../src/frames.ts';

const game = games['one-card'];
const players = ['u1', 'u2', 'u3', 'u4'].map((id, i) => ({ id, name: `봇00000${i}` }));
const state = game.setup({
  seed: 'bot-frames',
  players,
  options: game.optionsSchema.parse({ mode: 'classic' }),
  now: 0,
});

function frame(roomId: string, seq: number, viewer: string, bodyRoomId = roomId): Buffer {
  // A body whose roomId differs from the header's: the header's is written first, the body's last wins in JSON.
  const tail = bodyRoomId === roomId ? '' : `,"roomId":${JSON.stringify(bodyRoomId)}`;
  return Buffer.from(
    `{"v":1,"t":"view","roomId":"${roomId}","seq":${seq},"role":"player","view":${JSON.stringify(game.view(state, viewer))}` +
      `,"events":[],"presence":[]${tail}}`,
  );
}

const bots: Bot[] = [];
afterEach(() => bots.splice(0).forEach((b) => b.stop()));

function botFor(userId: string, checkEvery: number) {
  const seen = { views: [] as [string, number][], errors: [] as string[] };
  const sink: BotSink = {
    matched() {},
    view: (roomId, seq) => void seen.views.push([roomId, seq]),
    finished() {},
    acked() {},
    latency() {},
    raced() {},
    error: (kind) => void seen.errors.push(kind),
    connected() {},
    reconnected() {},
    socket() {},
    stopping: () => false,
  };
  const cfg = { url: 'ws://127.0.0.1:1/ws', token: 't', userId, game, gameId: 'one-card', mode: 'classic' };
  const bot = new Bot(
    { ...cfg, players: 4, think: () => 1000, requeue: false, gate: VIEW_GATES['one-card'], checkEvery },
    sink,
  );
  bots.push(bot);
  const b = bot as unknown as { roomId: string; onFrame(buf: Buffer): void };
  b.roomId = 'room-1';
  return { feed: (buf: Buffer) => b.onFrame(buf), seen };
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

  it("another seat's view, opened, is an error", () => {
    const { feed, seen } = botFor(idle, 1);
    feed(frame('room-1', 6, actor));
    expect(seen.errors).toEqual(['foreignView']);
    expect(seen.views).toEqual([]);
  });
});
