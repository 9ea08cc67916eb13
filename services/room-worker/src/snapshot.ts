/**
 * The snapshot text of a room, and when a write carries it at all.
 *
 * Every accepted transition is also a record step appended in the same write, and the engine is
 * deterministic, so the steps alone carry a room from one full snapshot to the next: most writes send
 * only them (issue 9: in a busy worker's CPU profile, JSON.stringify of the state here was ≈ 7 % of the
 * samples and the Redis socket writes of those ≈ 3 KB texts ≈ 10 %). A write carries the whole text when the metadata changed (it is not in the steps), at
 * the room's first write on this worker (a restore's base may be K steps old), or once `baseSteps`
 * steps were written since the last whole one, which bounds what a restore replays (stored-room.ts).
 *
 * The metadata (seats, viewers, finish flags) changes far less often than the state, so its JSON is kept
 * and re-encoded only after the room says it changed. Restores decode the text once, and still read v2
 * and v1 (metadata and state in one object), which were written whole at every write: at the stored seq.
 * With `baseSteps` 0 every write is whole and is written as v2, which workers from before steps-only
 * writes read: setting SNAPSHOT_BASE_STEPS=0 for a write per room makes a rollback to them safe.
 *
 *   v3: {"v":3,"at":SEQ,"meta":{roomId, game, mode, options, startedAt, seats, viewers, finishedAt, finishedPublished, departures},"state":…}
 *   v2: {"v":2,"meta":{…},"state":…}
 */
import type { RoomData, SnapshotData } from './room-types.ts';

type Meta = Omit<RoomData, 'v' | 'state'>;

export class SnapshotEncoder {
  private metaJson: string | null = null;
  /** The next write must be whole: nothing written on this worker yet, or the metadata changed. */
  private baseDue = true;
  /** Steps written since the last whole snapshot. */
  private sinceBase = 0;

  /** `baseSteps`: steps a restore may have to replay (SNAPSHOT_BASE_STEPS); 0 = every write whole. */
  constructor(private readonly baseSteps = 0) {}

  /** Call after any change to seats, viewers, finishedAt, finishedPublished or departures. */
  metaChanged(): void {
    this.metaJson = null;
    this.baseDue = true;
  }

  /**
   * The data of the write that brings the room to `seq` with `steps` more steps: the whole text, or null
   * when the steps alone carry it (the store keeps its snapshot and appends them).
   */
  next(data: SnapshotData, seq: number, steps: number): string | null {
    if (!this.baseDue && steps > 0 && this.sinceBase + steps <= this.baseSteps) {
      this.sinceBase += steps;
      return null;
    }
    return this.whole(data, seq);
  }

  /** The whole text at `seq`, counted as the room's new base (also when a steps-only write met a gap). */
  whole(data: SnapshotData, seq: number): string {
    this.baseDue = false;
    this.sinceBase = 0;
    this.metaJson ??= metaJson(data);
    const state = JSON.stringify(data.state);
    return this.baseSteps > 0 ? v3(seq, this.metaJson, state) : `{"v":2,"meta":${this.metaJson},"state":${state}}`;
  }
}

const v3 = (seq: number, meta: string, state: string) => `{"v":3,"at":${seq},"meta":${meta},"state":${state}}`;

function metaJson(data: SnapshotData): string {
  const meta: Meta = {
    roomId: data.roomId,
    game: data.game,
    mode: data.mode,
    options: data.options,
    startedAt: data.startedAt,
    seats: data.seats,
    viewers: data.viewers,
    finishedAt: data.finishedAt,
    finishedPublished: data.finishedPublished,
    departures: data.departures,
    // Who may chat: from the room's spec, and not derivable from anything else after a restore.
    chat: data.chat,
  };
  return JSON.stringify(meta);
}

/** One whole snapshot text of a room at `seq`, in the current layout (tests, benches, tools). */
export function encodeSnapshot(data: SnapshotData, seq: number): string {
  return v3(seq, metaJson(data), JSON.stringify(data.state));
}

/** A decoded snapshot: the room at `at` (null: a v1/v2 text, always written whole, so at the stored seq). */
export interface DecodedSnapshot {
  data: SnapshotData;
  at: number | null;
}

/** null when the text is not a room snapshot this worker can read. */
export function decodeBase(text: string): DecodedSnapshot | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (parsed === null || typeof parsed !== 'object') return null;
  // The envelope's fields, each checked where it is read; the metadata is this worker's own writing.
  const raw = parsed as Readonly<Record<string, unknown>>;
  const meta = raw.meta && typeof raw.meta === 'object' && 'state' in raw ? (raw.meta as Meta) : null;
  if (raw.v === 3 && meta && typeof raw.at === 'number' && Number.isSafeInteger(raw.at) && raw.at >= 0)
    return { data: { v: 1, ...meta, state: raw.state }, at: raw.at };
  if (raw.v === 2 && meta) return { data: { v: 1, ...meta, state: raw.state }, at: null };
  if (raw.v === 1 && typeof raw.roomId === 'string' && 'state' in raw) return { data: raw as SnapshotData, at: null };
  return null;
}

/**
 * The metadata and base state of a snapshot text, null when unreadable. Its metadata is the room's current
 * one (a change to it is always written whole); its state may be steps behind: `roomFromStore` has the room.
 */
export function decodeSnapshot(text: string): SnapshotData | null {
  return decodeBase(text)?.data ?? null;
}
