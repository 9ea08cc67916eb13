/**
 * "Left for good" (departures.ts): a seated person whose gateway says they
 * left a game in progress, or whose socket stays away past VIEWER_GRACE_MS,
 * is told to the lobby as a durable PlayerLeft fact — and only then: not for
 * a spectator, not while another socket of theirs is seated, not for a dead
 * gateway's viewers, not after the game ended. A fact the stream had not yet
 * stored when the worker died is published by the room's next owner.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { contract, emit, listenDurable, PROTOCOL_VERSION, type bus as wire } from '@joke/protocol';
import type { Bus, Wire } from '@joke/bus';
import { decodeSnapshot } from '../src/snapshot.ts';
import { FakeGateway, openRoom, restoreRoom, seat, setup, until, worker } from './harness.ts';
import type { RoomWorker } from '../src/index.ts';

const closers: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

async function scene(cfg: Parameters<typeof worker>[2] = {}) {
  const { bus, store } = setup();
  const facts: wire.PlayerLeft[] = [];
  const sub = await listenDurable(bus, contract.playerLeft, async (m) => void facts.push(m));
  const w = await worker(bus, store, { workerId: 'w1', ...cfg });
  closers.push(
    () => sub.unsubscribe(),
    () => w.close(),
  );
  return { bus, store, w, facts };
}

const leave = (bus: Bus, gw: FakeGateway, roomId: string, userId: string, role: 'player' | 'spectator') =>
  emit(bus, contract.roomPresence.at(roomId), {
    v: PROTOCOL_VERSION,
    userId,
    gatewayId: gw.id,
    connected: false,
    left: true,
    role,
  });

describe('players who left a game for good', () => {
  it('a leave, and a grace that lapsed, are facts; a spectator, a second socket and a dead gateway are not', async () => {
    const { bus, store, facts } = await scene({ viewerGraceMs: 300, gatewayDeadAfterMs: 400 });
    expect(
      (await openRoom(bus, 'w1', 'r', [seat('a'), seat('b'), seat('c'), seat('bot', true)], { target: 1000 })).ok,
    ).toBe(true);
    const gw1 = new FakeGateway(bus, 'gw1');
    const gw2 = new FakeGateway(bus, 'gw2');
    // gw3 sends one heartbeat (at construction) and then goes silent: a dead gateway.
    const gw3 = new FakeGateway(bus, 'gw3');
    const beat = setInterval(() => {
      for (const g of [gw1, gw2])
        emit(bus, contract.gatewayHeartbeat, { v: 1, gatewayId: g.id, sockets: 0, at: Date.now() });
    }, 100);
    closers.push(
      () => clearInterval(beat),
      () => gw1.close(),
      () => gw2.close(),
      () => gw3.close(),
    );
    for (const [gw, id] of [
      [gw1, 'a'],
      [gw2, 'a'],
      [gw1, 'b'],
      [gw3, 'c'],
    ] as const)
      expect((await gw.join('r', id)).ok).toBe(true);
    expect((await gw1.join('r', 'fan', true)).ok).toBe(true);

    leave(bus, gw1, 'r', 'b', 'player');
    leave(bus, gw1, 'r', 'fan', 'spectator');
    // a keeps the seat through gw2.
    leave(bus, gw1, 'r', 'a', 'player');
    await until(() => facts.length >= 1, 10_000, "b's fact");
    expect(facts).toEqual([{ v: 1, roomId: 'r', userId: 'b', reason: 'left', at: expect.any(Number) }]);

    // gw3 is declared dead: c's entry goes with it, which is not a departure (c comes back elsewhere).
    const viewers = async () => decodeSnapshot((await store.load('r'))!.data)!.viewers.map((v) => v.userId);
    await until(async () => !(await viewers()).includes('c'), 10_000, "the dead gateway's viewers forgotten");
    // a's last socket goes and does not come back within the grace: forgotten at the next batch after it.
    gw2.presence('r', 'a', false);
    await until(
      async () => {
        await gw1.barrier('r', 'zz', true);
        return facts.length >= 2;
      },
      10_000,
      "a's fact",
    );
    expect(facts.map((f) => [f.userId, f.reason])).toEqual([
      ['b', 'left'],
      ['a', 'graceLapsed'],
    ]);
    // Stored by the stream, the departures left the room's outbox.
    await until(
      async () => decodeSnapshot((await store.load('r'))!.data)!.departures === undefined,
      10_000,
      'outbox empty',
    );
  }, 60_000);

  it('leaving a finished game is not a departure (people go back to the waiting room)', async () => {
    const { bus, facts } = await scene();
    expect((await openRoom(bus, 'w1', 'f', [seat('a'), seat('b')], { target: 2 })).ok).toBe(true);
    const gw = new FakeGateway(bus, 'gwf');
    closers.push(() => gw.close());
    const first: string = (await gw.join('f', 'a')).view.view.current;
    await gw.join('f', 'b');
    expect((await gw.act('f', first, 'win', { type: 'add', n: 2 })).ok).toBe(true);
    await until(() => gw.last('f', 'a')?.result !== undefined, 10_000, 'the result');
    leave(bus, gw, 'f', 'a', 'player');
    leave(bus, gw, 'f', 'b', 'player');
    await gw.barrier('f', 'zz', true);
    expect(facts).toEqual([]);
  }, 30_000);

  it('a departure the stream had not stored when its worker died is published by the next owner', async () => {
    const { bus, store, w, facts } = await scene();
    expect((await openRoom(bus, 'w1', 'x', [seat('a'), seat('b')], { target: 1000 })).ok).toBe(true);
    const gw = new FakeGateway(bus, 'gwx');
    closers.push(() => gw.close());
    await gw.join('x', 'a');
    await gw.join('x', 'b');
    // w1's publishes of the fact never complete (the stream is unreachable from it), then w1 dies.
    const real = bus.publishDurable.bind(bus);
    bus.publishDurable = (subject: string, data: Wire, id: string) =>
      subject === contract.playerLeft.subject ? new Promise<void>(() => {}) : real(subject, data, id);
    leave(bus, gw, 'x', 'b', 'player');
    const outbox = async () => decodeSnapshot((await store.load('x'))!.data)!.departures ?? [];
    await until(async () => (await outbox()).length === 1, 10_000, 'the departure in the snapshot');
    await w.close();
    bus.publishDurable = real;
    expect(facts).toEqual([]);
    const w2: RoomWorker = await worker(bus, store, { workerId: 'w2' });
    closers.push(() => w2.close());
    expect((await restoreRoom(bus, 'w2', 'x')).ok).toBe(true);
    await until(() => facts.length === 1, 10_000, 'the fact from the new owner');
    expect(facts[0]).toMatchObject({ roomId: 'x', userId: 'b', reason: 'left' });
    await until(async () => (await outbox()).length === 0, 10_000, 'outbox empty');
  }, 30_000);
});
