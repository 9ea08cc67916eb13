/**
 * 한 판 더 (issue 41): after a game, the people seated in a room vote to play the next one with the same
 * seats and options; the vote that completes the table starts it through the usual start path (start.ts),
 * as the host would. State: one `again_votes` row per person and room, stamped with the round it is for
 * (the room's games_played when they voted), so a vote of an earlier round counts for nothing and a start
 * needs no cleanup. Bots always agree. The host's vote may allow bots: then a seat whose person leaves
 * before the next game is taken by a bot (fillLeftSeat), else the table waits (`short`, said in Korean by
 * the waiting room) until someone sits down or the host adds a bot: the same people, or knowingly others.
 *
 * Failure modes: a vote that lands while the lobby has not yet stored the finished game (the room still
 * `playing`) is kept but cannot start anything; the voter's waiting room sends it again when the room is
 * back to `waiting` (idempotent). Two last votes at once both try to start: the loser finds the room
 * `starting`/`playing` and just answers with the room. Fewer seats than the last game, or than the
 * minimum, is not an error: the room's `again.short` says so and the waiting room explains it in Korean.
 */
import { TRPCError } from '@trpc/server';
import { BOT_NAMES, MSG } from '../messages.ts';
import type { LobbyDeps } from '../trpc.ts';
import { startGame } from './start.ts';
import { lockRoom, type Tx } from './store.ts';
import { seatName, minPlayersOf, type RoomRow } from './view.ts';

/** The next game's vote as members see it (null before the room's first game). */
export interface AgainView {
  /** Games played so far; the vote is for the game after this one. */
  round: number;
  /** Seats that agreed (bots included). */
  seats: number[];
  /** The host lets bots take the seats of people who leave. */
  bots: boolean;
  /** Seats emptied since the last game (people who left, not replaced by a bot). */
  missing: number;
  /** Everyone agreed but the table is smaller than the last game or below the game's minimum: it waits. */
  short: boolean;
}

type Votes = { userId: string; bots: boolean }[];

function view(room: RoomRow, votes: Votes, min: number, lastPlayers: number): AgainView {
  const agreed = new Set(votes.map((v) => v.userId));
  const seats = room.seats.filter((s) => s.userId === null || agreed.has(s.userId)).map((s) => s.seat);
  const all = seats.length === room.seats.length;
  const missing = Math.max(0, lastPlayers - room.seats.length);
  return {
    round: room.gamesPlayed,
    seats,
    bots: votes.some((v) => v.userId === room.hostId && v.bots),
    missing,
    short: all && (missing > 0 || room.seats.length < min),
  };
}

/** How many sat at the room's last stored game (0 when none is stored yet: then only the minimum counts). */
async function lastPlayers(db: Pick<Tx, 'game'>, roomId: string): Promise<number> {
  const last = await db.game.findFirst({
    where: { lobbyRoomId: roomId },
    orderBy: { finishedAt: 'desc' },
    select: { _count: { select: { players: true } } },
  });
  return last?._count.players ?? 0;
}

async function stateOf(db: Pick<Tx, 'game' | 'againVote'>, deps: LobbyDeps, room: RoomRow): Promise<AgainView> {
  // One after the other: inside a transaction both share its one connection (see store.ts lockRoom).
  const votes = await votesOf(db, room);
  const last = await lastPlayers(db, room.id);
  return view(room, votes, minPlayersOf(deps.games, room.game, room.options), last);
}

const votesOf = (tx: Pick<Tx, 'againVote'>, room: RoomRow): Promise<Votes> =>
  tx.againVote.findMany({ where: { roomId: room.id, round: room.gamesPlayed }, select: { userId: true, bots: true } });

/** The vote state of `room` for its members (rooms.get); null before a first game. */
export async function againOf(deps: LobbyDeps, room: RoomRow): Promise<AgainView | null> {
  if (room.gamesPlayed === 0) return null;
  return stateOf(deps.db, deps, room);
}

/**
 * `userId` agrees to the next game (`bots`: the host allows bots in seats left empty). Starts the game when
 * this vote completes a waiting table of at least the game's minimum.
 */
export async function voteAgain(deps: LobbyDeps, roomId: string, userId: string, bots: boolean): Promise<void> {
  const startAs = await deps.db.$transaction(async (tx) => {
    const room = await lockRoom(tx, roomId);
    if (!room.seats.some((s) => s.userId === userId))
      throw new TRPCError({ code: 'FORBIDDEN', message: MSG.againNotSeated });
    if (room.gamesPlayed === 0) throw new TRPCError({ code: 'CONFLICT', message: MSG.againNoGame });
    const mine = { round: room.gamesPlayed, bots: room.hostId === userId && bots, at: new Date() };
    await tx.againVote.upsert({
      where: { roomId_userId: { roomId, userId } },
      create: { roomId, userId, ...mine },
      update: mine,
    });
    const state = await stateOf(tx, deps, room);
    const complete = state.seats.length === room.seats.length && !state.short;
    return room.status === 'waiting' && complete ? room.hostId : null;
  });
  if (!startAs) return;
  try {
    await startGame(deps, roomId, startAs);
  } catch (e) {
    // Another last vote started it first: the room is starting or playing, which is what we wanted.
    if (
      e instanceof TRPCError &&
      e.code === 'CONFLICT' &&
      (e.message === MSG.starting || e.message === MSG.alreadyStarted)
    )
      return;
    throw e;
  }
  deps.log.info({ roomId, userId }, 'again: next game started');
}

/**
 * Inside `leave`'s transaction, after `userId`'s seat was freed: when the host's vote of this round allows
 * bots, a bot takes the seat, so the rest of the table can play on without waiting for a newcomer.
 */
export async function fillLeftSeat(tx: Tx, room: RoomRow, userId: string): Promise<boolean> {
  const seat = room.seats.find((s) => s.userId === userId);
  if (!seat || room.gamesPlayed === 0 || room.hostId === userId) return false;
  const allowed = await tx.againVote.findFirst({
    where: { roomId: room.id, userId: room.hostId, round: room.gamesPlayed, bots: true },
    select: { userId: true },
  });
  if (!allowed) return false;
  const used = new Set(room.seats.map(seatName));
  const name = BOT_NAMES.find((n) => !used.has(n)) ?? `봇 ${seat.seat + 1}`;
  await tx.seat.create({ data: { roomId: room.id, seat: seat.seat, botName: name } });
  return true;
}
