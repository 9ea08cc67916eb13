/**
 * history.replay (복기 by link): who may read a finished game's record, and that what it returns names
 * no account yet still replays exactly. Runs against a real PostgreSQL schema with the in-process bus.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRPCClientError } from '@trpc/client';
import { subjects, bus as wire } from '@joke/protocol';
import { games, verifyRecord, type GameRecord } from '@joke/engine';
import { LOBBY_MESSAGES as MSG } from '../src/index.ts';
import { pseudonymize } from '../src/routers/replay.ts';
import { countGame, playToEnd } from './helpers/count-game.ts';
import { startHarness, uniqueSchema, type Harness } from './helpers/harness.ts';

const schema = uniqueSchema();
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ databaseUrl: schema.url });
});
afterAll(async () => {
  await h?.close();
  await schema.drop();
});

async function refusal(p: Promise<unknown>): Promise<{ code: string; message: string; replay: unknown }> {
  try {
    await p;
  } catch (e) {
    if (e instanceof TRPCClientError) return { code: e.data?.code, message: e.message, replay: e.data?.replay };
    throw e;
  }
  throw new Error('expected the call to fail');
}

/** Two people and a bot start a game in a room (public or private); `finish` publishes its end. */
async function startedTable(isPrivate: boolean) {
  const [a, b] = await Promise.all([h.guest('복기A'), h.guest('복기B')]);
  const room = await a.api.rooms.create.mutate({ game: 'count', options: { target: 6 }, isPrivate });
  const code = (room as { code?: string }).code;
  await b.api.rooms.join.mutate(isPrivate ? { code } : { roomId: room.roomId });
  await a.api.rooms.addBot.mutate({ roomId: room.roomId });
  const started = await a.api.rooms.start.mutate({ roomId: room.roomId });
  const spec = h.mm.requests.find((r) => r.roomId === started.gameRoomId)!;
  const record = playToEnd(countGame, spec.players, spec.options, `seed-${started.gameRoomId}`);
  const finish = async () => {
    const msg: wire.RoomFinished = {
      v: 1,
      roomId: spec.roomId,
      game: spec.game,
      mode: String(record.options.mode),
      players: spec.players,
      record: record as unknown as Record<string, unknown>,
      result: record.result as unknown as Record<string, unknown>,
      finishedAt: record.startedAt + 60_000,
    };
    h.bus.publish(subjects.roomFinished, JSON.stringify(msg));
    await new Promise((r) => setImmediate(r));
    await h.lobby.idle();
  };
  return { a, b, room, gameId: started.gameRoomId, record, finish };
}

describe('history.replay', () => {
  it('a public game: anyone with the id, no token; nicknames only, and the record still verifies', async () => {
    const t = await startedTable(false);
    await t.finish();
    const got = await h.anon.history.replay.query({ gameId: t.gameId });
    expect(got.isPrivate).toBe(false);
    expect(got.players.map((p) => p.name)).toEqual(['복기A', '복기B', expect.any(String)]);
    expect(got.players.every((p) => !('userId' in p))).toBe(true);
    const text = JSON.stringify(got);
    expect(text).not.toContain(t.a.id);
    expect(text).not.toContain(t.b.id);
    expect(text).not.toContain('lobbyRoomId');
    expect(got.record.players.map((p) => p.id)).toEqual(['seat0', 'seat1', 'seat2']);
    expect(got.seed).toBe(t.record.seed);
    expect(verifyRecord(countGame, got.record as GameRecord)).toMatchObject({
      ok: true,
      steps: t.record.actions.length,
    });
  });

  it('a private room game: sign-in asked of the anonymous, refused to strangers, given to members', async () => {
    const t = await startedTable(true);
    await t.finish();
    expect(await refusal(h.anon.history.replay.query({ gameId: t.gameId }))).toEqual({
      code: 'UNAUTHORIZED',
      message: MSG.replaySignIn,
      replay: 'signIn',
    });
    const stranger = await h.guest('남남');
    expect(await refusal(stranger.api.history.replay.query({ gameId: t.gameId }))).toEqual({
      code: 'FORBIDDEN',
      message: MSG.replayPrivate,
      replay: 'private',
    });
    const got = await t.b.api.history.replay.query({ gameId: t.gameId });
    expect(got.isPrivate).toBe(true);
    expect(verifyRecord(countGame, got.record as GameRecord).ok).toBe(true);
    // Someone who joined the room afterwards (by its code) is a member too.
    const room = await t.a.api.rooms.get.query({ roomId: t.room.roomId });
    const late = await h.guest('늦게옴');
    await late.api.rooms.join.mutate({ code: (room as { code?: string }).code });
    expect((await late.api.history.replay.query({ gameId: t.gameId })).gameId).toBe(t.gameId);
  });

  it('a game still being played, or an unknown id, returns nothing (NOT_FOUND, with its code)', async () => {
    const t = await startedTable(false);
    expect(await refusal(h.anon.history.replay.query({ gameId: t.gameId }))).toEqual({
      code: 'NOT_FOUND',
      message: MSG.replayPlaying,
      replay: 'playing',
    });
    expect(await refusal(t.a.api.history.replay.query({ gameId: t.gameId }))).toMatchObject({ replay: 'playing' });
    expect(await refusal(h.anon.history.replay.query({ gameId: 'g_nowhere' }))).toEqual({
      code: 'NOT_FOUND',
      message: MSG.replayNotFound,
      replay: 'notFound',
    });
    await t.finish();
    expect((await h.anon.history.replay.query({ gameId: t.gameId })).gameId).toBe(t.gameId);
  });

  it('seat pseudonyms keep every engine game replayable (원카드, 포커, 훌라)', () => {
    const cases: [keyof typeof games, Record<string, unknown>][] = [
      ['one-card', { mode: 'classic' }],
      ['poker', { mode: 'holdem' }],
      ['hula', {}],
    ];
    for (const [id, options] of cases) {
      const players = [
        { id: 'u_person000000001', name: '가' },
        { id: 'u_person000000002', name: '나' },
      ];
      const record = playToEnd(games[id], players, options, `pseudo-${id}`);
      const names = new Map(players.map((p, i) => [p.id, `seat${i}`]));
      const out = pseudonymize(record as GameRecord, names);
      expect(JSON.stringify(out)).not.toContain('u_person');
      expect(verifyRecord(games[id], out)).toMatchObject({ ok: true, problems: [] });
    }
  });
});
