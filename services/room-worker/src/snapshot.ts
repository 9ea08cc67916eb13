/**
 * The snapshot text of a room. The engine state changes with every transition
 * and is encoded once per write; the room's metadata (seats, viewers, finish
 * flags) changes far less often, so its JSON is kept and re-encoded only after
 * the room says it changed. Restores decode the text once, and still read the
 * v1 layout (metadata and state in one object) written before this split.
 *
 *   v2: {"v":2,"meta":{roomId, game, mode, options, startedAt, seats, viewers, finishedAt, finishedPublished, departures},"state":…}
 */
import type { RoomData } from './room-types.ts';

type Meta = Omit<RoomData, 'v' | 'state'>;

export class SnapshotEncoder {
  private metaJson: string | null = null;

  /** Call after any change to seats, viewers, finishedAt, finishedPublished or departures. */
  metaChanged(): void {
    this.metaJson = null;
  }

  encode(data: RoomData): string {
    if (this.metaJson === null) {
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
      };
      this.metaJson = JSON.stringify(meta);
    }
    return `{"v":2,"meta":${this.metaJson},"state":${JSON.stringify(data.state)}}`;
  }
}

/** null when the text is not a room snapshot this worker can read. */
export function decodeSnapshot(text: string): RoomData | null {
  let raw: any;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  if (raw?.v === 2 && raw.meta && typeof raw.meta === 'object' && 'state' in raw)
    return { v: 1, ...(raw.meta as Meta), state: raw.state };
  if (raw?.v === 1 && typeof raw.roomId === 'string' && 'state' in raw) return raw as RoomData;
  return null;
}
