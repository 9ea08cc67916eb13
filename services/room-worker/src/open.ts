/**
 * Taking rooms onto this worker (subjects.workerOpen): `create` starts a new
 * game from a RoomSpec, `restore` takes a room over from its snapshot at the
 * next lease epoch. Both answer with an OpenRoomReply whose refusals carry a
 * machine code (the matchmaker stops trying other workers on `roomExists` and
 * `noSnapshot`).
 */
import { randomBytes } from 'node:crypto';
import type { AnyGame } from '@joke/engine';
import { refuse, type bus as wire } from '@joke/protocol';
import type { SnapshotStore } from '@joke/stores';
import type { WorkerConfig } from './config.ts';
import { Room, type RoomData, type RoomHost } from './room.ts';
import { SnapshotEncoder } from './snapshot.ts';
import { roomFromStore } from './stored-room.ts';
import { currentGeneration } from './store-loss.ts';

export interface OpenHost {
  cfg: WorkerConfig;
  store: SnapshotStore;
  games: Record<string, AnyGame>;
  room: RoomHost;
  rooms: ReadonlyMap<string, Room>;
  /** Draining or closed: no new rooms. */
  refusing(): boolean;
  /** New rooms it takes now (Upkeep.headroom, from its last heartbeat's measurements). */
  headroom(): number;
  /** An admitted new room takes one off the headroom until the next heartbeat. */
  tookRoom(): void;
  adopt(room: Room): void;
  /** `ms`: from the restore request to the republished views; `storeMs` of it: reading the marker and taking the lease. */
  restored(roomId: string, epoch: number, seq: number, took: { storeMs: number; ms: number }): void;
}

/**
 * Whether an open request's deadline (OpenRoomRequest.deadline) has passed on this worker's clock. Checked
 * right before the store is asked to take the room: a request that waited in a stalled worker's socket or
 * behind a slow store read past the matchmaker's timeout must not take a room the matchmaker has already
 * sent to another worker.
 */
function expired(h: OpenHost, roomId: string, deadline: number | undefined): boolean {
  if (deadline === undefined) return false;
  const lateMs = h.room.clock.now() - deadline;
  if (lateMs <= 0) return false;
  h.room.log.warn({ roomId, lateMs }, 'open request past its deadline: refused');
  return true;
}

export async function createRoom(h: OpenHost, spec: wire.RoomSpec, deadline?: number): Promise<wire.OpenRoomReply> {
  const game = Object.hasOwn(h.games, spec.game) ? h.games[spec.game] : undefined;
  if (!game) return refuse('unknownGame');
  const parsed = game.optionsSchema.safeParse(spec.options);
  if (!parsed.success) return refuse('badOptions', parsed.error.issues[0]?.message);
  const options = parsed.data as Record<string, unknown> & { mode: string };
  const range = game.playerRange(options);
  if (spec.players.length < range.min || spec.players.length > range.max) return refuse('players');
  if (new Set(spec.players.map((p) => p.id)).size !== spec.players.length) return refuse('duplicateSeat');
  const now = h.room.clock.now();
  const state = game.setup({
    seed: randomBytes(32).toString('hex'),
    players: spec.players.map((p) => ({ id: p.id, name: p.name })),
    options,
    now,
  });
  const data: RoomData = {
    v: 1,
    roomId: spec.roomId,
    game: spec.game,
    mode: String(options.mode),
    options,
    startedAt: now,
    state,
    // Nobody has joined yet: every human seat counts as disconnected from the start.
    seats: spec.players.map((p) => ({
      id: p.id,
      name: p.name,
      bot: p.bot,
      away: false,
      timeouts: 0,
      disconnectedSince: p.bot ? null : now,
    })),
    viewers: [],
    finishedAt: null,
    finishedPublished: false,
    ...(spec.chat ? { chat: spec.chat } : {}),
  };
  const room = new Room(h.room, game, data, 1, 0, []);
  // Read before the room exists in the store: a wipe after this point changes the marker.
  room.generation = await currentGeneration(h.store);
  // In the layout the worker is set to write (v2 with SNAPSHOT_BASE_STEPS=0: see snapshot.ts).
  const first = { seq: 0, data: new SnapshotEncoder(h.cfg.snapshotBaseSteps).whole(data, 0), steps: [] };
  if (expired(h, spec.roomId, deadline)) return refuse('expired');
  const r = await h.store.createRoom(spec.roomId, h.cfg.workerId, first, h.cfg.leaseTtlMs);
  if (!r.ok) return refuse('roomExists');
  h.adopt(room);
  room.subscribe();
  room.start();
  return { ok: true, epoch: 1, seq: 0 };
}

/**
 * The restores of one failover arrive together and their store replies resolve in one tick: built back to
 * back in it, no room's views would leave before the last room was built (the bus writes what was published
 * once the tick is done — at the end of its microtasks, or, coalesced, in the next check phase). So each
 * restore is built in its own turn of the event loop, and the turns are chained per worker: the next
 * restore's turn is asked for only once this one is built, i.e. after the bus's flush of its views was
 * scheduled, so that flush comes first. Each table resumes as soon as it is ready, not when the batch is.
 */
const lastTurn = new WeakMap<OpenHost, Promise<void>>();
function ownTurn(h: OpenHost): Promise<void> {
  const mine = (lastTurn.get(h) ?? Promise.resolve()).then(() => new Promise<void>((resolve) => setImmediate(resolve)));
  lastTurn.set(h, mine);
  return mine;
}

export async function restoreRoom(h: OpenHost, roomId: string, deadline?: number): Promise<wire.OpenRoomReply> {
  const t0 = performance.now();
  const generation = await currentGeneration(h.store);
  if (expired(h, roomId, deadline)) return refuse('expired');
  const acq = await h.store.acquire(roomId, h.cfg.workerId, h.cfg.leaseTtlMs);
  if (!acq) return refuse('noSnapshot');
  const storeMs = performance.now() - t0;
  await ownTurn(h);
  // The last whole snapshot, checked by the game, with the steps written after it replayed (stored-room.ts).
  const stored = roomFromStore(acq.room, h.games);
  if (!stored.ok) {
    // Refused like an unreadable snapshot always was: released for a worker that can read it, never guessed at.
    h.room.log.error(
      { roomId, epoch: acq.epoch, seq: acq.room.seq, code: stored.code, problem: stored.problem },
      'stored room refused: not restored',
    );
    await h.store.release(roomId, h.cfg.workerId, acq.epoch);
    return refuse(stored.code, stored.reason);
  }
  const room = new Room(h.room, stored.game, stored.data, acq.epoch, acq.room.seq, stored.steps);
  room.generation = generation;
  h.adopt(room);
  room.subscribe();
  room.start();
  // A view may have been lost with the previous owner between its write and its publish.
  room.republish();
  h.restored(roomId, acq.epoch, acq.room.seq, { storeMs, ms: performance.now() - t0 });
  return { ok: true, epoch: acq.epoch, seq: acq.room.seq };
}

export async function openRoom(h: OpenHost, req: wire.OpenRoomRequest): Promise<wire.OpenRoomReply> {
  const have = h.rooms.get(req.roomId);
  // Idempotent: a retried open (or two matchmakers agreeing) finds the room already here.
  if (have && !have.closed) return { ok: true, epoch: have.epoch, seq: have.seq };
  if (h.refusing()) return refuse('draining');
  if (req.create) {
    if (h.rooms.size >= h.cfg.maxRooms) return refuse('full');
    // Refused before any work (no game setup, no store round trip): an overloaded worker sheds new tables
    // first, so the ones it runs keep their pace. The matchmaker tries a worker that has headroom.
    if (h.headroom() <= 0) return refuse('capacity');
    if (expired(h, req.create.roomId, req.deadline)) return refuse('expired');
    h.tookRoom();
    return createRoom(h, req.create, req.deadline);
  }
  if (req.restore) return restoreRoom(h, req.roomId, req.deadline);
  return refuse('malformed', 'create 또는 restore가 필요해요');
}
