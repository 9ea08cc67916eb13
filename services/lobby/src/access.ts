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
import type { Raw, Stmt } from './db/raw.ts';

/**
 * One statement, straight on the pool (db/raw.ts), not a Prisma `findUnique` with two relation reads:
 * Prisma ran that as an implicit transaction whose start waits at most 2 s for a connection, and on a
 * starved box (the swarm cluster test under two busy loops) hundreds of checks failed with P2028
 * "Unable to start a transaction in the given time" — each one a bot refused `unavailable`.
 */
const MAY_JOIN: Stmt = {
  name: 'lobby_room_access',
  text: `SELECT r."is_private" AS "isPrivate",
    (r."host_id" = $2
      OR EXISTS (SELECT 1 FROM "seats" s WHERE s."room_id" = r."id" AND s."user_id" = $2)
      OR EXISTS (SELECT 1 FROM "spectators" p WHERE p."room_id" = r."id" AND p."user_id" = $2)) AS "member"
    FROM "rooms" r WHERE r."current_game_id" = $1`,
};

export async function mayJoin(raw: Raw, userId: string, gameRoomId: string): Promise<boolean> {
  const [room] = await raw.rows<{ isPrivate: boolean; member: boolean }>(MAY_JOIN, [gameRoomId, userId]);
  return !room || !room.isPrivate || room.member;
}

export function serveAccess(bus: Bus, raw: Raw, log: Logger): BusSubscription {
  return serve(
    bus,
    contract.roomAccess,
    (req, reply) => {
      mayJoin(raw, req.userId, req.roomId).then(
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
