/**
 * The room list reuses its last answer (and its JSON) until something it rests on changes
 * (routers/rooms.ts, lifecycle.listedPage / stillListed). On the real PostgreSQL with fake time and
 * a page that stays in memory for a minute: each way the answer can go stale must show in the next
 * call — a host's mark running out, a new mark, a judgement, a mutation patching the page.
 */
import { FakeClock } from '@joke/bus/clock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, uniqueSchema, type Harness } from './helpers/harness.ts';

const schema = uniqueSchema('listreuse');
const LIMITS = { awayAfterMs: 5_000, hostGraceMs: 20_000, emptyCloseMs: 60_000, tickMs: 0 };
const clock = new FakeClock(Date.UTC(2026, 11, 1, 12));
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ databaseUrl: schema.url, presence: LIMITS, clock, listCacheMs: 60_000 });
});
afterAll(async () => {
  await h?.close();
  await schema.drop();
});

describe('room list answer reuse', () => {
  it('a reused answer never outlives what it rests on', async () => {
    const host = await h.guest('재사용방장');
    const mate = await h.guest('재사용손님');
    const room = await host.api.rooms.create.mutate({ game: 'count', options: { mode: 'classic' } });
    const mine = async () =>
      (await mate.api.rooms.list.query({ limit: 20 })).find((r) => r.roomId === room.roomId) ?? null;

    // Not judged yet: shown while its host was just heard from, the same answer twice.
    expect(await mine()).toMatchObject({ seated: 1 });
    expect(await mine()).toMatchObject({ seated: 1 });
    // The host's mark runs out with time alone: the next call must not reuse the answer.
    await clock.advance(LIMITS.awayAfterMs);
    expect(await mine()).toBeNull();
    // A new mark (the host's waiting room asks for the room) brings it back.
    await host.api.rooms.get.query({ roomId: room.roomId });
    expect(await mine()).toMatchObject({ seated: 1 });
    // A judgement replaces the room's state: present, still shown.
    await h.lobby.lifecycle();
    expect(await mine()).toMatchObject({ seated: 1 });
    // A join through this process patches the page: the seat shows at once.
    await mate.api.rooms.join.mutate({ roomId: room.roomId });
    expect(await mine()).toMatchObject({ seated: 2 });
    // Everyone goes quiet; once judged absent the room leaves the list.
    await clock.advance(LIMITS.awayAfterMs);
    await h.lobby.lifecycle();
    expect(await mine()).toBeNull();
    // Only the first call read the database: every answer above came from memory.
    expect(h.lobby.directory.loads).toBe(1);
  });
});
