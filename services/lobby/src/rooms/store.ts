/**
 * Room bookkeeping shared by the procedures. Every change to a room's seats
 * first takes the room row's lock (an UPDATE inside the transaction), so a
 * join, a bot and a start of the same room never interleave: a start that
 * claimed the room sees every seat taken before it, and a join after the
 * claim sees the new status and is refused.
 */
import { TRPCError } from '@trpc/server';
import { Prisma } from '../generated/prisma/client.ts';
import type { Db } from '../db/open.ts';
import { normalizeCode } from '../ids.ts';
import { MSG } from '../messages.ts';
import { txRaw, type Raw } from '../db/raw.ts';
import { lockRoomRow, readRoom } from './sql.ts';
import type { RoomRow } from './view.ts';

export type Tx = Prisma.TransactionClient;

export function isUniqueViolation(e: unknown): boolean {
  return e instanceof Prisma.PrismaClientKnownRequestError && e.code === 'P2002';
}

export async function ensureUser(db: Db | Tx, user: { id: string; nickname: string }): Promise<void> {
  await db.user.upsert({
    where: { id: user.id },
    create: { id: user.id, nickname: user.nickname },
    update: { lastSeenAt: new Date() },
  });
}

/** How long a user row written by this process is taken to exist without writing it again. */
const USER_FRESH_MS = 60_000;

/** The user row was written by this process within the last minute (`seen`: user id → when). */
export function userFresh(seen: Map<string, number>, userId: string, now: number): boolean {
  const at = seen.get(userId);
  return at !== undefined && now - at < USER_FRESH_MS;
}

export function markUserSeen(seen: Map<string, number>, userId: string, now: number): void {
  if (seen.size >= 100_000) seen.clear();
  seen.set(userId, now);
}

/**
 * `ensureUser` at most once a minute per user and process (`seen`: user id → when): outside a
 * transaction it only guarantees the row the seat refers to, and users are never deleted.
 */
export async function ensureUserOnce(
  db: Db,
  seen: Map<string, number>,
  user: { id: string; nickname: string },
  now: number,
): Promise<void> {
  if (userFresh(seen, user.id, now)) return;
  await ensureUser(db, user);
  markUserSeen(seen, user.id, now);
}

/** Locks the room row for the rest of the transaction and returns it with seats and spectators. */
export async function lockRoom(tx: Tx, roomId: string): Promise<RoomRow> {
  const raw = txRaw(tx);
  if (!(await lockRoomRow(raw, roomId))) throw new TRPCError({ code: 'NOT_FOUND', message: MSG.roomNotFound });
  // A second statement, so its snapshot is taken after the lock: it sees every change committed before it.
  // One statement with its relations (not Prisma's include): Prisma issued those reads at once on the
  // transaction's single connection, which pg warns about ("client is already executing a query").
  return (await readRoom(raw, roomId))!;
}

export async function loadRoom(raw: Raw, roomId: string): Promise<RoomRow> {
  const room = await readRoom(raw, roomId);
  if (!room) throw new TRPCError({ code: 'NOT_FOUND', message: MSG.roomNotFound });
  return room;
}

export interface RoomRef {
  roomId?: string;
  code?: string;
}

/**
 * Finds the room a join/spectate names. A private room may be entered by
 * code only, unless the caller is already in it (reconnecting by id).
 */
export async function resolveRoom(db: Db, ref: RoomRef, userId: string): Promise<string> {
  if (ref.code !== undefined) {
    const code = normalizeCode(ref.code);
    if (!code) throw new TRPCError({ code: 'BAD_REQUEST', message: MSG.badCode });
    const room = await db.room.findUnique({ where: { code }, select: { id: true } });
    if (!room) throw new TRPCError({ code: 'NOT_FOUND', message: MSG.roomNotFound });
    return room.id;
  }
  const room = await db.room.findUnique({
    where: { id: ref.roomId! },
    select: {
      id: true,
      isPrivate: true,
      seats: { where: { userId }, select: { seat: true } },
      spectators: { where: { userId }, select: { userId: true } },
    },
  });
  if (!room) throw new TRPCError({ code: 'NOT_FOUND', message: MSG.roomNotFound });
  if (room.isPrivate && room.seats.length === 0 && room.spectators.length === 0)
    throw new TRPCError({ code: 'FORBIDDEN', message: MSG.privateNeedsCode });
  return room.id;
}

export function requireWaiting(room: RoomRow, playingMessage: string = MSG.alreadyStarted): void {
  if (room.status === 'starting') throw new TRPCError({ code: 'CONFLICT', message: MSG.starting });
  if (room.status !== 'waiting') throw new TRPCError({ code: 'CONFLICT', message: playingMessage });
}

export function requireHost(room: RoomRow, userId: string): void {
  if (room.hostId !== userId) throw new TRPCError({ code: 'FORBIDDEN', message: MSG.notHost });
}

export function freeSeat(room: RoomRow): number {
  const taken = new Set(room.seats.map((s) => s.seat));
  for (let i = 0; i < room.maxSeats; i++) if (!taken.has(i)) return i;
  throw new TRPCError({ code: 'CONFLICT', message: MSG.roomFull });
}

/**
 * After someone left: hand the room to the longest-seated person (else
 * the earliest spectator), or close it when no person is left. Bots alone
 * never keep a room open.
 */
export async function settleAfterLeave(tx: Tx, roomId: string): Promise<{ closed: boolean; hostId: string | null }> {
  const room = (await readRoom(txRaw(tx), roomId))!;
  // The longest-seated player first (seats keep their join time), then the earliest spectator.
  const seated = room.seats
    .filter((s) => s.userId !== null)
    .sort((a, b) => a.joinedAt.getTime() - b.joinedAt.getTime() || a.seat - b.seat);
  const people = [...seated.map((s) => s.userId!), ...room.spectators.map((s) => s.userId)];
  if (people.length === 0) {
    await tx.room.delete({ where: { id: roomId } });
    return { closed: true, hostId: null };
  }
  if (!people.includes(room.hostId)) {
    await tx.room.update({ where: { id: roomId }, data: { hostId: people[0] } });
    return { closed: false, hostId: people[0] };
  }
  return { closed: false, hostId: room.hostId };
}
