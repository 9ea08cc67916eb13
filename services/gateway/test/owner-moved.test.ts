/**
 * A command in flight to a room's worker when the room shows up at another
 * worker (its first delivery from a new owner after a crash failover) is sent
 * again at once, on fake time: no timeout, heartbeat silence or backoff is
 * what triggers it; one backing off after "no responders" goes at once too.
 * The late answer of the first attempt is ignored, and both attempts carry
 * the same bytes, so the same actionId (applied at most once).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { NatsBus, type Bus } from '@joke/bus';
import { FakeClock } from '@joke/bus/clock';
import { encodeDelivery, subjects } from '@joke/protocol';
import { DEV_JWT_SECRET, signPlayerToken } from '@joke/protocol/auth';
import { pino } from 'pino';
import { startGateway, type Gateway } from '../src/index.ts';
import { TestClient } from '@joke/session/test-client';
import { until } from './wait.ts';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const ns = `gwmoved-${randomBytes(4).toString('hex')}`;
const GW = 'gw-moved';
let bus: Bus;
let gw: Gateway;
let clock: FakeClock;

const view = (roomId: string, seq: number, viewer: string) =>
  JSON.stringify({ v: 1, t: 'view', roomId, seq, role: 'player', view: { viewer }, events: [], presence: [] });
/** What a worker `owner` delivers to this gateway: one player frame for `viewer`. */
const deliver = (roomId: string, seq: number, viewer: string, owner: string) =>
  bus.publish(
    subjects.gatewayDeliver(GW),
    encodeDelivery({
      roomId,
      seq,
      owner,
      frames: [{ kind: 'view', viewer, bytes: Buffer.from(view(roomId, seq, viewer)) }],
    }),
  );

/** A player joined to `roomId`, which worker `owner` runs (its join reply says so). */
async function joinedPlayer(roomId: string, userId: string, owner: string) {
  const sub = bus.subscribe(subjects.roomJoin(roomId), (m) =>
    m.respond!(JSON.stringify({ ok: true, role: 'player', seq: 0, owner, frame: view(roomId, 0, userId) })),
  );
  const c = await TestClient.open(`ws://127.0.0.1:${gw.port}/ws`);
  await c.hello(await signPlayerToken(DEV_JWT_SECRET, { sub: userId, name: userId }));
  c.send({ v: 1, t: 'join', roomId });
  await c.next((m) => m.t === 'view' && m.roomId === roomId);
  sub.unsubscribe();
  return c;
}

/** Records every command for the room without answering it (the worker holding it died). */
function swallowCommands(roomId: string) {
  // The bytes are copied: a NATS message's buffer is only valid during the handler.
  const got: { bytes: Buffer; respond: (data: string) => void }[] = [];
  const sub = bus.subscribe(subjects.roomCommand(roomId), (m) => {
    got.push({ bytes: Buffer.from(m.data), respond: m.respond! });
  });
  return { got, close: () => sub.unsubscribe() };
}

beforeAll(async () => {
  bus = await NatsBus.connect(NATS_URL, { prefix: ns });
  clock = new FakeClock();
  // Timeouts far beyond the test: only the move itself may cause a second attempt.
  gw = await startGateway(
    { gatewayId: GW, port: 0, jwtSecret: DEV_JWT_SECRET, commandTimeoutMs: 60_000, ownerSilentMs: 60_000 },
    { bus, logger: pino({ level: 'silent' }), clock },
  );
});

afterAll(async () => {
  await gw?.close();
  await bus?.close();
});

describe('a command in flight when its room changes owner', () => {
  it('is sent again as soon as a delivery from the new owner arrives; the late first answer is ignored', async () => {
    const c = await joinedPlayer('moved1', 'mia', 'w-a/1');
    const commands = swallowCommands('moved1');
    c.send({ v: 1, t: 'action', roomId: 'moved1', actionId: 'mv-1', action: { type: 'draw' } });
    await until(() => commands.got.length === 1, 10_000, 'the first attempt');
    const frozenAt = clock.now();

    // The room was restored on worker B, which republishes its view: the retry follows without any clock time.
    deliver('moved1', 0, 'mia', 'w-b/2');
    await until(() => commands.got.length === 2, 10_000, 'the retry after the move');
    expect(clock.now()).toBe(frozenAt);
    expect(commands.got[1].bytes.equals(commands.got[0].bytes)).toBe(true);
    expect(JSON.parse(commands.got[1].bytes.toString())).toMatchObject({ userId: 'mia', actionId: 'mv-1' });

    // B answers the retry; then A's late answer to the first attempt (another seq) comes in, and must not reach the client.
    commands.got[1].respond(JSON.stringify({ ok: true, seq: 5 }));
    expect(await c.next((m) => m.t === 'ack' && m.actionId === 'mv-1', 10_000)).toMatchObject({ seq: 5 });
    commands.got[0].respond(JSON.stringify({ ok: true, seq: 7 }));
    // Same connection, so in order: once this later view is through, the late answer has been handled.
    deliver('moved1', 6, 'mia', 'w-b/2');
    await c.next((m) => m.t === 'view' && m.seq === 6, 10_000);
    expect(c.messages.filter((m) => m.actionId === 'mv-1')).toEqual([
      { v: 1, t: 'ack', roomId: 'moved1', actionId: 'mv-1', seq: 5 },
    ]);
    expect(commands.got).toHaveLength(2);
    commands.close();
    await c.close();
  });

  it('backing off after "no responders" (room not restored yet), it goes again the moment the new owner delivers', async () => {
    const c = await joinedPlayer('moved2', 'max', 'w-a/1');
    const failed = async () =>
      (await gw.metrics.busErrors.get()).values.find((x) => x.labels.op === 'command')?.value ?? 0;
    const before = await failed();
    // Nobody serves the room's commands (its worker died): the first attempt fails at once, then backs off.
    c.send({ v: 1, t: 'action', roomId: 'moved2', actionId: 'mv-2', action: { type: 'draw' } });
    const t0 = Date.now();
    while ((await failed()) === before) {
      if (Date.now() - t0 > 10_000) throw new Error('the first attempt never failed');
      await new Promise((r) => setTimeout(r, 10));
    }
    const frozenAt = clock.now();
    // Restored on B: B serves the subject and republishes; the backoff (fake time, never advanced) is cut short.
    const commands = swallowCommands('moved2');
    await bus.flush!();
    deliver('moved2', 0, 'max', 'w-b/2');
    await until(() => commands.got.length === 1, 10_000, 'the attempt after the move');
    expect(clock.now()).toBe(frozenAt);
    commands.got[0].respond(JSON.stringify({ ok: true, seq: 1 }));
    expect(await c.next((m) => m.t === 'ack' && m.actionId === 'mv-2', 10_000)).toMatchObject({ seq: 1 });
    commands.close();
    await c.close();
  });

  it('is left alone by deliveries from the owner it was sent to', async () => {
    const c = await joinedPlayer('stay1', 'sam', 'w-a/1');
    const commands = swallowCommands('stay1');
    c.send({ v: 1, t: 'action', roomId: 'stay1', actionId: 'st-1', action: { type: 'draw' } });
    await until(() => commands.got.length === 1, 10_000, 'the first attempt');
    // Other players' moves on the same worker: the attempt still waits for its own answer.
    deliver('stay1', 1, 'sam', 'w-a/1');
    deliver('stay1', 2, 'sam', 'w-a/1');
    await c.next((m) => m.t === 'view' && m.seq === 2, 10_000);
    await bus.flush!();
    expect(commands.got).toHaveLength(1);
    commands.got[0].respond(JSON.stringify({ ok: true, seq: 3 }));
    expect(await c.next((m) => m.t === 'ack' && m.actionId === 'st-1', 10_000)).toMatchObject({ seq: 3 });
    expect(commands.got).toHaveLength(1);
    commands.close();
    await c.close();
  });
});
