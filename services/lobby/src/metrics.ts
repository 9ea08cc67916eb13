/** Prometheus metrics of one lobby instance (its own registry, so several can live in one process). */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ParkedEventLike } from '@joke/protocol';
import { aliasPrefix } from '@joke/ops';
import type { Logger } from 'pino';

export interface LobbyMetrics {
  registry: Registry;
  requestSeconds: Histogram<'path' | 'type' | 'code'>;
  roomsCreated: Counter<'game'>;
  gamesStarted: Counter<'game'>;
  finishedReceived: Counter;
  /** RoomLost messages handled: tables the game store lost, their rooms reopened. */
  tablesLost: Counter;
  gamesRecorded: Counter<'game'>;
  finishedRejected: Counter<'reason'>;
  /** RoomClosed facts applied, by outcome (freed a lobby room, or nothing left to free: a redelivery). */
  roomsClosed: Counter<'outcome'>;
  rateLimited: Counter<'action' | 'scope'>;
  /** Durable events parked in their dead-letter stream, by event (route name) and machine code. */
  deadLetters: Counter<'event' | 'code'>;
  /** Finished poker games the fair-play analysis read, by outcome (analysed, unreadable, evaluation-failed). */
  fairplayGames: Counter<'outcome'>;
  fairplayHands: Counter;
  /** Pairs and accounts newly flagged by the fair-play rules (engine/src/fairplay/stats.ts). */
  fairplayFlags: Counter<'kind'>;
  fairplaySeconds: Histogram;
  ready: Gauge;
}

export function createMetrics(registry = new Registry()): LobbyMetrics {
  const metrics: LobbyMetrics = {
    registry,
    requestSeconds: new Histogram({
      name: 'joke_lobby_trpc_request_seconds',
      help: 'tRPC procedure latency by path and result code',
      labelNames: ['path', 'type', 'code'],
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
    roomsCreated: new Counter({
      name: 'joke_lobby_rooms_created_total',
      help: 'Rooms created',
      labelNames: ['game'],
      registers: [registry],
    }),
    gamesStarted: new Counter({
      name: 'joke_lobby_games_started_total',
      help: 'Games the matchmaker accepted',
      labelNames: ['game'],
      registers: [registry],
    }),
    tablesLost: new Counter({
      name: 'joke_lobby_tables_lost_total',
      help: 'Tables whose state the game store lost (RoomLost); their rooms were opened again',
      registers: [registry],
    }),
    finishedReceived: new Counter({
      name: 'joke_lobby_room_finished_received_total',
      help: 'RoomFinished messages this replica received (one replica of the queue group gets each)',
      registers: [registry],
    }),
    gamesRecorded: new Counter({
      name: 'joke_lobby_games_recorded_total',
      help: 'Finished games stored (duplicates not counted)',
      labelNames: ['game'],
      registers: [registry],
    }),
    finishedRejected: new Counter({
      name: 'joke_lobby_room_finished_rejected_total',
      help: 'RoomFinished messages that could not be stored',
      labelNames: ['reason'],
      registers: [registry],
    }),
    roomsClosed: new Counter({
      name: 'joke_lobby_room_closed_total',
      help: 'RoomClosed facts applied (acknowledged), by outcome: freed or nothing-to-free',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    rateLimited: new Counter({
      name: 'joke_lobby_rate_limited_total',
      help: 'Calls refused by a rate limit, by action (guest, create, join) and scope (ip, user)',
      labelNames: ['action', 'scope'],
      registers: [registry],
    }),
    deadLetters: new Counter({
      name: 'joke_lobby_dead_letters_total',
      help: 'Durable events (game results, departures, closed rooms) parked in their dead-letter stream, by event and code',
      labelNames: ['event', 'code'],
      registers: [registry],
    }),
    fairplayGames: new Counter({
      name: 'joke_lobby_fairplay_games_total',
      help: 'Finished poker games read by the fair-play analysis, by outcome (analysed, unreadable, evaluation-failed)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    fairplayHands: new Counter({
      name: 'joke_lobby_fairplay_hands_total',
      help: 'Poker hands added to the fair-play totals',
      registers: [registry],
    }),
    fairplayFlags: new Counter({
      name: 'joke_lobby_fairplay_flags_total',
      help: 'Pairs (soft play, chip dumping) and accounts (bot-like timing, win rate) newly flagged by the fair-play rules',
      labelNames: ['kind'],
      registers: [registry],
    }),
    fairplaySeconds: new Histogram({
      name: 'joke_lobby_fairplay_analysis_seconds',
      help: 'Time to replay one finished poker game and compute its fair-play totals',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
    ready: new Gauge({ name: 'joke_lobby_ready', help: '1 once migrated and serving', registers: [registry] }),
  };
  // The names before the joke_ prefix, for one release (docs/operations.md, "Metric names").
  aliasPrefix(registry, 'joke_lobby_', 'lobby_', [
    'joke_lobby_dead_letters_total',
    'joke_lobby_fairplay_games_total',
    'joke_lobby_fairplay_hands_total',
    'joke_lobby_fairplay_flags_total',
    'joke_lobby_fairplay_analysis_seconds',
  ]);
  return metrics;
}

/** The `onParked` of a durable consumer: counts the parked event and logs where to find it. */
export function countParked(metrics: LobbyMetrics, log: Logger, event: string) {
  return (p: ParkedEventLike): void => {
    metrics.deadLetters.inc({ event, code: p.code });
    log.error(
      { event, subject: p.subject, code: p.code, error: p.error, deliveries: p.deliveries, permanent: p.permanent },
      'durable event parked in its dead-letter stream',
    );
  };
}
