/**
 * The room list served from memory (rooms/directory.ts) on the real
 * PostgreSQL: this process's own changes show in the very next list without a
 * database read, and what the database would answer is what memory answers;
 * another replica's change shows when the page is next read (the age bound,
 * `listCacheMs`, is stood in for by `changed()` so no test waits a wall-clock minute).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessBus } from '@joke/bus';
import { startHarness, uniqueSchema, type Harness } from './helpers/harness.ts';

const schema = uniqueSchema('listcache');
// One bus: the replicas share their presence marks, so all three judge presence alike.
const bus = new InProcessBus();
let a: Harness;
let b: Harness;
let fresh: Harness;
beforeAll(async () => {
  // a and b: two replicas with a long cache; fresh: a third that always reads the database.
  a = await startHarness({ databaseUrl: schema.url, listCacheMs: 60_000, bus, presence: { tickMs: 0 } });
  b = await startHarness({ databaseUrl: schema.url, listCacheMs: 60_000, bus, presence: { tickMs: 0 } });
  fresh = await startHarness({ databaseUrl: schema.url, listCacheMs: 0, bus, presence: { tickMs: 0 } });
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await fresh?.close();
  await bus.close();
  await schema.drop();
});

const ids = (rooms: { roomId: string }[]) => rooms.map((r) => r.roomId);

describe('room list cache', () => {
  it("shows this replica's creates, joins, bots and leaves at once, exactly as the database would", async () => {
    const host = await a.guest('방장');
    const other = await a.guest('손님');
    const viewer = await fresh.guest('확인');
    const filters = [{ limit: 5 }, { limit: 5, hasOpenSeats: true }, { limit: 5, inProgress: false }, { limit: 50 }];
    const same = async () => {
      // Both judge presence from the same marks at the same moment (a's marks reach fresh on a's tick).
      await a.lobby.lifecycle();
      await a.lobby.lifecycle();
      await fresh.lobby.lifecycle();
      for (const f of filters) expect(await host.api.rooms.list.query(f)).toEqual(await viewer.api.rooms.list.query(f));
    };
    for (const f of filters) await host.api.rooms.list.query(f);
    const loads = a.lobby.directory.loads;

    const r1 = await host.api.rooms.create.mutate({ game: 'count', options: { mode: 'classic' } });
    const r2 = await other.api.rooms.create.mutate({ game: 'count', options: { mode: 'classic' } });
    await same();
    await other.api.rooms.join.mutate({ roomId: r1.roomId });
    await host.api.rooms.addBot.mutate({ roomId: r1.roomId });
    await host.api.rooms.addBot.mutate({ roomId: r1.roomId }); // r1 is now full: out of hasOpenSeats
    await same();
    expect(ids(await host.api.rooms.list.query({ limit: 5, hasOpenSeats: true }))).not.toContain(r1.roomId);
    await other.api.rooms.leave.mutate({ roomId: r2.roomId }); // r2 closes
    await same();
    expect(ids(await host.api.rooms.list.query({ limit: 50 }))).not.toContain(r2.roomId);
    // Only a page that lost a room while full needed the database again.
    expect(a.lobby.directory.loads - loads).toBeLessThanOrEqual(filters.length);
  });

  it("another replica's change shows when the page is read again (at most listCacheMs later), not before", async () => {
    const someone = await b.guest('다른 방장');
    const watcher = await a.guest('구경');
    const seen = ids(await watcher.api.rooms.list.query({ limit: 50 }));
    const room = await someone.api.rooms.create.mutate({ game: 'count', options: { mode: 'classic' } });
    await b.lobby.lifecycle();
    // a's page is a minute fresh: b's room is not in it yet (the bound, not a promise to be stale).
    expect(ids(await watcher.api.rooms.list.query({ limit: 50 }))).toEqual(seen);
    a.lobby.directory.changed();
    expect(ids(await watcher.api.rooms.list.query({ limit: 50 }))[0]).toBe(room.roomId);
  });
});
