/**
 * Test harness: a lobby on a fresh PostgreSQL schema (or PGlite), served over
 * real HTTP, with tRPC clients that sign in like the Phaser client does, and
 * a stand-in matchmaker on the bus that records what it was asked.
 */
import type { Clock } from '@joke/bus/clock';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { pino } from 'pino';
import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import { InProcessBus, type Bus } from '@joke/bus';
import { bus as wire, contract, refuse, serve } from '@joke/protocol';
import type { AnyGame } from '@joke/engine';
import { createLobby, type AppRouter, type Lobby, type LobbyLimits, type PresenceLimits } from '../../src/index.ts';
import { countGame } from './count-game.ts';

export const PG_BASE = process.env.LOBBY_TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
export const JWT_SECRET = 'lobby-test-secret';

/** A schema no other run uses; `drop()` removes it with everything in it. */
export function uniqueSchema(label = 'lobby'): { url: string; schema: string; drop(): Promise<void> } {
  const schema = `${label}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  return {
    schema,
    url: `${PG_BASE}?schema=${schema}`,
    async drop() {
      const c = new pg.Client({ connectionString: PG_BASE });
      await c.connect();
      try {
        await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await c.end();
      }
    },
  };
}

export async function sql<T = Record<string, unknown>>(schema: string, text: string, params: unknown[] = []) {
  const c = new pg.Client({ connectionString: PG_BASE });
  await c.connect();
  try {
    await c.query(`SET search_path TO "${schema}"`);
    return (await c.query(text, params)).rows as T[];
  } finally {
    await c.end();
  }
}

export type Client = ReturnType<typeof clientFor>;

export function clientFor(url: string, token?: () => string | undefined) {
  return createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: `${url}/trpc`,
        headers: () => {
          const t = token?.();
          return t ? { authorization: `Bearer ${t}` } : {};
        },
      }),
    ],
  });
}

/** Matchmaker stand-in: answers createRoom like the real one and keeps every request. */
export class FakeMatchmaker {
  requests: wire.RoomSpec[] = [];
  reply: wire.CreateRoomReply = { ok: true, workerId: 'w-test', shard: 0 };
  private sub;
  constructor(bus: Bus) {
    this.sub = serve(
      bus,
      contract.createRoom,
      (req, respond) => {
        this.requests.push(req.room);
        respond(this.reply);
      },
      () => refuse('malformed'),
    );
  }
  close(): void {
    this.sub.unsubscribe();
  }
}

export interface Harness {
  lobby: Lobby;
  bus: Bus;
  url: string;
  mm: FakeMatchmaker;
  anon: Client;
  /** Signs in a guest and returns a client that sends its token. */
  guest(nickname: string): Promise<{ id: string; token: string; api: Client }>;
  close(): Promise<void>;
}

export async function startHarness(
  opts: {
    databaseUrl?: string;
    games?: Record<string, AnyGame>;
    startTimeoutMs?: number;
    limits?: Partial<LobbyLimits>;
    redisUrl?: string;
    namespace?: string;
    listCacheMs?: number;
    /** Share one bus between harnesses (replicas that hear each other); closed by whoever made it. */
    bus?: Bus;
    presence?: Partial<PresenceLimits>;
    clock?: Clock;
  } = {},
): Promise<Harness> {
  const bus = opts.bus ?? new InProcessBus();
  const lobby = await createLobby({
    bus,
    databaseUrl: opts.databaseUrl,
    jwtSecret: JWT_SECRET,
    log: pino({ level: process.env.LOBBY_TEST_LOG ?? 'silent' }),
    games: opts.games ?? { count: countGame },
    startTimeoutMs: opts.startTimeoutMs ?? 1000,
    limits: opts.limits,
    redisUrl: opts.redisUrl,
    namespace: opts.namespace,
    listCacheMs: opts.listCacheMs,
    presence: opts.presence,
    clock: opts.clock,
  });
  const server: Server = createServer(lobby.handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const mm = new FakeMatchmaker(bus);
  const anon = clientFor(url);
  return {
    lobby,
    bus,
    url,
    mm,
    anon,
    async guest(nickname) {
      const me = await anon.auth.guest.mutate({ nickname });
      return { id: me.userId, token: me.token, api: clientFor(url, () => me.token) };
    },
    async close() {
      mm.close();
      await new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      });
      await lobby.close();
      if (!opts.bus) await bus.close();
    },
  };
}

/** The Korean message and tRPC code of a rejected call. */
export async function failure(
  p: Promise<unknown>,
): Promise<{ code: string; message: string; issues: unknown; refusal?: string }> {
  try {
    await p;
  } catch (e) {
    if (e instanceof TRPCClientError) {
      const refusal = e.data?.refusal === undefined ? {} : { refusal: e.data.refusal as string };
      return { code: e.data?.code, message: e.message, issues: e.data?.issues, ...refusal };
    }
    throw e;
  }
  throw new Error('expected the call to fail');
}
