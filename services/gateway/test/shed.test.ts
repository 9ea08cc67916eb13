/**
 * Issue 37 item 4: under pressure the gateway sheds spectator frames and presence notices before players'
 * frames. The delivery path (src/inbound.ts Inbound.deliver, src/room-route.ts, src/session.ts frame) runs here on stand-in
 * sockets whose unsent bytes the test sets; the process's loop delay is handed to the shedder as a
 * heartbeat would measure it (`measured`), so nothing depends on this box's speed and nothing sleeps.
 */
import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { InProcessBus } from '@joke/bus';
import type { bus as wire } from '@joke/protocol';
import { systemClock } from '@joke/bus/clock';
import { GatewayConfig } from '../src/config.ts';
import { createMetrics } from '../src/metrics.ts';
import { Inbound } from '../src/inbound.ts';
import { Memberships } from '../src/membership.ts';
import { Requester } from '../src/requests.ts';
import { AccessCheck } from '../src/access.ts';
import { Registry } from '../src/rooms.ts';
import { Session, type Membership, type SessionShared, type Sock } from '../src/session.ts';
import { Shedder } from '../src/shed.ts';
import { spectatorTopic } from '../src/topics.ts';

const ROOM = 'room1';
const OWNER = 'w1/i1';

/** The parts of a uWS socket the delivery path uses, with its unsent bytes set by the test. */
function socket(shared: SessionShared, id: number, userId: string) {
  const fake = {
    buffered: 0,
    sent: [] as string[],
    topics: new Set<string>(),
    getUserData: () => ({ ip: '127.0.0.1' }),
    getBufferedAmount: () => fake.buffered,
    cork: (fn: () => void) => fn(),
    send: (m: string | Uint8Array) => {
      fake.sent.push(typeof m === 'string' ? m : new TextDecoder().decode(m));
      return 1;
    },
    subscribe: (t: string) => fake.topics.add(t),
    unsubscribe: (t: string) => fake.topics.delete(t),
    end: () => {},
  };
  const session = new Session({ id, ws: fake as unknown as Sock, ip: '127.0.0.1', now: 0, shared });
  session.user = { sub: userId, name: userId } as Session['user'];
  return { fake, session };
}

function setup() {
  const cfg = GatewayConfig.parse({
    jwtSecret: 'x'.repeat(16),
    shedLoopLagMs: 250,
    shedBufferedBytes: 64 * 1024,
  });
  const metrics = createMetrics('gw-shed', false);
  const log = pino({ level: 'silent' });
  const bus = new InProcessBus();
  const shed = new Shedder(
    { shedLoopLagMs: cfg.shedLoopLagMs, shedBufferedBytes: cfg.shedBufferedBytes },
    { shed: (kind) => metrics.framesShed.inc({ kind }), resync: () => metrics.spectatorResyncs.inc() },
    false,
  );
  const published: string[] = [];
  const registry = new Registry({
    publish: (topic, frame) => void published.push(`${topic} ${new TextDecoder().decode(frame)}`),
    shed,
    metrics,
  });
  const shared: SessionShared = { cfg, log, metrics, shed };
  const resyncs: string[] = [];
  const resync = (roomId: string, only?: Session) => void resyncs.push(only ? `${roomId}:${only.user!.sub}` : roomId);
  const detach = (p: Promise<void>) => void p.catch(() => {});
  const closing = () => false;
  const requests = new Requester({
    bus,
    cfg,
    metrics,
    log,
    clock: systemClock,
    ownerOf: (id) => registry.ownerOf(id),
    closing,
  });
  const access = new AccessCheck({ requests, log });
  const memberships = new Memberships({ cfg, bus, log, metrics, registry, requests, access, closing, detach });
  const inbound = new Inbound({ cfg, bus, log, metrics, registry, requests, memberships, detach });
  const deliver = (d: wire.Delivery) => inbound.deliver(d);
  const enter = (s: ReturnType<typeof socket>, role: 'player' | 'spectator') => {
    const m: Membership = { role, lastSeq: 0, early: null, wantsSpectate: role === 'spectator', joined: null };
    s.session.rooms.set(ROOM, m);
    registry.sessions.set(s.session.ws, s.session);
    registry.room(ROOM).setRole(s.session, s.session.user!.sub, role);
    return m;
  };
  registry.room(ROOM).owner = OWNER;
  /** One transition: a view for player `p`, the shared spectator view; or a presence notice for both. */
  const delivery = (seq: number, kind: 'view' | 'presence'): wire.Delivery => ({
    roomId: ROOM,
    seq,
    owner: OWNER,
    frames: [
      { kind, viewer: 'p', bytes: enc(`${kind}:p:${seq}`) },
      { kind, viewer: null, bytes: enc(`${kind}:spec:${seq}`) },
    ],
  });
  const tick = () => shed.tick(registry.sessions.values(), resync);
  const shedCount = async (kind: string) =>
    (await metrics.framesShed.get()).values.find((v) => v.labels.kind === kind)?.value ?? 0;
  const sock = (id: number, userId: string) => socket(shared, id, userId);
  return { shed, deliver, enter, delivery, published, resyncs, tick, shedCount, metrics, socket: sock };
}

describe('shedding: spectators and presence go before players’ frames', () => {
  it('sends everything while the gateway keeps up', () => {
    const { deliver, enter, delivery, published, socket } = setup();
    const player = socket(1, 'p');
    enter(player, 'player');
    enter(socket(2, 's'), 'spectator');
    deliver(delivery(1, 'view'));
    deliver(delivery(1, 'presence'));
    expect(player.fake.sent).toEqual(['view:p:1', 'presence:p:1']);
    expect(published).toEqual([spec('view:spec:1'), spec('presence:spec:1')]);
  });

  it('behind: spectator frames are dropped, players still get every view; spectators resync once it passed', async () => {
    const { shed, deliver, enter, delivery, published, resyncs, tick, shedCount, socket } = setup();
    const player = socket(1, 'p');
    enter(player, 'player');
    enter(socket(2, 's'), 'spectator');
    // One slow heartbeat is a pause, not pressure; two of three are.
    shed.measured(400);
    deliver(delivery(1, 'view'));
    expect(published).toEqual([spec('view:spec:1')]);
    published.length = 0;
    player.fake.sent.length = 0;
    shed.measured(400);
    for (let seq = 2; seq <= 4; seq++) deliver(delivery(seq, 'view'));
    expect(player.fake.sent).toEqual(['view:p:2', 'view:p:3', 'view:p:4']);
    expect(published).toEqual([]);
    expect(await shedCount('spectator')).toBe(3);
    // Still behind at the next heartbeat: no resync yet (it would add joins to a loaded worker).
    tick();
    expect(resyncs).toEqual([]);
    shed.measured(20);
    shed.measured(20);
    tick();
    expect(resyncs).toEqual([ROOM]);
    deliver(delivery(5, 'view'));
    expect(published).toEqual([spec('view:spec:5')]);
  });

  it('a presence notice to a full socket waits, coalesced to the latest, and goes right before that socket’s next view', async () => {
    const { deliver, enter, delivery, shedCount, socket } = setup();
    const player = socket(1, 'p');
    enter(player, 'player');
    deliver(delivery(1, 'view'));
    player.fake.buffered = 100 * 1024;
    deliver({ ...delivery(1, 'presence'), frames: [{ kind: 'presence', viewer: 'p', bytes: enc('presence:p:1a') }] });
    deliver({ ...delivery(1, 'presence'), frames: [{ kind: 'presence', viewer: 'p', bytes: enc('presence:p:1b') }] });
    expect(player.fake.sent).toEqual(['view:p:1']);
    expect(await shedCount('presence')).toBe(2);
    // The view is never held, even on the full socket; the latest presence notice goes just before it.
    deliver(delivery(2, 'view'));
    expect(player.fake.sent).toEqual(['view:p:1', 'presence:p:1b', 'view:p:2']);
  });

  it('a held presence notice goes at the heartbeat that finds the socket drained', () => {
    const { deliver, enter, delivery, tick, socket } = setup();
    const player = socket(1, 'p');
    enter(player, 'player');
    deliver(delivery(1, 'view'));
    player.fake.buffered = 100 * 1024;
    deliver(delivery(1, 'presence'));
    tick();
    expect(player.fake.sent).toEqual(['view:p:1']);
    player.fake.buffered = 0;
    tick();
    expect(player.fake.sent).toEqual(['view:p:1', 'presence:p:1']);
  });

  it('a spectator socket past the byte bound leaves the room topic until it drained, then joins again', async () => {
    const { enter, tick, resyncs, shedCount, socket } = setup();
    const watcher = socket(2, 's');
    enter(watcher, 'spectator');
    expect(watcher.fake.topics.size).toBe(1);
    watcher.fake.buffered = 100 * 1024;
    tick();
    expect(watcher.fake.topics.size).toBe(0);
    expect(await shedCount('spectatorPaused')).toBe(1);
    tick();
    expect(resyncs).toEqual([]);
    watcher.fake.buffered = 0;
    tick();
    expect(watcher.fake.topics.size).toBe(1);
    expect(resyncs).toEqual([`${ROOM}:s`]);
  });
});

const enc = (t: string) => new TextEncoder().encode(t);
const spec = (frame: string) => `${spectatorTopic(ROOM)} ${frame}`;
