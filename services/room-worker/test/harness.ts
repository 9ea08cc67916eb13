/** Test helpers: a worker on an in-process bus and memory store, and a fake gateway. */
import { InProcessBus, type Bus } from '@joke/bus';
import { MemorySnapshotStore, type SnapshotStore } from '@joke/stores';
import type { Clock } from '@joke/bus/clock';
import { bus as wire, call, contract, emit, listen, wireText, PROTOCOL_VERSION } from '@joke/protocol';
import { pino } from 'pino';
import type { AnyGame } from '@joke/engine';
import { roomFromStore, startRoomWorker, type RoomWorker, type StepRec, type WorkerConfig } from '../src/index.ts';
import { raceGame } from './fixtures/race-game.ts';

export const quietLog = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
export const games: Record<string, AnyGame> = { race: raceGame };

export async function worker(
  bus: Bus,
  store: SnapshotStore,
  cfg: Partial<WorkerConfig> = {},
  g: Record<string, AnyGame> = games,
  /** The worker's timers; the real ones unless a test runs on fake time. */
  clock?: Clock,
): Promise<RoomWorker> {
  return startRoomWorker(
    { workerId: `w${Math.random().toString(36).slice(2, 8)}`, botDelayMs: 0, botJitterMs: 0, heartbeatMs: 100, ...cfg },
    { bus, store, games: g, log: quietLog, clock },
  );
}

/**
 * Room 'r' of the race game with seats a and b, open on a fresh worker over `setup()`'s bus and store;
 * the worker, then the bus, closed when the test ends (`onTestFinished` of its context).
 */
export async function twoSeatRoom(
  onTestFinished: (fn: () => Promise<void>) => void,
  g: Record<string, AnyGame> = games,
) {
  const { bus, store } = setup();
  const w = await worker(bus, store, {}, g);
  onTestFinished(async () => {
    await w.close();
    await bus.close();
  });
  await openRoom(bus, w.id, 'r', [seat('a'), seat('b')]);
  return { bus, store, w };
}

export function setup() {
  const bus = new InProcessBus({ onHandlerError: (e) => console.error(e) });
  const store = new MemorySnapshotStore();
  return { bus, store };
}

/**
 * The room a store holds at its stored seq, as a restore would build it: the last whole snapshot with the
 * steps written after it replayed (stored-room.ts). The snapshot's own state may be steps behind.
 */
export async function storedRoom(store: SnapshotStore, roomId: string, g: Record<string, AnyGame> = games) {
  const r = await store.load(roomId);
  if (!r) return null;
  const s = roomFromStore(r, g);
  if (!s.ok) throw new Error(`stored room ${roomId} refused: ${s.problem}`);
  // Actions read as any: each test knows its game's action shape.
  const steps = s.steps as (Omit<StepRec, 'x'> & { x?: any })[];
  return { seq: s.seq, data: s.data, steps, replayed: s.replayed };
}

export const seat = (id: string, bot = false) => ({ id, name: id.toUpperCase(), bot });

/**
 * How long a request to a worker (open, restore, join, command) may take to be answered: a bound, not a
 * wait. Under two busy loops and three other test lanes (load ≈ 30) a just-started worker took longer
 * than 2 s to open a room, and a join to a room among 20,000 guests' comings and goings did too
 * (clean-clone CI, 2026-12-04). A test that expects no answer passes its own shorter bound.
 */
export const REPLY_MS = 15_000;

export async function openRoom(
  bus: Bus,
  workerId: string,
  roomId: string,
  players: ReturnType<typeof seat>[],
  options: Record<string, unknown> = {},
  game = 'race',
) {
  return loose(
    await call(
      bus,
      contract.workerOpen.at(workerId),
      { v: 1, roomId, create: { roomId, game, options, players } },
      REPLY_MS,
    ),
  );
}

/** Replies as tests read them: every field of either branch, optional. */
type Loose = { ok: boolean; epoch?: number; seq?: number; code?: string; reason?: string; delivery?: wire.Delivery };
const loose = (r: object): Loose => r as Loose;

export async function restoreRoom(bus: Bus, workerId: string, roomId: string) {
  return loose(await call(bus, contract.workerOpen.at(workerId), { v: 1, roomId, restore: true }, REPLY_MS));
}

/** A frame's text as the gateway would write it to a socket, parsed. */
export function parseFrame(f: wire.DeliveryFrame): Frame {
  return JSON.parse(wireText(f.bytes)) as Frame;
}

export interface Frame {
  t: string;
  seq: number;
  role?: string;
  view?: any;
  events?: any[];
  presence?: any[];
  result?: any;
}

/** Plays a gateway: joins viewers, sends commands, keeps every delivery it gets. */
export class FakeGateway {
  deliveries: wire.Delivery[] = [];
  private sub;
  constructor(
    private readonly bus: Bus,
    readonly id: string,
  ) {
    this.sub = listen(bus, contract.gatewayDeliver.at(id), (d) => this.deliveries.push(d));
    emit(bus, contract.gatewayHeartbeat, { v: 1, gatewayId: id, sockets: 0, at: Date.now() });
  }
  async join(roomId: string, userId: string, spectate = false, replyMs = REPLY_MS) {
    const r = await call(
      this.bus,
      contract.roomJoin.at(roomId),
      { v: PROTOCOL_VERSION, userId, spectate, gatewayId: this.id },
      replyMs,
    );
    return { ...r, view: r.ok ? (JSON.parse(r.frame) as Frame) : undefined } as any;
  }
  /** `framesInReply`: as the gateway asks, this gateway's frames of an accepted action come in the reply. */
  async act(
    roomId: string,
    userId: string,
    actionId: string,
    action: unknown,
    framesInReply?: boolean,
    replyMs = REPLY_MS,
  ) {
    return loose(
      await call(
        this.bus,
        contract.roomCommand.at(roomId),
        { v: PROTOCOL_VERSION, userId, actionId, action, gatewayId: this.id, at: Date.now(), framesInReply },
        replyMs,
      ),
    );
  }
  /**
   * A round trip through the room's queue: the repeated join of a viewer already connected changes
   * nothing and is answered after every item queued before it. The worker publishes on one
   * connection and the bus delivers in order, so whatever the room published for those earlier
   * items (deliveries to any gateway of this bus) has arrived when this resolves.
   */
  async barrier(roomId: string, userId: string, spectate = false) {
    const r = await this.join(roomId, userId, spectate);
    if (!r.ok) throw new Error(`barrier join refused: ${JSON.stringify(r)}`);
  }
  presence(roomId: string, userId: string, connected: boolean, left = false) {
    emit(this.bus, contract.roomPresence.at(roomId), {
      v: PROTOCOL_VERSION,
      userId,
      gatewayId: this.id,
      connected,
      left,
    });
  }
  /** `view` frames (or `t`) for `viewer` (null = spectator frame), parsed, in arrival order. */
  frames(roomId: string, viewer: string | null, t = 'view'): Frame[] {
    const out: Frame[] = [];
    for (const d of this.deliveries)
      if (d.roomId === roomId)
        for (const f of d.frames) {
          if (f.viewer !== viewer) continue;
          const frame = parseFrame(f);
          if (frame.t === t) out.push(frame);
        }
    return out;
  }
  last(roomId: string, viewer: string | null, t = 'view'): Frame | undefined {
    const f = this.frames(roomId, viewer, t);
    return f[f.length - 1];
  }
  /**
   * The presence list `viewer` holds as a client would: the last one any of its frames (a view, or a
   * `presence` frame) carried. A view leaves it out while it is unchanged (deliveries.ts).
   */
  presenceOf(roomId: string, viewer: string | null): any[] | undefined {
    let held: any[] | undefined;
    for (const d of this.deliveries)
      if (d.roomId === roomId) for (const f of d.frames) if (f.viewer === viewer) held = parseFrame(f).presence ?? held;
    return held;
  }
  close() {
    this.sub.unsubscribe();
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function until(cond: () => boolean | Promise<boolean>, timeoutMs = 20_000, what = 'condition') {
  const t0 = Date.now();
  while (!(await cond())) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

/** Fake time forward until a condition holds (one copy, beside FakeClock). */
export { advanceUntil } from '@joke/bus/clock';
