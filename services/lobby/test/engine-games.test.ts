/**
 * The lobby with the real engine registry: every registered game is offered
 * with its own form, a table of it starts with bots, and a game played
 * through the engine and published as RoomFinished comes back from
 * history.get as a record that verifyRecord replays exactly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { games, verifyRecord, type GameRecord } from '@joke/engine';
import { subjects } from '@joke/protocol';
import { playToEnd } from './helpers/count-game.ts';
import { startHarness, uniqueSchema, type Harness } from './helpers/harness.ts';

const schema = uniqueSchema();
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ databaseUrl: schema.url, games });
});
afterAll(async () => {
  await h?.close();
  await schema.drop();
});

describe('engine games through the lobby', () => {
  it('games.list mirrors the engine registry', async () => {
    const list = await h.anon.games.list.query();
    expect(list.map((g) => g.id).sort()).toEqual(Object.keys(games).sort());
    for (const g of list) {
      const def = games[g.id];
      expect(g).toMatchObject({ name: def.name, minPlayers: def.minPlayers, maxPlayers: def.maxPlayers });
      expect(g.optionFields).toEqual(JSON.parse(JSON.stringify(def.optionFields)));
      // Rule presets (issue 41) travel with the fields so the client keeps no copy; none = empty list.
      expect(g.presets).toEqual(JSON.parse(JSON.stringify(def.presets ?? [])));
    }
    expect(list.find((g) => g.id === 'one-card')?.presets.map((p) => p.id)).toEqual([
      'basic',
      'house',
      'colorOriginal',
      'beginner',
    ]);
  });

  for (const id of Object.keys(games)) {
    it(`${id}: a table with bots starts, plays out and replays from history`, async () => {
      const def = games[id];
      const host = await h.guest(`${def.name}방장`.slice(0, 12));
      const room = await host.api.rooms.create.mutate({ game: id, options: {} });
      for (let i = 1; i < room.minPlayers; i++) await host.api.rooms.addBot.mutate({ roomId: room.roomId });
      const started = await host.api.rooms.start.mutate({ roomId: room.roomId });
      const spec = h.mm.requests.find((r) => r.roomId === started.gameRoomId)!;
      expect(spec.players).toHaveLength(room.minPlayers);
      const record = playToEnd(def, spec.players, spec.options, `lobby-${id}`);
      expect(record.result).not.toBeNull();
      h.bus.publish(
        subjects.roomFinished,
        JSON.stringify({
          v: 1,
          roomId: started.gameRoomId,
          game: id,
          mode: String(record.options.mode),
          players: spec.players,
          record,
          result: record.result,
          finishedAt: Date.now(),
        }),
      );
      await new Promise((r) => setImmediate(r));
      await h.lobby.idle();
      const full = await host.api.history.get.query({ gameId: started.gameRoomId });
      expect(full.summary).toBe(record.result!.summary);
      const replay = verifyRecord(def, full.record as GameRecord);
      expect(replay.problems).toEqual([]);
      expect(replay.steps).toBe(record.actions.length);
    });
  }

  it('poker §12: an indian room can be shown as "이마 포커"; the list and the room use that name', async () => {
    const host = await h.guest('이마방장');
    const renamed = await host.api.rooms.create.mutate({
      game: 'poker',
      options: { mode: 'indian', indianName: 'forehead' },
    });
    expect(renamed.modeName).toBe('이마 포커');
    const plain = await host.api.rooms.create.mutate({ game: 'poker', options: { mode: 'indian' } });
    expect(plain.modeName).toBe('인디언 포커');
    const listed = await host.api.rooms.list.query({ game: 'poker' });
    expect(listed.find((r) => r.roomId === renamed.roomId)?.modeName).toBe('이마 포커');
  });
});
