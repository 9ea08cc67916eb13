/**
 * tRPC setup: the request context (who is calling, from the Bearer token),
 * Korean validation messages, and per-procedure metrics.
 */
import { initTRPC, TRPCError, getTRPCErrorFromUnknown } from '@trpc/server';
import { ZodError } from 'zod';
import type { IncomingMessage } from 'node:http';
import type { Logger } from 'pino';
import type { PlayerClaims } from '@joke/protocol/auth';
import type { AnyGame } from '@joke/engine';
import type { Bus } from '@joke/bus';
import type { Clock } from '@joke/bus/clock';
import type { Db } from './db/open.ts';
import type { Raw } from './db/raw.ts';
import type { LobbyMetrics } from './metrics.ts';
import { MSG } from './messages.ts';
import { BusRefusal, ReplayRefusal } from './refused.ts';
import { clientIp } from './limits/ip.ts';
import type { LobbyLimits } from './limits/options.ts';
import type { LimitedAction, RateLimits } from './limits/rate.ts';
import type { RoomDirectory } from './rooms/directory.ts';
import type { TokenCache } from './token-cache.ts';
import type { PresenceBoard } from './rooms/presence.ts';
import type { RoomLifecycle } from './rooms/lifecycle.ts';

export interface LobbyDeps {
  db: Db;
  /** Hand-written statements for the hot paths (db/raw.ts), on the same connections as `db`. */
  raw: Raw;
  bus: Bus;
  games: Record<string, AnyGame>;
  jwtSecret: string;
  /** The operator credential of the fair-play view (routers/operator.ts); empty = that view refuses everyone. */
  operatorToken: string;
  tokenTtlSeconds: number;
  startTimeoutMs: number;
  log: Logger;
  metrics: LobbyMetrics;
  limits: LobbyLimits;
  rate: RateLimits;
  /** Users whose row this process wrote lately (rooms/store.ts ensureUserOnce). */
  seenUsers: Map<string, number>;
  /** Verified tokens until they expire. */
  tokens: TokenCache;
  /** The public room list in memory; room mutations mark it changed (see `timed`). */
  directory: RoomDirectory;
  /** Who is present in which room (rooms/presence.ts), and the rules applied to it. */
  presence: PresenceBoard;
  lifecycle: RoomLifecycle;
  clock: Clock;
}

export interface Context {
  deps: LobbyDeps;
  /** Raw bearer token, if any (auth.guest uses it to resume). */
  token: string | null;
  /** Verified claims, null if no token or a bad one. */
  claims: PlayerClaims | null;
  /** The token was present but did not verify. */
  badToken: boolean;
  /** Client address the per-address rate limits count (see limits/ip.ts). */
  ip: string;
}

export function bearer(req: Pick<IncomingMessage, 'headers'>): string | null {
  const h = req.headers.authorization;
  if (typeof h !== 'string') return null;
  const m = /^Bearer\s+(\S+)$/i.exec(h.trim());
  return m ? m[1] : null;
}

export async function createContext(
  deps: LobbyDeps,
  req: Pick<IncomingMessage, 'headers' | 'socket'>,
): Promise<Context> {
  const ip = clientIp(req, deps.limits.trustProxyHops);
  const token = bearer(req);
  if (!token) return { deps, token: null, claims: null, badToken: false, ip };
  try {
    return { deps, token, claims: await deps.tokens.verify(token), badToken: false, ip };
  } catch {
    return { deps, token, claims: null, badToken: true, ip };
  }
}

/** The first issue's message is what a player reads; every issue stays in `data.issues` for forms. */
function issuesOf(error: ZodError): { path: string; message: string }[] {
  return error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
}

/**
 * Stack traces (file paths, line numbers) reach clients only when NODE_ENV says
 * `development` or `test` explicitly: an unset NODE_ENV is treated as
 * production, because that is how a hand-started server usually runs.
 */
export const exposeErrorDetails = (env: NodeJS.ProcessEnv = process.env): boolean =>
  env.NODE_ENV === 'development' || env.NODE_ENV === 'test';

const isDev = exposeErrorDetails();

/** tRPC's own English messages for limits it enforces, in the player's language. */
function limitMessage(error: TRPCError): string | null {
  if (error.code === 'PAYLOAD_TOO_LARGE') return MSG.bodyTooLarge;
  if (error.code === 'BAD_REQUEST' && error.message === 'Batch call exceeds maximum size') return MSG.batchTooLarge;
  return null;
}

const t = initTRPC.context<Context>().create({
  isDev,
  errorFormatter({ shape, error }) {
    const { stack: _stack, ...data } = shape.data;
    const safe = isDev ? shape.data : data;
    const cause = error.cause;
    if (!(cause instanceof ZodError)) {
      // An unexpected failure's message may name tables, files or hosts: players get a fixed one.
      const message =
        limitMessage(error) ?? (!isDev && error.code === 'INTERNAL_SERVER_ERROR' ? MSG.internal : shape.message);
      const refusal = cause instanceof BusRefusal ? { refusal: cause.code } : {};
      const replay = cause instanceof ReplayRefusal ? { replay: cause.code } : {};
      return { ...shape, message, data: { ...safe, issues: null, ...refusal, ...replay } };
    }
    // tRPC's own input-validation error carries the zod JSON dump as its message: replace it.
    const message = error.message === cause.message ? (cause.issues[0]?.message ?? shape.message) : shape.message;
    return { ...shape, message, data: { ...safe, issues: issuesOf(cause) } };
  },
});

export const router = t.router;

/** What every call does after its procedure: room list and presence upkeep, metrics, the error log. */
function afterCall(
  ctx: Context,
  path: string,
  type: string,
  result: { ok: true; data: unknown } | { ok: false; error: TRPCError },
  end: (labels: { code: string }) => void,
): void {
  // Any room mutation may change what the list shows (a refused one changed nothing): its result says how.
  if (type === 'mutation' && result.ok && path.startsWith('rooms.')) {
    ctx.deps.directory.afterMutation(result.data);
    ctx.deps.lifecycle.touched(roomIdOf(result.data));
  }
  // A member's own call about their room is their presence in it (the waiting room asks every second).
  if (result.ok && path.startsWith('rooms.')) {
    const roomId = roomIdOf(result.data);
    if (ctx.claims && roomId) ctx.deps.presence.mark(roomId, ctx.claims.sub, ctx.deps.clock.now());
  }
  end({ code: result.ok ? 'OK' : result.error.code });
  if (!result.ok && result.error.code === 'INTERNAL_SERVER_ERROR')
    ctx.deps.log.error({ err: result.error.cause ?? result.error, path }, 'procedure failed');
}

const timed = t.middleware(async ({ ctx, path, type, next }) => {
  const end = ctx.deps.metrics.requestSeconds.startTimer({ path, type });
  const result = await next();
  afterCall(ctx, path, type, result, end);
  return result;
});

/**
 * `timed`, the sign-in check and, for `action`, the rate limits (the caller's address, then the
 * caller; limits/rate.ts) as one middleware: each tRPC middleware layer copies the call's options
 * and context a few times over, and nearly every call is an authed one (issue 15, item 7). A
 * refusal here is timed and counted with its code, as when these were three layers.
 */
const timedAuthed = (action?: Exclude<LimitedAction, 'guest'>) =>
  t.middleware(async ({ ctx, path, type, next }) => {
    const end = ctx.deps.metrics.requestSeconds.startTimer({ path, type });
    try {
      if (!ctx.claims)
        throw new TRPCError({ code: 'UNAUTHORIZED', message: ctx.badToken ? MSG.badToken : MSG.unauthenticated });
      if (action) {
        await ctx.deps.rate.hit(action, 'ip', ctx.ip);
        await ctx.deps.rate.hit(action, 'user', ctx.claims.sub);
      }
    } catch (cause) {
      const error = getTRPCErrorFromUnknown(cause);
      afterCall(ctx, path, type, { ok: false, error }, end);
      throw error;
    }
    const result = await next({ ctx: { user: { id: ctx.claims.sub, nickname: ctx.claims.name } } });
    afterCall(ctx, path, type, result, end);
    return result;
  });

function roomIdOf(data: unknown): string | null {
  const d = data as { roomId?: unknown; room?: { roomId?: unknown } } | null;
  const id = d && typeof d === 'object' ? (d.roomId ?? d.room?.roomId) : undefined;
  return typeof id === 'string' ? id : null;
}

export const publicProcedure = t.procedure.use(timed);

export const authedProcedure = t.procedure.use(timedAuthed());

/** An authed procedure whose calls count against the caller's address, then the caller, for `action`. */
export const rateLimitedProcedure = (action: Exclude<LimitedAction, 'guest'>) => t.procedure.use(timedAuthed(action));

export type AuthedContext = Context & { user: { id: string; nickname: string } };
