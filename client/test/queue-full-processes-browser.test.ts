/**
 * 빠른 대전 while every table is taken (issue 37), with the services as separate processes on the real NATS,
 * Redis and PostgreSQL, as load-tests/scripts/measure-stack.sh runs them (matchmaker, room worker, gateway,
 * plus the lobby serving the built client): the same scenario as under `npm start`
 * (support/queue-full-scenario.ts). The fleet is one worker process with MAX_ROOMS=1 whose table a room opened
 * through the bus holds; the second worker that frees capacity is a second process.
 *
 * State: a namespace and a PostgreSQL schema of this file, removed in afterAll; processes stopped by pid.
 * Failure modes: a process that exits or never turns ready fails beforeAll with its output.
 */
import { randomBytes } from 'node:crypto';
import type { Browser } from 'playwright-core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBus, NatsBus, type Bus } from '@joke/bus';
import { connectRedis } from '@joke/stores';
import { call, contract } from '@joke/protocol';
import { DEV_JWT_SECRET } from '@joke/protocol/auth';
import { launchBrowser } from './support/browser.ts';
import { builtClient } from './support/stack.ts';
import { freePort, startService, type ServiceProcess } from './support/service-procs.ts';
import { quickMatchWhileFull } from './support/queue-full-scenario.ts';

const NATS_URL = process.env.NATS_URL || 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const PG_BASE = process.env.JOKE_TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const namespace = `qfp${randomBytes(4).toString('hex')}`;
const schema = `qfp_${randomBytes(4).toString('hex')}`;
/** What every process shares: the real broker and store, this file's namespace, the dev signing key. */
const common = { NATS_URL, REDIS_URL, JOKE_NAMESPACE: namespace, JWT_SECRET: DEV_JWT_SECRET };

const procs: ServiceProcess[] = [];
let browser: Browser;
let closeBrowser: (() => Promise<void>) | undefined;
let bus: Bus;
let url: string;

beforeAll(async () => {
  const [lobbyPort, gatewayPort] = [await freePort(), await freePort()];
  const [matchmaker, worker, gateway, lobby, launched] = await Promise.all([
    startService('matchmaker', common),
    startService('room-worker', { ...common, WORKER_ID: 'w0', SHARD: '0', MAX_ROOMS: '1', BOT_DELAY_MS: '60' }),
    startService('gateway', { ...common, GATEWAY_ID: 'g0', PORT: String(gatewayPort) }),
    startService('lobby', {
      ...common,
      PORT: String(lobbyPort),
      DATABASE_URL: `${PG_BASE}?schema=${schema}`,
      SERVE_CLIENT: 'true',
      CLIENT_DIR: builtClient(),
      PUBLIC_GATEWAY_URL: `ws://127.0.0.1:${gatewayPort}/ws`,
    }),
    launchBrowser(),
  ]);
  browser = launched.browser;
  closeBrowser = launched.close;
  procs.push(matchmaker, worker, gateway, lobby);
  bus = await createBus({ natsUrl: NATS_URL, namespace, name: 'queue-full-test' });
  url = `http://127.0.0.1:${lobbyPort}/?renderer=canvas`;
}, 240_000);

afterAll(async () => {
  await closeBrowser?.();
  await Promise.all(procs.map((p) => p.stop()));
  await bus?.close();
  // What the processes left on the shared servers (drop-namespace.ts does the same after measure-stack.sh).
  const nats = await NatsBus.connect(NATS_URL, { prefix: namespace });
  await nats.removeDurableStreams();
  await nats.close();
  const redis = await connectRedis(REDIS_URL);
  for await (const page of redis.scanIterator({ MATCH: `joke:${namespace}:*`, COUNT: 1000 }))
    if (page.length > 0) await redis.unlink(page);
  await redis.close();
  const db = new pg.Client({ connectionString: PG_BASE });
  await db.connect();
  await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).finally(() => db.end());
}, 60_000);

describe('빠른 대전 when the fleet is full, services as separate processes (issue 37)', () => {
  it('keeps both players queued with the full-fleet wait and seats them once a second worker process joins', async () => {
    // The only table the fleet has: a room nobody joins, opened the way the lobby opens rooms.
    const held = await call(
      bus,
      contract.createRoom,
      {
        v: 1,
        room: {
          roomId: 'holds-the-only-table',
          game: 'one-card',
          options: { mode: 'classic' },
          players: [
            { id: 'holder-1', name: '자리주인1', bot: false },
            { id: 'holder-2', name: '자리주인2', bot: false },
          ],
        },
      },
      10_000,
    );
    expect(held.ok).toBe(true);
    await quickMatchWhileFull({
      browser,
      url,
      shots: 'queue-full-processes',
      async addWorker() {
        const w1 = await startService('room-worker', { ...common, WORKER_ID: 'w1', SHARD: '1', BOT_DELAY_MS: '60' });
        procs.push(w1);
        return () => w1.stop();
      },
    });
  }, 240_000);
});
