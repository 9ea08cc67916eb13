/**
 * Unseats a person who left a game for good (PlayerLeft, a durable event from
 * the room worker: room-worker departures.ts says what counts), so the lobby
 * room the game was started from never shows them seated again: the room's
 * seat row goes, and the host role passes to the longest-seated person still
 * there (else the earliest spectator). A room left with nobody is not deleted
 * here (its game may still be playing; it is freed when the game ends and the
 * lifecycle closes an empty waiting room).
 *
 * Read by the durable consumer `lobby`, acknowledged only after the
 * PostgreSQL transaction committed; idempotent: a redelivered or re-sent fact
 * finds no seat and changes nothing. The lobby room is the one still at the
 * game (`current_game_id`), or, when the game already ended and freed it (the
 * facts travel in separate streams and come back in any order after a lobby
 * outage), the one its record names (`games.lobby_room_id`). Only a seat taken
 * before the departure goes: one taken again later is a new seat.
 */
import { Counter } from 'prom-client';
import { contract, listenDurable, type bus as wire } from '@joke/protocol';
import { type Bus, type BusSubscription } from '@joke/bus';
import { aliasMetrics } from '@joke/ops';
import type { Logger } from 'pino';
import type { Db } from './db/open.ts';
import { txRaw } from './db/raw.ts';
import { unstorable } from './db/errors.ts';
import { countParked, type LobbyMetrics } from './metrics.ts';
import { lockRoomRow } from './rooms/sql.ts';

export type LeftOutcome = 'unseated' | 'not-seated' | 'no-room';

export async function applyPlayerLeft(
  db: Db,
  msg: wire.PlayerLeft,
): Promise<{ outcome: LeftOutcome; roomId: string | null }> {
  return db.$transaction(async (tx) => {
    const atGame = await tx.room.findUnique({ where: { currentGameId: msg.roomId }, select: { id: true } });
    const roomId =
      atGame?.id ??
      (await tx.game.findUnique({ where: { id: msg.roomId }, select: { lobbyRoomId: true } }))?.lobbyRoomId ??
      null;
    if (!roomId || !(await lockRoomRow(txRaw(tx), roomId))) return { outcome: 'no-room', roomId: null };
    const gone = await tx.seat.deleteMany({
      where: { roomId, userId: msg.userId, joinedAt: { lte: new Date(msg.at) } },
    });
    if (gone.count === 0) return { outcome: 'not-seated', roomId };
    const room = await tx.room.findUnique({
      where: { id: roomId },
      select: {
        hostId: true,
        seats: { where: { userId: { not: null } }, orderBy: [{ joinedAt: 'asc' }, { seat: 'asc' }] },
        spectators: { orderBy: [{ joinedAt: 'asc' }, { userId: 'asc' }] },
      },
    });
    if (room && room.hostId === msg.userId) {
      const next = [...room.seats.map((s) => s.userId!), ...room.spectators.map((s) => s.userId)][0];
      if (next) await tx.room.update({ where: { id: roomId }, data: { hostId: next } });
    }
    return { outcome: 'unseated', roomId };
  });
}

export interface DeparturesSubscriber {
  close(): void;
}

/** `onUnseated`: a lobby room lost a seated person (the room list and the lifecycle must read it anew). */
export async function subscribeDepartures(
  bus: Bus,
  db: Db,
  log: Logger,
  metrics: LobbyMetrics,
  onUnseated: (roomId: string) => void = () => {},
): Promise<DeparturesSubscriber> {
  const name = 'joke_lobby_player_left_total';
  const applied =
    (metrics.registry.getSingleMetric(name) as Counter<'outcome'> | undefined) ??
    new Counter({
      name,
      help: 'PlayerLeft facts applied (acknowledged), by outcome: unseated, not-seated (a redelivery) or no-room',
      labelNames: ['outcome'],
      registers: [metrics.registry],
    });
  aliasMetrics(metrics.registry, [{ current: name, old: 'lobby_player_left_total' }]);
  const sub: BusSubscription = await listenDurable(
    bus,
    contract.playerLeft,
    async (msg) => {
      const { outcome, roomId } = await applyPlayerLeft(db, msg).catch(unstorable);
      applied.inc({ outcome });
      if (outcome === 'unseated' && roomId) onUnseated(roomId);
      log.info({ gameId: msg.roomId, userId: msg.userId, reason: msg.reason, roomId, outcome }, 'player left a game');
    },
    (err) => log.warn({ err }, 'malformed PlayerLeft parked'),
    countParked(metrics, log, 'playerLeft'),
  );
  return { close: () => sub.unsubscribe() };
}
