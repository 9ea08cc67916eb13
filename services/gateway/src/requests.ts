/**
 * Bus requests that survive a room worker crash, and the worker liveness they
 * rely on (from worker heartbeats). Retries are bounded twice: in time (each
 * request's GATEWAY_RETRY_BUDGET_MS) and in number (a RetryBudget per
 * priority for the whole process: retries after a timeout ≤ GATEWAY_RETRY_RATIO
 * of first tries, plus a floor), so a stalled worker cannot turn N player
 * actions into N × attempts requests: past the budget a request gives up at
 * once, and says why (`GaveUp`).
 *
 * Two priorities, two budgets (issue 37): the commands of tables already
 * playing (and a re-join after a room moved) spend one; admission — a
 * client's join, a quick-match request: new work — spends the other, earned
 * by its own first tries. A storm of joins at an overloaded fleet (every
 * refused player joining again every second or two) therefore never spends
 * the retries a playing table's command needs. Callers turn an admission
 * request given up on a worker too slow to answer into a refusal with code
 * `capacity` (membership.ts, client.ts): shed load, counted, not an error.
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
import type { Clock, Timer } from '@joke/bus/clock';
import type { Logger } from 'pino';
import type { Bus } from '@joke/bus';
import type { GatewayConfig } from './config.ts';
import type { GatewayMetrics } from './metrics.ts';

export interface RequesterOptions {
  bus: Bus;
  cfg: Pick<GatewayConfig, 'commandTimeoutMs' | 'retryBudgetMs' | 'retryRatio' | 'retryFloor' | 'ownerSilentMs'>;
  metrics: GatewayMetrics;
  log: Logger;
  clock: Clock;
  /** The room's owner as this gateway last saw it (Registry.ownerOf): where an attempt is going. */
  ownerOf(roomId: string): string | null;
  /** The gateway is closing: no more retries. */
  closing(): boolean;
}

/** One request's options beyond its route and payload. */
export interface RequestOptions<R> {
  /** The metrics' `op` label. */
  op: string;
  /** A room request: an attempt is abandoned when the room's owner dies or the room moves. */
  roomId?: string;
  /** Whether anyone still waits for the answer, checked before every attempt (default: always). */
  wanted?: () => boolean;
  /**
   * Sees the decoded reply synchronously as it comes off the bus (Bus.request), before anything that came
   * in after it; an error it throws is logged, the request still resolves.
   */
  arrived?: (reply: R) => void;
  /**
   * Set when an attempt failed other than by "no responders": something served the subject but did not
   * answer in time (a slow or dying worker), so a room request that gave up does not mean there is no such room.
   */
  heard?: { someone: boolean };
  /** Go with every attempt: a traced action's trace context (@joke/bus tracing.ts). */
  headers?: TraceHeaders;
  /**
   * New work (a client's join, a quick-match request), not a playing table's: its retries come from the
   * admission budget, so they never spend the commands' (see the file's header).
   */
  admission?: boolean;
  /** Told why the request gave up, when it returns null. */
  outcome?: Outcome;
}

/**
 * How a request that returned null ended: why it gave up, and `slow`: its last attempt reached a worker (or
 * matchmaker) that did not answer in time — an overloaded one, not a dead one (an attempt abandoned on its
 * owner's silence or a room move) nor a missing one ("no responders").
 */
export interface Outcome {
  gaveUp?: GaveUp;
  slow?: boolean;
}

/**
 * Why a request gave up: `budget`, a timed-out attempt found its retry budget spent; `deadline`, its
 * GATEWAY_RETRY_BUDGET_MS ran out; `closing`, the gateway is closing; `unwanted`, nobody waits any more;
 * `malformed`, the reply did not decode.
 */
export type GaveUp = 'budget' | 'deadline' | 'closing' | 'unwanted' | 'malformed';

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

/**
 * Why a join (or quick match) not answered `ok` is refused for load (`capacity`), or null when it is not:
 * the worker refused it `capacity` or `busy` (its room's queue full), or the worker (matchmaker) was too
 * slow — its last attempt timed out there — when the retry budget or the request's time ran out.
 */
export function shedReason(
  reply: { ok: true } | { ok: false; code: string } | null,
  outcome: Outcome,
): 'capacity' | 'busy' | 'budget' | 'deadline' | null {
  if (reply !== null) return !reply.ok && (reply.code === 'capacity' || reply.code === 'busy') ? reply.code : null;
  const { gaveUp, slow } = outcome;
  return slow === true && (gaveUp === 'budget' || gaveUp === 'deadline') ? gaveUp : null;
}

const always = (): boolean => true;
/** An attempt is first checked for a silent owner this long after it was sent, then at every sweep. */
const FIRST_CHECK_MS = 250;
const SWEEP_MS = 50;

export class Requester {
  /** This process's retry budget for the commands of playing tables and all but admission (metrics, tests). */
  readonly budget: RetryBudget;
  /** This process's retry budget for admission: clients' joins and quick-match requests. */
  readonly admissionBudget: RetryBudget;
  /** Last heartbeat of each worker incarnation (`workerId/incarnation`), clock ms. */
  private readonly workerSeenAt = new Map<string, number>();
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
  private readonly attempts = new SlotSet<Attempt>();
  private sweeper: Timer | null = null;
  /** Per room, the backoffs to cut short when the room is seen at a new owner. */
  private readonly backingOff = new Map<string, Set<() => void>>();

  constructor(private readonly o: RequesterOptions) {
    this.budget = new RetryBudget({ ratio: o.cfg.retryRatio, floor: o.cfg.retryFloor });
    this.admissionBudget = new RetryBudget({ ratio: o.cfg.retryRatio, floor: o.cfg.retryFloor });
  }

  /**
   * A request that survives a room worker crash: each attempt waits commandTimeoutMs; a timeout
   * or "no responders" (the room is being restored elsewhere) is retried with the same payload,
   * so the same actionId, with a short backoff until retryBudgetMs. null = gave up (or the reply
   * did not decode), or `wanted()` turned false.
   *
   * `wanted` says whether anyone still waits for the answer (the socket is open and still in the
   * room): checked before every attempt, so a join to a room nobody serves stops being retried the
   * moment its socket leaves or closes instead of running out its budget (issue 10: 55–60 failed
   * requests per abandoned join, 150 such sockets took a gateway to 85 % CPU).
   *
   * One async method, no closure of its own: this runs once per player action (issue 9: the
   * layers of promises, closures and a timer per attempt were ≈ 8 % of the gateway's busy samples).
   */
  async request<Q, R>(
    route: RequestRoute<Q, R>,
    req: Q,
    opts: RequestOptions<R>,
  ): Promise<{ reply: R; tries: number } | null> {
    const { bus, cfg, clock, log, metrics } = this.o;
    const { op, roomId, arrived, heard, headers, outcome } = opts;
    const wanted = opts.wanted ?? always;
    const budget = opts.admission ? this.admissionBudget : this.budget;
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
          if (outcome) outcome.gaveUp = 'unwanted';
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
            : this.roomAttempt(subject, data, seen, opts));
          return { reply: got.reply ?? route.reply.decode(raw), tries };
        } catch (err) {
          metrics.busErrors.inc({ op });
          if (heard && !(err instanceof BusNoRespondersError)) heard.someone = true;
          if (outcome) outcome.slow = err instanceof BusTimeoutError && !(err instanceof BusNoRespondersError);
          if (err instanceof ProtocolError) {
            log.warn({ subject, err: err.message }, 'reply did not decode');
            if (outcome) outcome.gaveUp = 'malformed';
            return null;
          }
          if (tries === 1) log.debug({ subject, err: String(err) }, 'bus request failed, retrying');
          // The new owner has the room restored already (it just delivered from it): no backoff.
          if (err instanceof RoomMoved && !this.o.closing() && clock.now() < deadline) continue;
          // Capped low: the room usually reappears on another worker within DEAD_AFTER_MS, and every
          // ms of backoff past that moment adds to the resume pause (a "no responders" retry is cheap).
          // Jittered, so the requests of one stalled worker do not all come back at the same moment.
          const wait = backoffMs(tries, 50, 150);
          if (this.o.closing() || clock.now() + wait >= deadline) {
            // An admission request given up is counted by its caller as a refusal: a warning each, at 3× the
            // box's capacity, was tens of thousands of log lines of load more.
            if (opts.admission) log.debug({ subject, tries }, 'bus request gave up');
            else log.warn({ subject, tries }, 'bus request gave up');
            if (outcome) outcome.gaveUp = this.o.closing() ? 'closing' : 'deadline';
            return null;
          }
          // Only a retry after a timeout is budgeted: that is the one that adds work to a worker already too
          // slow to answer. "No responders" comes from the NATS server (the room is being restored elsewhere)
          // and a room that moved (above) is a redirect: retrying those loads no worker, and budgeting them
          // would turn a failover into `unavailable` for the players of the moved tables.
          if (err instanceof BusTimeoutError && !(err instanceof BusNoRespondersError) && !budget.tryRetry()) {
            metrics.retriesRefused.inc({ op });
            if (opts.admission) log.debug({ subject, tries }, 'bus request gave up: the retry budget is spent');
            else log.warn({ subject, tries }, 'bus request gave up: the retry budget is spent');
            if (outcome) outcome.gaveUp = 'budget';
            return null;
          }
          await (roomId === undefined ? clock.sleep(wait) : this.backoff(wait, roomId));
        }
      }
    } finally {
      metrics.requestsInFlight.dec({ op });
    }
  }

  /** A heartbeat from `owner` (`workerId/incarnation`) arrived. */
  workerSeen(owner: string): void {
    this.workerSeenAt.set(owner, this.o.clock.now());
  }

  /**
   * The room was just seen at a new owner (its route's owner already updated): attempts in flight
   * to its previous owner are abandoned and sent again at once.
   */
  roomMoved(roomId: string): void {
    const now = this.o.ownerOf(roomId);
    const moved: Attempt[] = [];
    for (const a of this.attempts.members())
      if (a.roomId === roomId && a.sentTo !== null && now !== null && now !== a.sentTo) moved.push(a);
    const waking = this.backingOff.get(roomId);
    if (moved.length === 0 && !waking) return;
    this.o.log.info(
      { roomId, waiting: moved.length + (waking?.size ?? 0) },
      'room moved: its requests in flight or backing off go to the new owner now',
    );
    for (const a of moved) {
      this.attempts.delete(a);
      a.abandoned = true;
      a.fail(new RoomMoved(roomId, a.sentTo!, now!));
    }
    if (waking) for (const wake of [...waking]) wake();
  }

  /** Forgets workers gone for a minute (their rooms have long moved). */
  prune(): void {
    const cutoff = this.o.clock.now() - 60_000;
    for (const [w, at] of this.workerSeenAt) if (at < cutoff) this.workerSeenAt.delete(w);
  }

  private silent(owner: string | null): boolean {
    const seen = owner ? this.workerSeenAt.get(owner) : undefined;
    return seen !== undefined && this.o.clock.now() - seen > this.o.cfg.ownerSilentMs;
  }

  private readonly sweep = (): void => {
    if (this.attempts.size === 0) {
      this.o.clock.clearInterval(this.sweeper);
      this.sweeper = null;
      return;
    }
    const now = this.o.clock.now();
    for (const a of this.attempts.members())
      if (now - a.sentAt >= FIRST_CHECK_MS && this.silent(a.sentTo ?? this.o.ownerOf(a.roomId))) {
        this.attempts.delete(a);
        a.abandoned = true;
        a.fail(new Error('room owner stopped sending heartbeats'));
      }
  };

  /** One attempt of a room request (`opts.roomId` set), tracked until its reply or its owner's death. */
  private roomAttempt<R>(
    subject: string,
    data: Wire,
    arrived: ((raw: Wire) => void) | undefined,
    opts: RequestOptions<R>,
  ): Promise<Wire> {
    const roomId = opts.roomId!;
    const headers = opts.headers;
    return new Promise<Wire>((resolve, reject) => {
      const { bus, cfg, clock } = this.o;
      const a: Attempt = { roomId, sentTo: this.o.ownerOf(roomId), sentAt: clock.now(), fail: reject, slot: -1 };
      this.attempts.add(a);
      this.sweeper ??= clock.setInterval(this.sweep, SWEEP_MS);
      // An attempt abandoned because the room moved or its owner went silent must not hand the old owner's
      // late reply on (its owner would pass for the room's); one that merely timed out may.
      const seen = arrived && ((raw: Wire) => !a.abandoned && arrived(raw));
      bus.request(subject, data, cfg.commandTimeoutMs, seen, headers).then(
        (v) => {
          this.attempts.delete(a);
          resolve(v);
        },
        (e) => {
          this.attempts.delete(a);
          reject(e);
        },
      );
    });
  }

  /**
   * The pause between attempts of a room request ("no responders" while the room is restored):
   * cut short when the room shows up at its new owner, which is the moment it can answer.
   */
  private backoff(ms: number, roomId: string): Promise<void> {
    return new Promise<void>((resolve) => {
      const { clock } = this.o;
      let room = this.backingOff.get(roomId);
      if (!room) this.backingOff.set(roomId, (room = new Set()));
      const waiting = room;
      const wake = () => {
        clock.clearTimeout(timer);
        waiting.delete(wake);
        if (waiting.size === 0 && this.backingOff.get(roomId) === waiting) this.backingOff.delete(roomId);
        resolve();
      };
      const timer = clock.setTimeout(wake, ms);
      waiting.add(wake);
    });
  }
}

/** The attempt's room was seen at another owner than the one it was sent to. */
class RoomMoved extends Error {
  constructor(roomId: string, from: string, to: string) {
    super(`room ${roomId} moved from ${from} to ${to}`);
    this.name = 'RoomMoved';
  }
}
