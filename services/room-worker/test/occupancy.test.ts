/**
 * The worker's room lifecycle facts (src/lifecycle.ts): one `roomOccupancy`
 * per change of who is connected at the table (human seats with a socket,
 * spectators with one), none while nothing changes, and ids only.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { contract, listen, type RoomOccupancy } from '@joke/protocol';
import { FakeGateway, openRoom, seat, setup, until, worker } from './harness.ts';

const { bus, store } = setup();
const facts: RoomOccupancy[] = [];
listen(bus, contract.roomOccupancy, (f) => facts.push(f));
let w: Awaited<ReturnType<typeof worker>>;
afterAll(async () => {
  await w?.close();
});

const of = (roomId: string) => facts.filter((f) => f.roomId === roomId);
const lastOf = (roomId: string) => of(roomId).at(-1);

describe('roomOccupancy facts', () => {
  it('say which human seats and how many spectators are connected, once per change', async () => {
    w = await worker(bus, store);
    const gw = new FakeGateway(bus, 'gw-occ');
    const roomId = 'occ1';
    expect((await openRoom(bus, w.id, roomId, [seat('p1'), seat('p2'), seat('b1', true)])).ok).toBe(true);
    expect((await gw.join(roomId, 'p1')).ok).toBe(true);
    await until(() => lastOf(roomId)?.connected.join() === 'p1', 20_000, 'p1 connected');
    expect((await gw.join(roomId, 'p2')).ok).toBe(true);
    await until(() => lastOf(roomId)?.connected.join() === 'p1,p2', 20_000, 'p1 and p2 connected');
    expect((await gw.join(roomId, 'fan', true)).ok).toBe(true);
    await until(() => lastOf(roomId)?.spectators === 1, 20_000, 'one spectator');
    expect(lastOf(roomId)).toMatchObject({ connected: ['p1', 'p2'], spectators: 1, closed: false });

    const before = of(roomId).length;
    gw.presence(roomId, 'p1', false);
    await until(() => lastOf(roomId)?.connected.join() === 'p2', 20_000, 'p1 gone');
    gw.presence(roomId, 'fan', false);
    await until(() => lastOf(roomId)?.spectators === 0, 20_000, 'spectator gone');
    // Two changes, two facts: the bot never counts, and nothing is said twice.
    expect(of(roomId).length - before).toBe(2);
    expect(Object.keys(lastOf(roomId)!).sort()).toEqual(['at', 'closed', 'connected', 'roomId', 'spectators', 'v']);
    gw.close();
  });
});
