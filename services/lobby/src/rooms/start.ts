/**
 * `rooms.start`: host only. Checks the seat count against playerRange(options), asks the matchmaker
 * to place the game, and returns the id to open at the gateway; a refusal or no answer puts the room
 * back to waiting.
 */
import { TRPCError } from '@trpc/server';
import { BusRefusal } from '../refused.ts';
import { bus as wire, call, contract } from '@joke/protocol';
import { newGameRoomId } from '../ids.ts';
import { MSG } from '../messages.ts';
import type { LobbyDeps } from '../trpc.ts';
import { detail, gameOf, parseOptions } from './game-def.ts';
import { lockRoom, requireHost, requireWaiting } from './store.ts';
import { seatName, type RoomDetail } from './view.ts';

/** A bot's seat id in the game: unique per table and never a user id (those start with `u_`). */
const botId = (seat: number): string => `bot_${seat}`;

/**
 * Chat in a private room (friends with an invite code) allows free text and
 * lets spectators speak; public rooms keep to quick phrases and emotes among the players.
 */
function chatPolicy(room: { isPrivate: boolean }): { freeText: boolean; spectators: boolean } {
  return { freeText: room.isPrivate, spectators: room.isPrivate };
}

export async function startGame(
  deps: LobbyDeps,
  roomId: string,
  userId: string,
): Promise<{ gameRoomId: string; workerId: string; room: RoomDetail }> {
  const { db, bus, games, log, metrics, startTimeoutMs } = deps;
  const gameRoomId = newGameRoomId();
  const room = await db.$transaction(async (tx) => {
    const room = await lockRoom(tx, roomId);
    requireHost(room, userId);
    requireWaiting(room);
    const def = gameOf(games, room.game);
    const { min, max } = def.playerRange(parseOptions(def, room.options as Record<string, unknown>));
    const n = room.seats.length;
    if (n < min) throw new TRPCError({ code: 'CONFLICT', message: MSG.tooFew(min, n) });
    if (n > max) throw new TRPCError({ code: 'CONFLICT', message: MSG.tooMany(max, n) });
    await tx.room.update({ where: { id: room.id }, data: { status: 'starting', currentGameId: gameRoomId } });
    return room;
  });
  const players = room.seats.map((s) => ({
    id: s.userId ?? botId(s.seat),
    name: seatName(s),
    bot: s.userId === null,
  }));
  const request = wire.CreateRoomRequest.parse({
    v: 1,
    room: { roomId: gameRoomId, game: room.game, options: room.options, players, chat: chatPolicy(room) },
  });
  const revert = () =>
    db.room.updateMany({
      where: { id: room.id, currentGameId: gameRoomId },
      data: { status: 'waiting', currentGameId: null },
    });
  let reply: wire.CreateRoomReply;
  try {
    reply = await call(bus, contract.createRoom, request, startTimeoutMs);
  } catch (e) {
    await revert();
    log.warn({ err: e, roomId: room.id }, 'matchmaker did not answer createRoom');
    throw new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: MSG.matchmakerDown, cause: e });
  }
  if (!reply.ok) {
    await revert();
    // Every game server is full (issue 37): unavailable for now, not a conflict with the room's state; the
    // bus code goes along (data.refusal) so the client can say so and offer to try again.
    throw new TRPCError({
      code: reply.code === 'capacity' ? 'SERVICE_UNAVAILABLE' : 'CONFLICT',
      message: MSG.matchmakerRefused(reply.reason),
      cause: new BusRefusal(reply.code),
    });
  }
  await db.room.updateMany({
    where: { id: room.id, currentGameId: gameRoomId },
    data: { status: 'playing', gamesPlayed: { increment: 1 } },
  });
  metrics.gamesStarted.inc({ game: room.game });
  log.info({ roomId: room.id, gameRoomId, workerId: reply.workerId, players: players.length }, 'game started');
  return { gameRoomId, workerId: reply.workerId, room: await detail(deps, room.id, userId) };
}
