/**
 * Quick-match: a user waits in the queue of (game, mode, players) in the match
 * store; when enough wait, the oldest form a table, which is placed like any
 * room, and each player's gateway hears `matched`. A table that cannot start
 * goes back to the queue at its old place.
 */
import { randomBytes } from 'node:crypto';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { AnyGame } from '@joke/engine';
import { contract, emit, PROTOCOL_VERSION, refuse, type bus as wire } from '@joke/protocol';
import type { Bus, Logger, MatchStore } from '@joke/bus';
import type { MatchmakerConfig } from './config.ts';
import type { MatchmakerMetrics } from './metrics.ts';
import type { Placer } from './placer.ts';

export interface QueueHost {
  bus: Bus;
  match: MatchStore;
  games: Record<string, AnyGame>;
  cfg: MatchmakerConfig;
  metrics: MatchmakerMetrics;
  log: Logger;
  placer: Placer;
  /** Counts quick-match requests per user (issue 10); null = unlimited. Cancels are never counted. */
  queueLimiter: RateLimiterAbstract | null;
}

/** Answers the request (before any `matched`, so the client hears "queued" first), then starts a full table. */
export async function onQueue(
  h: QueueHost,
  q: wire.QueueRequest,
  respond: (r: wire.QueueReply) => void,
): Promise<void> {
  const { match, games, cfg, metrics: m, log } = h;
  try {
    if (q.cancel) {
      await match.dequeue(q.userId);
      return respond({ ok: true });
    }
    if (h.queueLimiter) {
      const allowed = await h.queueLimiter.consume(q.userId).then(
        () => true,
        (e: unknown) => {
          if (e instanceof RateLimiterRes) return false;
          throw e;
        },
      );
      if (!allowed) return respond(refuse('tooMany'));
    }
    // A client's string: `games['__proto__']` would be Object.prototype, not "no such game".
    const game = Object.hasOwn(games, q.game) ? games[q.game] : undefined;
    if (!game) return respond(refuse('unknownGame'));
    const parsed = game.optionsSchema.safeParse({ mode: q.mode });
    if (!parsed.success) return respond(refuse('badOptions', parsed.error.issues[0]?.message));
    const range = game.playerRange(parsed.data);
    if (q.players < range.min || q.players > range.max) return respond(refuse('players'));
    const key = `${q.game}:${q.mode}:${q.players}`;
    const table = await match.enqueue(
      key,
      { userId: q.userId, name: q.name, gatewayId: q.gatewayId, at: Date.now() },
      q.players,
      cfg.queueStaleMs,
    );
    respond({ ok: true });
    if (!table) return;
    const roomId = `q${randomBytes(9).toString('base64url')}`;
    const room: wire.RoomSpec = {
      roomId,
      game: q.game,
      options: { mode: q.mode },
      players: table.map((e) => ({ id: e.userId, name: e.name, bot: false })),
    };
    const r = await h.placer.place(roomId, { v: 1, roomId, create: room });
    if (!r.ok) {
      log.warn({ key, code: r.code }, 'quick-match table could not start; back in the queue');
      await match.requeue(key, table, cfg.queueStaleMs);
      return;
    }
    m.matched.inc();
    for (const e of table)
      emit(h.bus, contract.gatewayMatched.at(e.gatewayId), {
        v: PROTOCOL_VERSION,
        userId: e.userId,
        roomId,
        game: q.game,
        mode: q.mode,
      });
  } catch (err) {
    m.errors.inc({ kind: 'store' });
    log.error({ err }, 'queue request failed');
    respond(refuse('noWorkers'));
  }
}
