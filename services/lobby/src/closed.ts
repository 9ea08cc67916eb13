/**
 * Frees the lobby room of a game room a worker let go for good (RoomClosed, a durable event read by the
 * durable consumer `lobby`, like RoomFinished in finished.ts): acknowledged only after the PostgreSQL
 * transaction committed, and a no-op when redelivered (it only frees a room still pointing at that game).
 *
 * Ordering: the game's record links to its lobby room through `rooms.current_game_id`, so freeing the room
 * first would record the game with no lobby room. The two facts travel in two streams and may arrive in any
 * order (a lobby down while both happen reads them back in parallel), so a RoomClosed of a finished game
 * (`finished: true`) is applied only once its game is in the history: before that it is answered "not yet"
 * (rejected, redelivered a second later) and the game's RoomFinished, which frees the room itself, wins.
 * A room closed without a result (`finished: false`) has nothing to wait for.
 */
import { contract, listenDurable, type bus as wire } from '@joke/protocol';
import type { Bus, BusSubscription } from '@joke/bus';
import type { Logger } from 'pino';
import type { Db } from './db/open.ts';
import { unstorable } from './db/errors.ts';
import { countParked, type LobbyMetrics } from './metrics.ts';

export class GameNotRecordedYet extends Error {
  constructor(readonly gameId: string) {
    super(`RoomClosed of ${gameId} before its RoomFinished was recorded: redelivered later`);
    this.name = 'GameNotRecordedYet';
  }
}

export type ClosedOutcome = 'freed' | 'nothing-to-free';

export async function applyRoomClosed(db: Db, msg: wire.RoomClosed): Promise<ClosedOutcome> {
  return db.$transaction(async (tx) => {
    if (msg.finished && !(await tx.game.findUnique({ where: { id: msg.roomId }, select: { id: true } })))
      throw new GameNotRecordedYet(msg.roomId);
    const r = await tx.room.updateMany({
      where: { currentGameId: msg.roomId },
      data: { status: 'waiting', currentGameId: null },
    });
    return r.count > 0 ? 'freed' : 'nothing-to-free';
  });
}

export interface ClosedSubscriber {
  close(): void;
}

/** `onFreed`: a lobby room is waiting again (the room list must be read anew). */
export async function subscribeClosed(
  bus: Bus,
  db: Db,
  log: Logger,
  metrics: LobbyMetrics,
  onFreed: () => void = () => {},
): Promise<ClosedSubscriber> {
  const sub: BusSubscription = await listenDurable(
    bus,
    contract.roomClosed,
    async (msg) => {
      const outcome = await applyRoomClosed(db, msg).catch(unstorable);
      metrics.roomsClosed.inc({ outcome });
      if (outcome === 'freed') onFreed();
      log.info({ gameId: msg.roomId, outcome }, 'game room closed');
    },
    (err) => log.warn({ err }, 'malformed RoomClosed parked'),
    countParked(metrics, log, 'roomClosed'),
  );
  return { close: () => sub.unsubscribe() };
}
