/**
 * Tables whose game state the store lost (subjects.roomLost, from a room
 * worker's store-loss check): the game cannot go on, so the lobby room that
 * was playing it goes back to `waiting` at once and its host can start a new
 * game. Before this, such a room stayed `playing` until the stuck-game sweep
 * freed it 12 hours later. One lobby of the `lobby` queue group gets each message.
 */
import { contract, listen } from '@joke/protocol';
import type { Bus, BusSubscription } from '@joke/bus';
import { systemClock, type Clock } from '@joke/bus/clock';
import type { Logger } from 'pino';
import type { Db } from './db/open.ts';
import type { LobbyMetrics } from './metrics.ts';

export interface LostSubscriber {
  /** Resolves when every message received so far has been handled. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

const RETRIES = 3;

export function subscribeLost(
  bus: Bus,
  db: Db,
  log: Logger,
  metrics: LobbyMetrics,
  clock: Pick<Clock, 'sleep'> = systemClock,
): LostSubscriber {
  const inFlight = new Set<Promise<void>>();
  const handle = async (gameRoomId: string): Promise<void> => {
    for (let attempt = 1; ; attempt++) {
      try {
        const r = await db.room.updateMany({
          where: { currentGameId: gameRoomId },
          data: { status: 'waiting', currentGameId: null },
        });
        metrics.tablesLost.inc();
        log.error({ gameId: gameRoomId, rooms: r.count }, 'a table was lost by the game store; its room is open again');
        return;
      } catch (err) {
        if (attempt < RETRIES) {
          await clock.sleep(100 * 2 ** attempt);
          continue;
        }
        log.error({ err, gameId: gameRoomId }, 'could not reopen the room of a lost table');
        return;
      }
    }
  };
  const sub: BusSubscription = listen(
    bus,
    contract.roomLost,
    (msg) => {
      const p = handle(msg.roomId).finally(() => inFlight.delete(p));
      inFlight.add(p);
    },
    (err) => log.warn({ err }, 'malformed RoomLost dropped'),
  );
  const idle = async () => {
    while (inFlight.size > 0) await Promise.all([...inFlight]);
  };
  return {
    idle,
    async close() {
      sub.unsubscribe();
      await idle();
    },
  };
}
