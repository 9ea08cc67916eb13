/**
 * Room lifecycle facts (issue 15): who is actually at a table, so the lobby
 * can show connected seats and spectators only, hand the host role on and
 * close rooms nobody is in, without asking anyone.
 *
 * - `RoomOccupancy`: a room worker publishes, whenever the connected set of a
 *   game room changes (and when it closes), which human seats have a socket
 *   and how many spectators do. Ids only: nothing from the game state.
 * - `LobbySeen`: a waiting room has no worker yet; its members' own calls to
 *   the lobby (the waiting-room screen asks for its room every second) are
 *   their presence. Each lobby replica publishes the marks it saw, batched,
 *   so every replica judges the same presence.
 */
import { z } from 'zod';

const P = 'joke.v1';
const v = z.literal(1);
const id = z.string().min(1).max(64);

export const RoomOccupancy = z.object({
  v,
  /** The game room id (the lobby's `currentGameId`). */
  roomId: id,
  /** Human seat ids with at least one connected player socket. */
  connected: z.array(id).max(64),
  /** Spectators with a connected socket. */
  spectators: z.number().int().min(0),
  /** The worker let the room go for good (finished or dropped). */
  closed: z.boolean(),
  at: z.number(),
});
export type RoomOccupancy = z.infer<typeof RoomOccupancy>;

export const LobbySeen = z.object({
  v,
  /** Lobby replica that saw the calls (its own marks come back to it and are merged again harmlessly). */
  from: id,
  marks: z.array(z.object({ roomId: id, userId: id, at: z.number() })).max(5000),
});
export type LobbySeen = z.infer<typeof LobbySeen>;

export const lifecycleSubjects = {
  /** publish, no queue group (every lobby replica keeps the same presence). RoomOccupancy. */
  occupancy: `${P}.room.occupancy`,
  /** publish, no queue group. LobbySeen. */
  seen: `${P}.lobby.seen`,
} as const;
