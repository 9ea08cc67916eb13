/**
 * The room statements of the hot paths (db/raw.ts says why they are raw): a
 * room read as one statement (seats and spectators aggregated as JSON), the
 * lock, create (one call of `lobby_create_room`, see its migration) and join
 * (one statement). Each returns the room as Prisma would have (`RoomRow`), so
 * views and checks stay the same.
 */
import { json, ms, NOW, type Raw, type Stmt } from '../db/raw.ts';
import type { RoomRow } from './view.ts';

/** The columns of `r` (rooms) that make a RoomRow, with its host, seats and spectators. */
const ROOM_COLUMNS = `r."id", r."code", r."game", r."mode", r."options"::text AS "options",
  r."is_private" AS "isPrivate", r."host_id" AS "hostId", r."status", r."max_seats" AS "maxSeats",
  r."current_game_id" AS "currentGameId", r."games_played" AS "gamesPlayed",
  ${ms('r."created_at"')} AS "createdMs", ${ms('r."updated_at"')} AS "updatedMs",
  (SELECT h."nickname" FROM "users" h WHERE h."id" = r."host_id") AS "hostName",
  (SELECT json_agg(json_build_object('seat', s."seat", 'userId', s."user_id", 'botName', s."bot_name",
      'joinedMs', ${ms('s."joined_at"')}, 'nickname', u."nickname") ORDER BY s."seat")::text
    FROM "seats" s LEFT JOIN "users" u ON u."id" = s."user_id" WHERE s."room_id" = r."id") AS "seats",
  (SELECT json_agg(json_build_object('userId', p."user_id", 'joinedMs', ${ms('p."joined_at"')},
      'nickname', u."nickname") ORDER BY p."joined_at", p."user_id")::text
    FROM "spectators" p JOIN "users" u ON u."id" = p."user_id" WHERE p."room_id" = r."id") AS "spectators"`;

export interface RawRoom {
  id: string;
  code: string;
  game: string;
  mode: string;
  options: string;
  isPrivate: boolean;
  hostId: string;
  status: string;
  maxSeats: number;
  currentGameId: string | null;
  gamesPlayed: number;
  createdMs: number;
  updatedMs: number;
  hostName: string;
  seats: string | null;
  spectators: string | null;
}

type RawSeat = {
  seat: number;
  userId: string | null;
  botName: string | null;
  joinedMs: number;
  nickname: string | null;
};
type RawSpectator = { userId: string; joinedMs: number; nickname: string };

export function toRoomRow(r: RawRoom): RoomRow {
  return {
    id: r.id,
    code: r.code,
    game: r.game,
    mode: r.mode,
    options: json(r.options),
    isPrivate: r.isPrivate,
    hostId: r.hostId,
    status: r.status,
    maxSeats: r.maxSeats,
    currentGameId: r.currentGameId,
    gamesPlayed: r.gamesPlayed,
    createdAt: new Date(r.createdMs),
    updatedAt: new Date(r.updatedMs),
    host: { nickname: r.hostName },
    seats: (json<RawSeat[] | null>(r.seats) ?? []).map((s) => ({
      roomId: r.id,
      seat: s.seat,
      userId: s.userId,
      botName: s.botName,
      joinedAt: new Date(s.joinedMs),
      user: s.userId === null ? null : { nickname: s.nickname ?? '?' },
    })),
    spectators: (json<RawSpectator[] | null>(r.spectators) ?? []).map((s) => ({
      roomId: r.id,
      userId: s.userId,
      joinedAt: new Date(s.joinedMs),
      user: { nickname: s.nickname },
    })),
  };
}

const READ: Stmt = { name: 'lobby_room_read', text: `SELECT ${ROOM_COLUMNS} FROM "rooms" r WHERE r."id" = $1` };

/** The room with its seats and spectators, in one statement (null if there is none). */
export async function readRoom(raw: Raw, roomId: string): Promise<RoomRow | null> {
  const [row] = await raw.rows<RawRoom>(READ, [roomId]);
  return row ? toRoomRow(row) : null;
}

const READ_MANY: Stmt = {
  name: 'lobby_room_read_many',
  text: `SELECT ${ROOM_COLUMNS} FROM "rooms" r WHERE r."id" = ANY($1::text[]) OR r."current_game_id" = ANY($2::text[])`,
};

/** The rooms with these ids or playing these gateway rooms (the lifecycle's rooms), in one statement. */
export async function readRooms(raw: Raw, ids: string[], gameRoomIds: string[]): Promise<RoomRow[]> {
  return (await raw.rows<RawRoom>(READ_MANY, [ids, gameRoomIds])).map(toRoomRow);
}

const LOCK: Stmt = {
  name: 'lobby_room_lock',
  text: `UPDATE "rooms" SET "updated_at" = ${NOW} WHERE "id" = $1 RETURNING "id"`,
};

/** Takes the room row's lock for the rest of the transaction; false if there is no such room. */
export async function lockRoomRow(raw: Raw, roomId: string): Promise<boolean> {
  return (await raw.rows(LOCK, [roomId])).length > 0;
}

const BY_CODE: Stmt = { name: 'lobby_room_by_code', text: `SELECT "id" FROM "rooms" WHERE "code" = $1` };

export async function roomIdByCode(raw: Raw, code: string): Promise<string | null> {
  const [row] = await raw.rows<{ id: string }>(BY_CODE, [code]);
  return row?.id ?? null;
}

const CREATE: Stmt = {
  name: 'lobby_room_create',
  text: `SELECT "hosted", "hostName", "createdMs"
    FROM "lobby_create_room"($1::text, $2::text, $3::text, $4::text, $5::text, $6::text, $7::jsonb, $8::boolean, $9::int, $10::int)`,
};

export interface NewRoom {
  id: string;
  code: string;
  game: string;
  mode: string;
  options: Record<string, unknown>;
  isPrivate: boolean;
  maxSeats: number;
}

/**
 * Creates the room with its host in seat 0 (and the host's user row if missing), unless the host
 * already hosts `cap` rooms: then null. A taken invite code throws SQLSTATE 23505.
 */
export async function createRoom(
  raw: Raw,
  host: { id: string; nickname: string },
  room: NewRoom,
  cap: number,
): Promise<{ row: RoomRow | null; hosted: number }> {
  const [r] = await raw.rows<{ hosted: number; hostName: string; createdMs: number | null }>(CREATE, [
    host.id,
    host.nickname,
    room.id,
    room.code,
    room.game,
    room.mode,
    JSON.stringify(room.options),
    room.isPrivate,
    room.maxSeats,
    cap,
  ]);
  if (r.createdMs === null) return { row: null, hosted: r.hosted };
  const at = new Date(r.createdMs);
  const row: RoomRow = {
    ...room,
    options: room.options as RoomRow['options'],
    hostId: host.id,
    status: 'waiting',
    currentGameId: null,
    gamesPlayed: 0,
    createdAt: at,
    updatedAt: at,
    host: { nickname: r.hostName },
    seats: [{ roomId: room.id, seat: 0, userId: host.id, botName: null, joinedAt: at, user: { nickname: r.hostName } }],
    spectators: [],
  };
  return { row, hosted: r.hosted };
}

/** `$2` takes the lowest free seat of `$1` if the room waits, has room, and `$2` may enter it. */
const joinText = (touchUser: boolean) => `WITH ${
  touchUser
    ? `"u" AS (INSERT INTO "users" ("id", "nickname") VALUES ($2, $3)
        ON CONFLICT ("id") DO UPDATE SET "last_seen_at" = ${NOW} RETURNING "id"),`
    : ''
}
"flags" AS (
  SELECT EXISTS (SELECT 1 FROM "seats" WHERE "room_id" = $1 AND "user_id" = $2) AS "seated",
         EXISTS (SELECT 1 FROM "spectators" WHERE "room_id" = $1 AND "user_id" = $2) AS "watching"
),
"locked" AS (
  UPDATE "rooms" lr SET "updated_at" = ${NOW} FROM "flags"
  WHERE lr."id" = $1 AND lr."status" = 'waiting' AND NOT "flags"."seated"
    AND ($4::boolean OR NOT lr."is_private" OR "flags"."watching")
  RETURNING lr."max_seats"
),
"free" AS (
  SELECT g AS "seat" FROM "locked", generate_series(0, "locked"."max_seats" - 1) AS g
  WHERE g NOT IN (SELECT "seat" FROM "seats" WHERE "room_id" = $1)
  ORDER BY g LIMIT 1
),
"gone" AS (
  DELETE FROM "spectators" WHERE "room_id" = $1 AND "user_id" = $2 AND EXISTS (SELECT 1 FROM "free")
  RETURNING "user_id"
),
"taken" AS (
  INSERT INTO "seats" ("room_id", "seat", "user_id", "joined_at") SELECT $1, "seat", $2, ${NOW} FROM "free"
  RETURNING "seat", ${ms('"joined_at"')} AS "joinedMs"
)
SELECT ${ROOM_COLUMNS}, "flags"."seated", "flags"."watching",
  (SELECT count(*)::int FROM "locked") AS "locked",
  (SELECT "seat" FROM "taken") AS "takenSeat",
  (SELECT "joinedMs" FROM "taken") AS "takenMs",
  coalesce((SELECT "nickname" FROM "users" WHERE "id" = $2), $3::text) AS "myName"
FROM "rooms" r, "flags" WHERE r."id" = $1`;

const JOIN_TOUCH: Stmt = { name: 'lobby_room_join_touch', text: joinText(true) };
const JOIN: Stmt = { name: 'lobby_room_join', text: joinText(false) };

export interface JoinOutcome {
  /** The room as the statement saw it (before the join), null if there is no such room. */
  room: RoomRow | null;
  seated: boolean;
  watching: boolean;
  /** The room row was locked for a join (waiting, not seated, allowed in). */
  locked: boolean;
  /** The seat taken, null if none (full, or not locked). */
  taken: { seat: number; joinedAt: Date; nickname: string } | null;
}

/**
 * One attempt at a join. Every check reads the statement's snapshot, which may predate a concurrent
 * join: two joins picking the same seat (or the same user twice) end in a unique violation (23505),
 * and the caller retries with a fresh snapshot.
 */
export async function joinRoom(
  raw: Raw,
  roomId: string,
  user: { id: string; nickname: string },
  opts: { touchUser: boolean; allowPrivate: boolean },
): Promise<JoinOutcome> {
  type Row = RawRoom & {
    seated: boolean;
    watching: boolean;
    locked: number;
    takenSeat: number | null;
    takenMs: number | null;
    myName: string;
  };
  const [r] = await raw.rows<Row>(opts.touchUser ? JOIN_TOUCH : JOIN, [
    roomId,
    user.id,
    user.nickname,
    opts.allowPrivate,
  ]);
  if (!r) return { room: null, seated: false, watching: false, locked: false, taken: null };
  return {
    room: toRoomRow(r),
    seated: r.seated,
    watching: r.watching,
    locked: r.locked > 0,
    taken: r.takenSeat === null ? null : { seat: r.takenSeat, joinedAt: new Date(r.takenMs!), nickname: r.myName },
  };
}
