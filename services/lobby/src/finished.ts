/**
 * Stores every finished game exactly once: subjects.roomFinished is a durable
 * event (a JetStream stream on NATS) read by the durable consumer `lobby`,
 * shared by every lobby replica; an event is acknowledged only after its
 * PostgreSQL transaction committed, so a game that ends while no lobby is up
 * waits in the stream, and a redelivered or duplicated event is a no-op
 * because the game id (the gateway room id) is the primary key.
 *
 * A result that can never be stored (a record that does not parse, data PostgreSQL refuses such as a NUL in
 * a name: db/errors.ts) is parked in the dead-letter stream at once, counted in joke_lobby_dead_letters_total;
 * a storage failure that may pass (PostgreSQL down) is delivered again within the bus's budget (≈ 29 min),
 * then parked too. Either way the consumer moves on: one bad result never holds back the games after it.
 */
import { z } from 'zod';
import { bus as wire, contract, listenDurable, UnprocessableEvent } from '@joke/protocol';
import type { Bus, BusSubscription } from '@joke/bus';
import { systemClock, type Clock } from '@joke/bus/clock';
import type { Logger } from 'pino';
import type { Db } from './db/open.ts';
import { permanentDbFailure } from './db/errors.ts';
import { countParked, type LobbyMetrics } from './metrics.ts';
import { isUniqueViolation } from './rooms/store.ts';
import { addGameTotals, afterStored, analyseGame } from './fairplay/store.ts';
import type { GameDelta } from '@joke/engine/fairplay/stats';

const RankingEntry = z.looseObject({ player: z.string(), rank: z.number().int() });
const Result = z.looseObject({
  ranking: z.array(RankingEntry),
  winners: z.array(z.string()),
  summary: z.string(),
  seed: z.string(),
});
/** The parts of an engine GameRecord the lobby relies on; the rest is stored as sent. */
const RecordShape = z.looseObject({
  game: z.string(),
  options: z.record(z.string(), z.unknown()),
  players: z.array(z.looseObject({ id: z.string(), name: z.string() })),
  startedAt: z.number(),
  seedCommit: z.string(),
  seed: z.string(),
  actions: z.array(z.unknown()),
  result: Result,
});

export type RecordOutcome = 'stored' | 'duplicate';

const RETRIES = 4;

/**
 * `fairplay`: this game's fair-play totals (fairplay/store.ts), added in the same transaction as the game
 * row, so a redelivered result adds nothing twice.
 */
export async function recordFinished(db: Db, msg: wire.RoomFinished, fairplay?: GameDelta): Promise<RecordOutcome> {
  const record = RecordShape.parse(msg.record);
  const result = Result.parse(msg.result);
  const rankOf = new Map(result.ranking.map((r) => [r.player, r.rank]));
  const room = await db.room.findUnique({
    where: { currentGameId: msg.roomId },
    select: { id: true, isPrivate: true },
  });
  let outcome: RecordOutcome = 'stored';
  try {
    await db.$transaction(async (tx) => {
      if (await tx.game.findUnique({ where: { id: msg.roomId }, select: { id: true } })) {
        outcome = 'duplicate';
        return;
      }
      // Quick-match players may never have touched this lobby's database (or it was in memory and restarted).
      // ON CONFLICT DO NOTHING: two games of the same people may be recorded at once.
      await tx.user.createMany({
        data: msg.players.filter((p) => !p.bot).map((p) => ({ id: p.id, nickname: p.name })),
        skipDuplicates: true,
      });
      await tx.game.create({
        data: {
          id: msg.roomId,
          lobbyRoomId: room?.id ?? null,
          isPrivate: room?.isPrivate ?? false,
          game: msg.game,
          mode: msg.mode,
          options: record.options as object,
          seedCommit: record.seedCommit,
          seed: record.seed,
          summary: result.summary,
          // Stored as received (not the parsed copies): key order is part of what verifyRecord compares.
          result: msg.result as object,
          record: msg.record as object,
          actionCount: record.actions.length,
          startedAt: new Date(record.startedAt),
          finishedAt: new Date(msg.finishedAt),
          players: {
            create: msg.players.map((p, seat) => ({
              seat,
              playerId: p.id,
              userId: p.bot ? null : p.id,
              name: p.name,
              bot: p.bot,
              rank: rankOf.get(p.id) ?? null,
            })),
          },
        },
      });
      if (fairplay) await addGameTotals(tx, msg.roomId, fairplay);
    });
  } catch (e) {
    // A copy of the same message won the race; anything else is a real failure.
    const exists =
      isUniqueViolation(e) && (await db.game.findUnique({ where: { id: msg.roomId }, select: { id: true } }));
    if (!exists) throw e;
    outcome = 'duplicate';
  }
  // The table is free for the next game whether or not this copy was the first.
  await db.room.updateMany({
    where: { currentGameId: msg.roomId },
    data: { status: 'waiting', currentGameId: null },
  });
  return outcome;
}

/** The game's fair-play totals, computed before storing (a replay: no connection held); never throws. */
function fairplayOf(
  msg: wire.RoomFinished,
  metrics: LobbyMetrics,
  log: Logger,
): { delta: GameDelta; hands: number } | null {
  if (msg.game !== 'poker') return null;
  const end = metrics.fairplaySeconds.startTimer();
  try {
    const out = analyseGame(msg.record, new Set(msg.players.filter((p) => !p.bot).map((p) => p.id)));
    if (out && 'problem' in out) {
      metrics.fairplayGames.inc({ outcome: 'unreadable' });
      log.warn({ gameId: msg.roomId, problem: out.problem }, 'fair-play analysis could not replay the game');
      return null;
    }
    return out;
  } catch (err) {
    metrics.fairplayGames.inc({ outcome: 'unreadable' });
    log.warn({ err, gameId: msg.roomId }, 'fair-play analysis failed');
    return null;
  } finally {
    end();
  }
}

export interface FinishedSubscriber {
  /** Resolves when every message received so far has been handled. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** `onStored`: a game was recorded and its room is waiting again (the room list must be read anew). */
export async function subscribeFinished(
  bus: Bus,
  db: Db,
  log: Logger,
  metrics: LobbyMetrics,
  onStored: () => void = () => {},
  clock: Pick<Clock, 'sleep'> = systemClock,
): Promise<FinishedSubscriber> {
  const inFlight = new Set<Promise<void>>();
  /** Resolves once stored (or found stored); rejects on a storage failure, so the event comes back later. */
  const handle = async (msg: wire.RoomFinished): Promise<void> => {
    metrics.finishedReceived.inc();
    const fairplay = fairplayOf(msg, metrics, log);
    for (let attempt = 1; ; attempt++) {
      try {
        const outcome = await recordFinished(db, msg, fairplay?.delta);
        onStored();
        if (outcome === 'stored') metrics.gamesRecorded.inc({ game: msg.game });
        if (outcome === 'stored' && fairplay) {
          metrics.fairplayGames.inc({ outcome: 'analysed' });
          metrics.fairplayHands.inc(fairplay.hands);
          await afterStored(db, fairplay.delta, metrics, log);
        }
        log.info({ gameId: msg.roomId, game: msg.game, outcome }, 'game recorded');
        return;
      } catch (e) {
        const permanent = e instanceof z.ZodError ? 'INVALID_RECORD' : permanentDbFailure(e);
        if (!permanent && attempt < RETRIES) {
          await clock.sleep(100 * 2 ** attempt);
          continue;
        }
        const reason = e instanceof z.ZodError ? 'invalid-record' : permanent ? 'unstorable' : 'storage';
        metrics.finishedRejected.inc({ reason });
        log.error({ err: e, gameId: msg.roomId, permanent }, 'could not record finished game');
        // Never storable: parked at once. A storage failure is delivered again later (then parked, if it lasts).
        if (permanent) throw new UnprocessableEvent(permanent, `game ${msg.roomId}: ${(e as Error).message}`);
        throw e;
      }
    }
  };
  // One consumer of the `lobby` durable (shared by all replicas) gets each event, acked once handled.
  const sub: BusSubscription = await listenDurable(
    bus,
    contract.roomFinished,
    (msg) => {
      const p = handle(msg);
      const tracked = p.then(
        () => {},
        () => {},
      );
      inFlight.add(tracked);
      void tracked.finally(() => inFlight.delete(tracked));
      return p;
    },
    (err) => {
      metrics.finishedReceived.inc();
      metrics.finishedRejected.inc({ reason: 'malformed' });
      log.warn({ err }, 'malformed RoomFinished parked');
    },
    countParked(metrics, log, 'roomFinished'),
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
