/** The embedded default: the same migrations and procedures on an in-process PGlite, no server. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { InProcessBus } from '@joke/bus';
import { subjects } from '@joke/protocol';
import { verifyRecord, type GameRecord } from '@joke/engine';
import { createLobby } from '../src/index.ts';
import { openDatabase } from '../src/db/open.ts';
import { loadMigrations } from '../src/db/migrate.ts';
import { countGame, playToEnd } from './helpers/count-game.ts';
import { failure, startHarness } from './helpers/harness.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

// PGlite's start-up is CPU-bound WebAssembly: 5 s on a quiet box, 19–35 s at load 20–36 (it hit 30 s once).
describe('embedded PGlite', { timeout: 300_000 }, () => {
  it('runs a table from sign-in to a recorded, replayable game', async () => {
    const started = performance.now();
    const h = await startHarness();
    const startupMs = Math.round(performance.now() - started);
    try {
      expect(h.lobby.database.kind).toBe('pglite');
      console.log(`PGlite lobby start-up (in memory, cold, migrations included): ${startupMs} ms`);
      const [a, b] = await Promise.all([h.guest('임베드A'), h.guest('임베드B')]);
      const room = await a.api.rooms.create.mutate({ game: 'count', options: { mode: 'duel', target: 4 } });
      await b.api.rooms.join.mutate({ code: room.code! });
      const c = await h.guest('임베드C');
      expect(await failure(c.api.rooms.join.mutate({ roomId: room.roomId }))).toMatchObject({
        message: '방이 가득 찼어요',
      });
      const go = await a.api.rooms.start.mutate({ roomId: room.roomId });
      const spec = h.mm.requests[0];
      const record = playToEnd(countGame, spec.players, spec.options, 'pglite-seed');
      h.bus.publish(
        subjects.roomFinished,
        JSON.stringify({
          v: 1,
          roomId: go.gameRoomId,
          game: 'count',
          mode: 'duel',
          players: spec.players,
          record,
          result: record.result,
          finishedAt: Date.now(),
        }),
      );
      await new Promise((r) => setImmediate(r));
      await h.lobby.idle();
      const mine = await b.api.history.mine.query();
      expect(mine.games.map((g) => g.gameId)).toEqual([go.gameRoomId]);
      const full = await b.api.history.get.query({ gameId: go.gameRoomId });
      expect(verifyRecord(countGame, full.record as GameRecord)).toMatchObject({ ok: true });
      expect((await a.api.rooms.get.query({ roomId: room.roomId })).status).toBe('waiting');
    } finally {
      await h.close();
    }
  });

  it('a data directory keeps everything across restarts; migrations are not re-applied', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lobby-pglite-'));
    dirs.push(dir);
    const first = await openDatabase({ dataDir: dir });
    expect(first.migrations.applied).toEqual((await loadMigrations()).map((m) => m.name));
    await first.prisma.user.create({ data: { id: 'u_persisted', nickname: '남아요' } });
    await first.close();

    const bus = new InProcessBus();
    const started = performance.now();
    const lobby = await createLobby({
      bus,
      dataDir: dir,
      jwtSecret: 'x'.repeat(32),
      games: {},
      log: pino({ level: 'silent' }),
    });
    const reopenMs = Math.round(performance.now() - started);
    try {
      console.log(`PGlite lobby reopen (data dir): ${reopenMs} ms`);
      expect(lobby.database.migrations.applied).toEqual([]);
      expect(await lobby.db.user.findUnique({ where: { id: 'u_persisted' } })).toMatchObject({ nickname: '남아요' });
    } finally {
      await lobby.close();
      await bus.close();
    }
  });
});
