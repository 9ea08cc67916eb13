/**
 * Private-room membership for the gateways (subjects.roomAccess, issue 10):
 * before a socket joins a game room, a gateway asks whether its user may. A
 * game of a private lobby room is open to the room's host, its seated players
 * and its spectators (everyone who came in with the invite code); any other
 * game — public rooms, quick-match tables the lobby never saw — to anyone.
 */
import { contract, refuse, serve } from '@joke/protocol';
import type { Bus, BusSubscription } from '@joke/bus';
import type { Logger } from 'pino';
import type { Db } from './db/open.ts';

export async function mayJoin(db: Db, userId: string, gameRoomId: string): Promise<boolean> {
  const room = await db.room.findUnique({
    where: { currentGameId: gameRoomId },
    select: {
      isPrivate: true,
      hostId: true,
      seats: { where: { userId }, select: { seat: true } },
      spectators: { where: { userId }, select: { userId: true } },
    },
  });
  if (!room || !room.isPrivate) return true;
  return room.hostId === userId || room.seats.length > 0 || room.spectators.length > 0;
}

export function serveAccess(bus: Bus, db: Db, log: Logger): BusSubscription {
  return serve(
    bus,
    contract.roomAccess,
    (req, reply) => {
      mayJoin(db, req.userId, req.roomId).then(
        (allowed) => reply({ ok: true, allowed }),
        (err) => {
          log.error({ err, gameId: req.roomId }, 'room access check failed');
          reply(refuse('internal'));
        },
      );
    },
    () => refuse('malformed'),
  );
}
