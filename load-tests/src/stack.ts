/**
 * A whole realtime stack in one process — gateways, room workers and a
 * matchmaker — over the in-process bus and memory stores, or over the real NATS
 * and Redis when their URLs are given. Used by the gateway/worker tests and to
 * measure the embedded configuration before `npm start` exists.
 */
import { randomBytes } from 'node:crypto';
import { pino, type Logger } from 'pino';
import { createClient } from 'redis';
import { createBus, type Bus } from '@joke/bus';
import { createStores, type Stores } from '@joke/stores';
import { startGateway, type Gateway } from '@joke/gateway';
import { startRoomWorker, type RoomWorker } from '@joke/room-worker';
import { startMatchmaker, type Matchmaker } from '@joke/matchmaker';
import { DEV_JWT_SECRET } from '@joke/protocol/auth';

export interface StackOptions {
  /** NATS URL; empty = in-process bus. */
  natsUrl?: string;
  /** Redis URL; empty = memory stores. */
  redisUrl?: string;
  /** Subject/key prefix; a fresh one per stack by default. */
  namespace?: string;
  workers?: number;
  gateways?: number;
  jwtSecret?: string;
  /** Gateway ports (0 = any free port). */
  port?: number;
  logger?: Logger;
  gatewayConfig?: Record<string, unknown>;
  workerConfig?: Record<string, unknown>;
}

export interface Stack {
  namespace: string;
  /** The bus shared by everything in the stack (one connection when over NATS). */
  bus: Bus;
  stores: Stores;
  gateways: Gateway[];
  workers: RoomWorker[];
  matchmaker: Matchmaker;
  urls: string[];
  close(): Promise<void>;
}

export async function startStack(opts: StackOptions = {}): Promise<Stack> {
  const namespace = opts.namespace ?? `stack-${randomBytes(4).toString('hex')}`;
  const log = opts.logger ?? pino({ level: 'warn' });
  const bus = await createBus({ natsUrl: opts.natsUrl ?? '', namespace, name: namespace });
  const stores = await createStores({ redisUrl: opts.redisUrl ?? '', namespace });
  const workers: RoomWorker[] = [];
  for (let i = 0; i < (opts.workers ?? 1); i++)
    workers.push(
      await startRoomWorker(
        { workerId: `${namespace}-w${i}`, shard: i, ...opts.workerConfig },
        { bus, store: stores.snapshots, log: log.child({ service: 'room-worker' }) },
      ),
    );
  const matchmaker = await startMatchmaker(
    // Every bot quick-matches from one address: the per-address budgets are for browsers (0 = off).
    { matchmakerId: `${namespace}-mm`, queueRatePerAddress: 0, queueTablesPerAddress: 0 },
    { bus, snapshots: stores.snapshots, match: stores.match, log: log.child({ service: 'matchmaker' }) },
  );
  const gateways: Gateway[] = [];
  for (let i = 0; i < (opts.gateways ?? 1); i++)
    gateways.push(
      await startGateway(
        {
          gatewayId: `${namespace}-g${i}`,
          port: opts.port ?? 0,
          jwtSecret: opts.jwtSecret ?? DEV_JWT_SECRET,
          // Every bot connects from 127.0.0.1: the per-address socket limit would cap a swarm at 256.
          maxSocketsPerIp: 0,
          ...opts.gatewayConfig,
        },
        { bus, logger: log.child({ service: 'gateway' }) },
      ),
    );
  // Placement needs the workers' first heartbeats.
  for (let i = 0; i < 100 && !matchmaker.ready(); i++) await new Promise((r) => setTimeout(r, 50));
  for (let i = 0; i < 100 && matchmaker.liveWorkers().length < workers.length; i++)
    await new Promise((r) => setTimeout(r, 50));
  return {
    namespace,
    bus,
    stores,
    gateways,
    workers,
    matchmaker,
    urls: gateways.map((g) => `ws://127.0.0.1:${g.port}/ws`),
    close: async () => {
      for (const g of gateways) await g.close();
      await matchmaker.close();
      for (const w of workers) await w.close();
      await bus.close();
      await stores.close();
      // The namespace is this stack's alone: leave nothing of it in Redis.
      if (opts.redisUrl) {
        const redis = createClient({ url: opts.redisUrl });
        await redis.connect();
        for await (const keys of redis.scanIterator({ MATCH: `joke:${namespace}:*`, COUNT: 500 }))
          if (keys.length > 0) await redis.del(keys);
        await redis.close();
      }
    },
  };
}
