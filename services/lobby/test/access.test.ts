/**
 * Issue 10: the lobby answers the gateways' private-room membership question
 * (subjects.roomAccess): a private room's game is open to its host, its seats
 * and its spectators (all came in with the invite code); public rooms' games
 * and games the lobby does not know (quick-match tables) to anyone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, contract } from '@joke/protocol';
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

const may = async (userId: string, roomId: string) => {
  const r = await call(h.bus, contract.roomAccess, { v: 1, userId, roomId }, 5000);
  if (!r.ok) throw new Error(r.reason);
  return r.allowed;
};

describe('subjects.roomAccess', () => {
  it("a private room's game: host, seats and spectators yes, anyone else no", async () => {
    const [host, seated, watcher, outsider] = await Promise.all(
      ['접근방장', '접근좌석', '접근관전', '접근외부'].map((n) => h.guest(n)),
    );
    const room = await host.api.rooms.create.mutate({ game: 'count', options: { mode: 'duel' }, isPrivate: true });
    const code = (await host.api.rooms.get.query({ roomId: room.roomId })).code!;
    await seated.api.rooms.join.mutate({ code });
    await watcher.api.rooms.spectate.mutate({ code });
    const started = await host.api.rooms.start.mutate({ roomId: room.roomId });
    for (const u of [host, seated, watcher]) expect(await may(u.id, started.gameRoomId)).toBe(true);
    expect(await may(outsider.id, started.gameRoomId)).toBe(false);
  });

  it("a public room's game and a game the lobby never saw: anyone", async () => {
    const [host, other] = await Promise.all([h.guest('공개방장'), h.guest('공개외부')]);
    const room = await host.api.rooms.create.mutate({ game: 'count', options: { mode: 'duel' } });
    await host.api.rooms.addBot.mutate({ roomId: room.roomId });
    const started = await host.api.rooms.start.mutate({ roomId: room.roomId });
    expect(await may(other.id, started.gameRoomId)).toBe(true);
    expect(await may(other.id, 'qm-never-seen')).toBe(true);
  });
});
