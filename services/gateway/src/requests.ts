/**
 * Bus requests that survive a room worker crash, and the worker liveness they
 * rely on (from worker heartbeats). Retries are bounded twice: in time (each
 * request's GATEWAY_RETRY_BUDGET_MS) and in number (one RetryBudget for the
 * whole process: retries after a timeout ≤ GATEWAY_RETRY_RATIO of first
 * tries, plus a floor),
 * so a stalled worker cannot turn N player actions into N × attempts requests:
 * past the budget a request gives up at once (the client gets `unavailable`).
 */
import { ProtocolError, type RequestRoute } from '@joke/protocol';
import {
  BusNoRespondersError,
  BusTimeoutError,
  RetryBudget,
  SlotSet,
  backoffMs,
  type TraceHeaders,
  type Wire,
} from '@joke/bus';
import { systemClock, type Clock, type Timer } from '@joke/bus/clock';
import type { Core } from './core.ts';

export interface Requester {
  /**
   * The decoded reply; null = gave up after retryBudgetMs (or the reply did not decode), or
   * `wanted()` turned false. `roomId` lets an attempt be abandoned when the room's owner dies.
   * `arrived` sees the decoded reply synchronously as it comes off the bus (Bus.request), before
   * anything that came in after it; an error it throws is logged, the request still resolves.
   * `heard.someone` is set when an attempt failed other than by "no responders": something served the
   * subject but did not answer in time (a slow or dying worker), so a room request that gave up does not
   * mean there is no such room.
   * `headers` go with every attempt: a traced action's trace context (@joke/bus tracing.ts).
   */
  request<Q, R>(
    route: RequestRoute<Q, R>,
    req: Q,
    op: string,
    roomId?: string,
    wanted?: () => boolean,
    arrived?: (reply: R) => void,
    heard?: { someone: boolean },
    headers?: TraceHeaders,
  ): Promise<{ reply: R; tries: number } | null>;
  /** A heartbeat from `owner` (`workerId/incarnation`) arrived. */
  workerSeen(owner: string): void;
  /**
   * The room was just seen at a new owner (`reg.rooms`' owner already updated): attempts in flight
   * to its previous owner are abandoned and sent again at once.
   */
  roomMoved(roomId: string): void;
  /** Forgets workers gone for a minute (their rooms have long moved). */
  prune(): void;
  /** This process's retry budget (metrics, tests). */
  readonly budget: RetryBudget;
}

/** A room request's attempt in flight, until its reply, the room showing up at another owner, or its owner's silence. */
interface Attempt {
  roomId: string;
  /** The owner it went to (null: none known yet, so only the silence fallback applies). */
  sentTo: string | null;
  sentAt: number;
  fail: (err: Error) => void;
  /** Given up on because the room moved or its owner went silent (not a mere timeout). */
  abandoned?: boolean;
  /** Its place in `attempts` (SlotSet); -1 once out. */
  slot: number;
}

const always = (): boolean => true;
/** An attempt is first checked for a silent owner this long after it was sent, then at every sweep. */
const FIRST_CHECK_MS = 250;
const SWEEP_MS = 50;

export function createRequester(core: Core, clock: Clock = systemClock): Requester {
  const { bus, cfg, metrics, log, reg } = core;
  const budget = new RetryBudget({ ratio: cfg.retryRatio, floor: cfg.retryFloor });

  /**
   * A request that survives a room worker crash: each attempt waits commandTimeoutMs; a timeout
   * or "no responders" (the room is being restored elsewhere) is retried with the same payload,
   * so the same actionId, with a short backoff until retryBudgetMs. null = gave up.
   *
   * `wanted` says whether anyone still waits for the answer (the socket is open and still in the
   * room): checked before every attempt, so a join to a room nobody serves stops being retried the
   * moment its socket leaves or closes instead of running out its budget (issue 10: 55–60 failed
   * requests per abandoned join, 150 such sockets took a gateway to 85 % CPU).
   *
   * One async function, no closure of its own: this runs once per player action (issue 9: the
   * layers of promises, closures and a timer per attempt were ≈ 8 % of the gateway's busy samples).
   */
  const requestWithRetry = async <Q, R>(
    route: RequestRoute<Q, R>,
    req: Q,
    op: string,
    roomId?: string,
    wanted: () => boolean = always,
    arrived?: (reply: R) => void,
    heard?: { someone: boolean },
    headers?: TraceHeaders,
  ): Promise<{ reply: R; tries: number } | null> => {
    const deadline = clock.now() + cfg.retryBudgetMs;
    // Encoded once: every retry carries the same bytes, so the same actionId.
    const data = route.request.encode(req);
    const subject = route.subject;
    // Decoded as it arrives when someone must see it then (also a reply that comes after its attempt
    // timed out); a reply that does not decode is left to the decode after the await, which reports it.
    const onArrival = (raw: Wire, got: { reply?: R }): void => {
      let reply: R;
      try {
        reply = route.reply.decode(raw);
      } catch {
        return;
      }
      got.reply = reply;
      try {
        arrived!(reply);
      } catch (err) {
        log.error({ subject, err: String(err) }, 'reply handler failed');
      }
    };
    metrics.requestsInFlight.inc({ op });
    try {
      for (let tries = 1; ; tries++) {
        if (!wanted()) {
          metrics.requestsAbandoned.inc({ op });
          return null;
        }
        if (tries === 1) budget.first();
        try {
          metrics.requests.inc({ op });
          // Per attempt: a late reply to an earlier one is shown to `arrived` but never taken for this one's.
          const got: { reply?: R } = {};
          const seen = arrived && ((raw: Wire) => onArrival(raw, got));
          const raw = await (roomId === undefined
            ? bus.request(subject, data, cfg.commandTimeoutMs, seen, headers)
            : roomAttempt(subject, data, roomId, seen, headers));
          return { reply: got.reply ?? route.reply.decode(raw), tries };
        } catch (err) {
          metrics.busErrors.inc({ op });
          if (heard && !(err instanceof BusNoRespondersError)) heard.someone = true;
          if (err instanceof ProtocolError) {
            log.warn({ subject, err: err.message }, 'reply did not decode');
            return null;
          }
          if (tries === 1) log.debug({ subject, err: String(err) }, 'bus request failed, retrying');
          // The new owner has the room restored already (it just delivered from it): no backoff.
          if (err instanceof RoomMoved && !core.closing() && clock.now() < deadline) continue;
          // Capped low: the room usually reappears on another worker within DEAD_AFTER_MS, and every
          // ms of backoff past that moment adds to the resume pause (a "no responders" retry is cheap).
          // Jittered, so the requests of one stalled worker do not all come back at the same moment.
          const wait = backoffMs(tries, 50, 150);
          if (core.closing() || clock.now() + wait >= deadline) {
            log.warn({ subject, tries }, 'bus request gave up');
            return null;
          }
          // Only a retry after a timeout is budgeted: that is the one that adds work to a worker already too
          // slow to answer. "No responders" comes from the NATS server (the room is being restored elsewhere)
          // and a room that moved (above) is a redirect: retrying those loads no worker, and budgeting them
          // would turn a failover into `unavailable` for the players of the moved tables.
          if (err instanceof BusTimeoutError && !(err instanceof BusNoRespondersError) && !budget.tryRetry()) {
            metrics.retriesRefused.inc({ op });
            log.warn({ subject, tries }, 'bus request gave up: the retry budget is spent');
            return null;
          }
          await (roomId === undefined ? clock.sleep(wait) : backoff(wait, roomId));
        }
      }
    } finally {
      metrics.requestsInFlight.dec({ op });
    }
  };

  /** Last heartbeat of each worker incarnation (`workerId/incarnation`), clock ms. */
  const workerSeenAt = new Map<string, number>();
  const silent = (owner: string | null | undefined): boolean => {
    const seen = owner ? workerSeenAt.get(owner) : undefined;
    return seen !== undefined && clock.now() - seen > cfg.ownerSilentMs;
  };

  /**
   * A request in flight to a worker that has just died would otherwise wait out the whole
   * commandTimeoutMs (2 s). The attempt is abandoned — its late answer, if any, is ignored: the
   * retry carries the same bytes, so the same actionId, which the worker applies at most once —
   * the moment the room is seen at another owner (its restored copy delivers, or answers a join:
   * `roomMoved`), and retried at once. Fallback when no such sign arrives: the owner it was sent to
   * misses its heartbeats for ownerSilentMs (checked from FIRST_CHECK_MS after sending, by one sweep
   * of every attempt each SWEEP_MS rather than a timer per attempt). Checking the CURRENT owner's
   * heartbeats instead missed every failover found sooner than that (the matchmaker's ping finds a
   * death in ≈ 0.1 s): the restored room's first delivery had already made a live worker the owner.
   */
  // Not a Set: its rehashed tables would chain every attempt's promise to the next ones (@joke/bus slots.ts).
  const attempts = new SlotSet<Attempt>();
  let sweeper: Timer | null = null;
  const sweep = (): void => {
    if (attempts.size === 0) {
      clock.clearInterval(sweeper);
      sweeper = null;
      return;
    }
    const now = clock.now();
    for (const a of attempts.members())
      if (now - a.sentAt >= FIRST_CHECK_MS && silent(a.sentTo ?? reg.rooms.get(a.roomId)?.owner)) {
        attempts.delete(a);
        a.abandoned = true;
        a.fail(new Error('room owner stopped sending heartbeats'));
      }
  };
  const roomAttempt = (
    subject: string,
    data: Wire,
    roomId: string,
    arrived: ((raw: Wire) => void) | undefined,
    headers: TraceHeaders | undefined,
  ): Promise<Wire> =>
    new Promise<Wire>((resolve, reject) => {
      const a: Attempt = {
        roomId,
        sentTo: reg.rooms.get(roomId)?.owner ?? null,
        sentAt: clock.now(),
        fail: reject,
        slot: -1,
      };
      attempts.add(a);
      sweeper ??= clock.setInterval(sweep, SWEEP_MS);
      // An attempt abandoned because the room moved or its owner went silent must not hand the old owner's
      // late reply on (its owner would pass for the room's); one that merely timed out may.
      const seen = arrived && ((raw: Wire) => !a.abandoned && arrived(raw));
      bus.request(subject, data, cfg.commandTimeoutMs, seen, headers).then(
        (v) => {
          attempts.delete(a);
          resolve(v);
        },
        (e) => {
          attempts.delete(a);
          reject(e);
        },
      );
    });

  /** Per room, the backoffs to cut short when the room is seen at a new owner. */
  const backingOff = new Map<string, Set<() => void>>();
  /**
   * The pause between attempts of a room request ("no responders" while the room is restored):
   * cut short when the room shows up at its new owner, which is the moment it can answer.
   */
  const backoff = (ms: number, roomId: string): Promise<void> =>
    new Promise<void>((resolve) => {
      let room = backingOff.get(roomId);
      if (!room) backingOff.set(roomId, (room = new Set()));
      const waiting = room;
      const wake = () => {
        clock.clearTimeout(timer);
        waiting.delete(wake);
        if (waiting.size === 0 && backingOff.get(roomId) === waiting) backingOff.delete(roomId);
        resolve();
      };
      const timer = clock.setTimeout(wake, ms);
      waiting.add(wake);
    });

  return {
    budget,
    request: requestWithRetry,
    workerSeen: (owner) => workerSeenAt.set(owner, clock.now()),
    roomMoved: (roomId) => {
      const now = reg.rooms.get(roomId)?.owner ?? null;
      const moved: Attempt[] = [];
      for (const a of attempts.members())
        if (a.roomId === roomId && a.sentTo !== null && now !== null && now !== a.sentTo) moved.push(a);
      const waking = backingOff.get(roomId);
      if (moved.length === 0 && !waking) return;
      log.info(
        { roomId, waiting: moved.length + (waking?.size ?? 0) },
        'room moved: its requests in flight or backing off go to the new owner now',
      );
      for (const a of moved) {
        attempts.delete(a);
        a.abandoned = true;
        a.fail(new RoomMoved(roomId, a.sentTo!, now!));
      }
      if (waking) for (const wake of [...waking]) wake();
    },
    prune: () => {
      const cutoff = clock.now() - 60_000;
      for (const [w, at] of workerSeenAt) if (at < cutoff) workerSeenAt.delete(w);
    },
  };
}

/** The attempt's room was seen at another owner than the one it was sent to. */
class RoomMoved extends Error {
  constructor(roomId: string, from: string, to: string) {
    super(`room ${roomId} moved from ${from} to ${to}`);
    this.name = 'RoomMoved';
  }
}
