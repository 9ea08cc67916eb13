/**
 * Bus requests that survive a room worker crash, and the worker liveness they
 * rely on (from worker heartbeats).
 */
import { ProtocolError, type RequestRoute } from '@joke/protocol';
import type { Wire } from '@joke/bus';
import { systemClock, type Clock, type Timer } from '@joke/bus/clock';
import type { Core } from './core.ts';

export interface Requester {
  /**
   * The decoded reply; null = gave up after retryBudgetMs (or the reply did not decode), or
   * `wanted()` turned false. `roomId` lets an attempt be abandoned when the room's owner dies.
   */
  request<Q, R>(
    route: RequestRoute<Q, R>,
    req: Q,
    op: string,
    roomId?: string,
    wanted?: () => boolean,
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
}

export function createRequester(core: Core, clock: Clock = systemClock): Requester {
  const { bus, cfg, metrics, log, reg } = core;

  /**
   * A request that survives a room worker crash: each attempt waits commandTimeoutMs; a timeout
   * or "no responders" (the room is being restored elsewhere) is retried with the same payload,
   * so the same actionId, with a short backoff until retryBudgetMs. null = gave up.
   *
   * `wanted` says whether anyone still waits for the answer (the socket is open and still in the
   * room): checked before every attempt, so a join to a room nobody serves stops being retried the
   * moment its socket leaves or closes instead of running out its budget (issue 10: 55–60 failed
   * requests per abandoned join, 150 such sockets took a gateway to 85 % CPU).
   */
  const requestWithRetry = async <Q, R>(
    route: RequestRoute<Q, R>,
    req: Q,
    op: string,
    roomId?: string,
    wanted: () => boolean = () => true,
  ): Promise<{ reply: R; tries: number } | null> => {
    const deadline = clock.now() + cfg.retryBudgetMs;
    // Encoded once: every retry carries the same bytes, so the same actionId.
    const data = route.request.encode(req);
    const subject = route.subject;
    metrics.requestsInFlight.inc({ op });
    try {
      return await attempts(route, data, subject, op, deadline, roomId, wanted);
    } finally {
      metrics.requestsInFlight.dec({ op });
    }
  };

  const attempts = async <Q, R>(
    route: RequestRoute<Q, R>,
    data: Wire,
    subject: string,
    op: string,
    deadline: number,
    roomId: string | undefined,
    wanted: () => boolean,
  ): Promise<{ reply: R; tries: number } | null> => {
    for (let tries = 1; ; tries++) {
      if (!wanted()) {
        metrics.requestsAbandoned.inc({ op });
        return null;
      }
      try {
        metrics.requests.inc({ op });
        const attempt = bus.request(subject, data, cfg.commandTimeoutMs);
        const raw = await (roomId === undefined ? attempt : unlessRoomLost(attempt, roomId));
        return { reply: route.reply.decode(raw), tries };
      } catch (err) {
        metrics.busErrors.inc({ op });
        if (err instanceof ProtocolError) {
          log.warn({ subject, err: err.message }, 'reply did not decode');
          return null;
        }
        if (tries === 1) log.debug({ subject, err: String(err) }, 'bus request failed, retrying');
        // The new owner has the room restored already (it just delivered from it): no backoff.
        if (err instanceof RoomMoved && !core.closing() && clock.now() < deadline) continue;
        // Capped low: the room usually reappears on another worker within DEAD_AFTER_MS, and every
        // ms of backoff past that moment adds to the resume pause (a "no responders" retry is cheap).
        const wait = Math.min(25 * 2 ** tries, 150);
        if (core.closing() || clock.now() + wait >= deadline) {
          log.warn({ subject, tries }, 'bus request gave up');
          return null;
        }
        await (roomId === undefined ? clock.sleep(wait) : backoff(wait, roomId));
      }
    }
  };

  /** Last heartbeat of each worker incarnation (`workerId/incarnation`), clock ms. */
  const workerSeenAt = new Map<string, number>();
  const silent = (owner: string | null | undefined): boolean => {
    const seen = owner ? workerSeenAt.get(owner) : undefined;
    return seen !== undefined && clock.now() - seen > cfg.ownerSilentMs;
  };
  /** Per room, what to tell each attempt in flight (or backing off) when the room is seen at a new owner. */
  const inFlight = new Map<string, Set<() => void>>();
  /** Calls `onMoved` on each move of the room until the returned function is called. */
  const watch = (roomId: string, onMoved: () => void): (() => void) => {
    let room = inFlight.get(roomId);
    if (!room) inFlight.set(roomId, (room = new Set()));
    const watching = room;
    watching.add(onMoved);
    return () => {
      watching.delete(onMoved);
      if (watching.size === 0 && inFlight.get(roomId) === watching) inFlight.delete(roomId);
    };
  };

  /**
   * The pause between attempts of a room request ("no responders" while the room is restored):
   * cut short when the room shows up at its new owner, which is the moment it can answer.
   */
  const backoff = (ms: number, roomId: string): Promise<void> =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clock.clearTimeout(timer);
        unwatch();
        resolve();
      };
      const timer = clock.setTimeout(wake, ms);
      const unwatch = watch(roomId, wake);
    });

  /**
   * A request in flight to a worker that has just died would otherwise wait out the whole
   * commandTimeoutMs (2 s). The attempt is abandoned — its late answer, if any, is ignored: the
   * retry carries the same bytes, so the same actionId, which the worker applies at most once —
   * the moment the room is seen at another owner (its restored copy delivers, or answers a join),
   * and retried at once. Fallback when no such sign arrives: the owner it was sent to misses its
   * heartbeats for ownerSilentMs. Checking the CURRENT owner's heartbeats instead missed every
   * failover found sooner than that (the matchmaker's ping finds a death in ≈ 0.1 s): the restored
   * room's first delivery had already made a live worker the owner.
   */
  const unlessRoomLost = <T>(attempt: Promise<T>, roomId: string): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const sentTo = reg.rooms.get(roomId)?.owner ?? null;
      let timer: Timer | null = null;
      const settle = () => {
        clock.clearTimeout(timer);
        timer = null;
        unwatch();
      };
      // An attempt sent before any owner was known has nobody to compare with: only the fallback applies.
      const onMoved = () => {
        const now = reg.rooms.get(roomId)?.owner ?? null;
        if (sentTo === null || now === null || now === sentTo) return;
        settle();
        reject(new RoomMoved(roomId, sentTo, now));
      };
      const unwatch = watch(roomId, onMoved);
      const check = () => {
        if (silent(sentTo ?? reg.rooms.get(roomId)?.owner)) {
          settle();
          reject(new Error('room owner stopped sending heartbeats'));
        } else timer = clock.setTimeout(check, 100);
      };
      timer = clock.setTimeout(check, 250);
      attempt.then(
        (v) => {
          settle();
          resolve(v);
        },
        (e) => {
          settle();
          reject(e);
        },
      );
    });

  return {
    request: requestWithRetry,
    workerSeen: (owner) => workerSeenAt.set(owner, clock.now()),
    roomMoved: (roomId) => {
      const waiting = inFlight.get(roomId);
      if (!waiting) return;
      log.info(
        { roomId, waiting: waiting.size },
        'room moved: its requests in flight or backing off go to the new owner now',
      );
      for (const moved of [...waiting]) moved();
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
