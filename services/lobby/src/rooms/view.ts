/**
 * What the client sees of a room. Plain JSON (numbers for times) so the
 * router's output types carry nothing from Prisma to the client.
 */
import type { AnyGame } from '@joke/engine';
import type { Prisma } from '../generated/prisma/client.ts';
import type { AgainView } from './again.ts';

export type RoomStatus = 'waiting' | 'starting' | 'playing';

export interface SeatView {
  seat: number;
  /** null for a bot, and for every seat when an outsider looks at a private room. */
  userId: string | null;
  name: string;
  bot: boolean;
}

export interface RoomSummary {
  roomId: string;
  game: string;
  gameName: string;
  mode: string;
  modeName: string;
  isPrivate: boolean;
  status: RoomStatus;
  hostId: string;
  hostName: string;
  /** Seats taken (people and bots). */
  seated: number;
  /** Seats the options allow (playerRange(options).max). */
  maxSeats: number;
  /** Fewest players the game can start with (playerRange(options).min). */
  minPlayers: number;
  openSeats: number;
  spectatorCount: number;
  createdAt: number;
}

export interface RoomDetail extends RoomSummary {
  /** Invite code; shown only to people in the room for private rooms. */
  code: string | null;
  /** Options as the engine parsed them (defaults filled in). */
  options: Record<string, unknown>;
  seats: SeatView[];
  spectators: { userId: string; name: string }[];
  /** Room id to open at the gateway while a game is on, else null (always null for outsiders of a private room). */
  gameRoomId: string | null;
  gamesPlayed: number;
  /** The caller's place in this room. */
  you: { seat: number | null; spectating: boolean; isHost: boolean };
  /** The room's latest lifecycle transition, in Korean with its code (members only; rooms.get). */
  notice?: { code: string; text: string } | null;
  /** 한 판 더: who agreed to the next game (members only, after a first game; rooms/again.ts). */
  again?: AgainView | null;
}

export const roomInclude = {
  host: { select: { nickname: true } },
  seats: { include: { user: { select: { nickname: true } } }, orderBy: { seat: 'asc' } },
  spectators: { include: { user: { select: { nickname: true } } }, orderBy: { joinedAt: 'asc' } },
} satisfies Prisma.RoomInclude;

export type RoomRow = Prisma.RoomGetPayload<{ include: typeof roomInclude }>;

export const summaryInclude = {
  host: { select: { nickname: true } },
  _count: { select: { seats: true, spectators: true } },
} satisfies Prisma.RoomInclude;

type SummaryRow = Prisma.RoomGetPayload<{ include: typeof summaryInclude }>;

/** A game by id; ids come from stored rows and bus messages, so `__proto__` must not find Object.prototype. */
const gameDef = (games: Record<string, AnyGame>, id: string): AnyGame | undefined =>
  Object.hasOwn(games, id) ? games[id] : undefined;

interface Labels {
  gameName: string;
  modeName: string;
  minPlayers: number;
}

/**
 * Names and the minimum player count of a game with its options. Parsing the options is most of the
 * work of a list row, and rooms share few distinct option sets: remember them (bounded).
 */
const labelMemo = new Map<string, Labels>();
const LABEL_MEMO_MAX = 10_000;

function labels(games: Record<string, AnyGame>, game: string, mode: string, options: unknown): Labels {
  const key = `${game}\u0000${mode}\u0000${JSON.stringify(options)}`;
  const hit = labelMemo.get(key);
  if (hit && games === memoGames) return hit;
  if (games !== memoGames || labelMemo.size >= LABEL_MEMO_MAX) {
    labelMemo.clear();
    memoGames = games;
  }
  const def = gameDef(games, game);
  const byMode = def?.modes.find((m) => m.id === mode)?.name ?? mode;
  const parsed = def ? def.optionsSchema.safeParse(options) : null;
  const out: Labels = {
    gameName: def?.name ?? game,
    modeName: parsed?.success && def!.modeName ? def!.modeName(parsed.data) : byMode,
    minPlayers: !def ? 0 : parsed?.success ? def.playerRange(parsed.data).min : def.minPlayers,
  };
  labelMemo.set(key, out);
  return out;
}
let memoGames: Record<string, AnyGame> | null = null;

export function minPlayersOf(games: Record<string, AnyGame>, game: string, options: unknown): number {
  return labels(games, game, '', options).minPlayers;
}

function rowLabels(games: Record<string, AnyGame>, r: SummaryRow): Labels {
  return labels(games, r.game, r.mode, r.options);
}

export function toSummary(games: Record<string, AnyGame>, r: SummaryRow): RoomSummary {
  return {
    roomId: r.id,
    game: r.game,
    ...rowLabels(games, r),
    mode: r.mode,
    isPrivate: r.isPrivate,
    status: r.status as RoomStatus,
    hostId: r.hostId,
    hostName: r.host.nickname,
    seated: r._count.seats,
    maxSeats: r.maxSeats,
    openSeats: Math.max(0, r.maxSeats - r._count.seats),
    spectatorCount: r._count.spectators,
    createdAt: r.createdAt.getTime(),
  };
}

export function seatName(s: RoomRow['seats'][number]): string {
  return s.user?.nickname ?? s.botName ?? '?';
}

/**
 * A room as `viewer` may see it. Someone outside a private room (who found
 * its id somewhere) sees what the list would show, but not who sits where
 * nor the game id: with a seat's user id and the gateway id, a forged or
 * stolen token is all it takes to sit in that seat.
 */
export function toDetail(games: Record<string, AnyGame>, r: RoomRow, viewer: string): RoomDetail {
  const mySeat = r.seats.find((s) => s.userId === viewer);
  const spectating = r.spectators.some((s) => s.userId === viewer);
  const member = mySeat !== undefined || spectating;
  const hidden = r.isPrivate && !member;
  const summary = toSummary(games, { ...r, _count: { seats: r.seats.length, spectators: r.spectators.length } });
  return {
    ...summary,
    hostId: hidden ? '' : summary.hostId,
    code: hidden ? null : r.code,
    options: r.options as Record<string, unknown>,
    seats: r.seats.map((s) => ({
      seat: s.seat,
      userId: hidden ? null : s.userId,
      name: seatName(s),
      bot: s.userId === null,
    })),
    spectators: hidden ? [] : r.spectators.map((s) => ({ userId: s.userId, name: s.user.nickname })),
    gameRoomId: r.status === 'playing' && !hidden ? r.currentGameId : null,
    gamesPlayed: r.gamesPlayed,
    you: { seat: mySeat?.seat ?? null, spectating, isHost: r.hostId === viewer },
  };
}
