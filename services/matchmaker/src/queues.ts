/**
 * Quick-match: a user waits in the queue of (game, mode, players) in the match
 * store; when enough wait, the oldest form a table, which is placed like any
 * room, and each player's gateway hears `matched`. A table that cannot start
 * goes back to the queue at its old place. Waiting users hear the queue's size,
 * and bots fill a queue that waited long enough (queue-watch.ts).
 *
 * Budgets (budgets.ts, issue 36): each request counts against its user and its
 * client address, and each table started against the addresses at it. A table
 * that finds an address spent seats nobody: that address's users leave the
 * queue and hear why (a `queueStatus` carrying the refusal), the others go
 * back to their places. A store failure answers `noWorkers`, never a hang.
 */
import { randomBytes, randomInt } from 'node:crypto';
import type { AnyGame } from '@joke/engine';
import { contract, emit, PROTOCOL_VERSION, REFUSALS, refuse, type bus as wire } from '@joke/protocol';
import type { Bus } from '@joke/bus';
import type { Logger } from '@joke/ops';
import type { MatchStore, QueueEntry } from '@joke/stores';
import type { Clock } from '@joke/bus/clock';
import type { QueueBudgets } from './budgets.ts';
import type { MatchmakerConfig } from './config.ts';
import type { MatchmakerMetrics } from './metrics.ts';
import type { Placer } from './placer.ts';
import { botSeats, queueKey, type QueueKey, type QueueWatch, type TableStart } from './queue-watch.ts';

export interface QueueHost {
  bus: Bus;
  match: MatchStore;
  games: Record<string, AnyGame>;
  cfg: MatchmakerConfig;
  metrics: MatchmakerMetrics;
  log: Logger;
  placer: Placer;
  /** Per-user and per-address request rates and tables per address (budgets.ts); cancels are never counted. */
  budgets: QueueBudgets;
  /** Stamps each entry's place in line and times the bot fill (queue-watch.ts). */
  clock: Clock;
  /** Queue-size announcements and bot fill (queue-watch.ts). */
  watch: QueueWatch;
}
export type QueueBase = Omit<QueueHost, 'watch'>;

/** How long a quick-match request's id is remembered: far past any gateway's retry budget. */
const REQUEST_MEMORY_MS = 5 * 60_000;

/** Answers the request (before any `matched`, so the client hears "queued" first), then starts a full table. */
export async function onQueue(
  h: QueueHost,
  q: wire.QueueRequest,
  respond: (r: wire.QueueReply) => void,
): Promise<void> {
  const { match, games, cfg, metrics: m, log } = h;
  const params = { game: q.game, mode: q.mode, players: q.players };
  try {
    if (q.cancel) {
      await match.dequeue(q.userId);
      respond({ ok: true });
      return await h.watch.changed(params);
    }
    const over = await h.budgets.admit(q.userId, q.addr);
    if (over) {
      m.refused.inc({ code: over });
      return respond(refuse(over));
    }
    // A client's string: `games['__proto__']` would be Object.prototype, not "no such game".
    const game = Object.hasOwn(games, q.game) ? games[q.game] : undefined;
    if (!game) return respond(refuse('unknownGame'));
    const parsed = game.optionsSchema.safeParse({ mode: q.mode });
    if (!parsed.success) return respond(refuse('badOptions', parsed.error.issues[0]?.message));
    const range = game.playerRange(parsed.data);
    if (q.players < range.min || q.players > range.max) return respond(refuse('players'));
    const key = queueKey(params);
    const base = {
      userId: q.userId,
      name: q.name,
      gatewayId: q.gatewayId,
      at: h.clock.now(),
      ...(q.addr === undefined ? {} : { addr: q.addr }),
    };
    const entry = q.bots === false ? { ...base, bots: false } : base;
    const { requestId } = q;
    const { queueStaleMs: stale, queueGatewayHoldMs: hold } = cfg;
    // A full fleet (no worker with headroom): the player joins the line and no table is taken out of it,
    // to be refused and put back on every request; the line's timer seats it once a worker has room again
    // (QueueWatch.seatHeld), and the statuses say `full` meanwhile.
    // The room is held from here until the table was tried (placer.reserve): requests that arrive meanwhile
    // see the fleet as fuller by it, so many at once cannot each take a table out for the same last room.
    const room = h.placer.reserve();
    if (!room) h.watch.tried(key, 'fleetFull');
    const players = room ? q.players : 0;
    try {
      // A retry of a request some replica already carried out (its reply was late, the gateway tried again):
      // that one queued the user, maybe seated them already, and queueing them again would seat them twice.
      // The store takes the id and the entry in one step, so a request that failed there is carried out anew.
      const table =
        requestId === undefined
          ? await match.enqueue(key, entry, players, stale, hold)
          : await match.enqueueRequest(requestId, REQUEST_MEMORY_MS, key, entry, players, stale, hold);
      respond({ ok: true });
      if (table === 'repeat') return;
      if (table) h.watch.tried(key, await startTable(h, key, params, table, 0));
    } finally {
      if (room) h.placer.release();
    }
    await h.watch.changed(params);
  } catch (err) {
    m.errors.inc({ kind: 'store' });
    log.error({ err }, 'queue request failed');
    respond(refuse('noWorkers'));
  }
}

/**
 * Places a table of `humans` (queue order) and `bots` bot seats and tells each human's gateway;
 * a table that cannot start goes back to the queue (`fleetFull` when no worker had headroom).
 */
export async function startTable(
  h: QueueBase,
  key: string,
  q: QueueKey,
  humans: QueueEntry[],
  bots: number,
): Promise<TableStart> {
  const roomId = `q${randomBytes(9).toString('base64url')}`;
  const room: wire.RoomSpec = {
    roomId,
    game: q.game,
    options: { mode: q.mode },
    // Public tables seat players in a random order (issue 40): queueing right after a friend must not put
    // you beside them, and nobody picks a seat. Poker shuffles its seats again from the game's seed.
    players: shuffled([...humans.map((e) => ({ id: e.userId, name: e.name, bot: false })), ...botSeats(roomId, bots)]),
  };
  const addrs = [...new Set(humans.flatMap((e) => (e.addr === undefined ? [] : [e.addr])))];
  // The humans are out of the queue now: a budget store failing in some unexpected way (an outage is
  // already covered by the in-memory insurance counters) must not lose them, so it lets the table start.
  const charge = await h.budgets.chargeTable(addrs).catch((err: unknown) => {
    h.log.warn({ err, key }, 'table budget unavailable; starting the table uncounted');
    return { ok: true as const };
  });
  if (!charge.ok) {
    await turnAway(h, key, q, humans, new Set(charge.spent));
    return 'notStarted';
  }
  const r = await h.placer.place(roomId, { v: 1, roomId, create: room });
  if (!r.ok) {
    h.log.warn({ key, code: r.code }, 'quick-match table could not start; back in the queue');
    await h.budgets.refund(addrs).catch((err: unknown) => h.log.warn({ err }, 'table budget refund failed'));
    await h.match.requeue(key, humans, h.cfg.queueStaleMs);
    return r.code === 'capacity' ? 'fleetFull' : 'notStarted';
  }
  h.metrics.matched.inc({ gateways: new Set(humans.map((e) => e.gatewayId)).size > 1 ? 'several' : 'one' });
  for (const e of humans)
    emit(h.bus, contract.gatewayMatched.at(e.gatewayId), {
      v: PROTOCOL_VERSION,
      userId: e.userId,
      roomId,
      game: q.game,
      mode: q.mode,
    });
  return 'started';
}

/** Fisher–Yates with the OS's CSPRNG: a quick-match table's seat order. */
function shuffled<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

/**
 * A table met an address with no tables left: its users leave the queue (each gateway hears a status
 * carrying the refusal, and stops waiting), everyone else goes back to their old place.
 */
async function turnAway(h: QueueBase, key: string, q: QueueKey, humans: QueueEntry[], spent: Set<string>) {
  const away = humans.filter((e) => e.addr !== undefined && spent.has(e.addr));
  const back = humans.filter((e) => !away.includes(e));
  h.log.warn({ key, addresses: spent.size, users: away.length }, 'quick-match table refused: address spent its tables');
  h.metrics.refused.inc({ code: 'addressTables' }, away.length);
  if (back.length > 0) await h.match.requeue(key, back, h.cfg.queueStaleMs);
  for (const e of away)
    emit(h.bus, contract.gatewayQueueStatus.at(e.gatewayId), {
      v: PROTOCOL_VERSION,
      userId: e.userId,
      ...q,
      waiting: 0,
      botsAt: null,
      refused: { ok: false, code: 'addressTables', reason: REFUSALS.addressTables },
    });
}
