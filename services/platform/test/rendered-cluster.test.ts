/**
 * Issue 38, cluster mode end to end from values: helm/joke-app/ci/cluster-values.yaml is rendered with an
 * overlay that only points its external addresses (nats.url, redis.clusterUrls, redis.url, postgresql.url) at
 * loopback servers — scripts/cluster.sh's 3-node JetStream cluster and Redis Cluster, a Redis of this test for
 * the lobby's counters, a schema of its own on the shared PostgreSQL — and makes the replica counts small.
 * Each rendered hook Job, then each pod of each Deployment and StatefulSet, runs its rendered command from
 * source (`node --import tsx services/<svc>/src/…`) with exactly its rendered env (Secrets read from the
 * rendered Secret, the pod's name and index as Kubernetes would give them) plus PATH; only what one host
 * forces is overridden (OVERRIDES, each said why). 20 tables of the swarm then play through the gateway
 * with guest sign-in at the lobby: all seated, actions taken, no error; the durable streams sit on all
 * three servers at the replica count from values. A second, cheaper part runs the bundled cluster
 * (ci/bundled-cluster-values.yaml): its rendered nats.conf on three local servers and its joke-streams Job.
 *
 * State: a cluster, servers and processes of this file only, stopped by pid in afterAll (cluster.sh stop).
 * Failure modes: a process that exits or never turns ready fails beforeAll with its output; the swarm's
 * error kinds and the services' warnings are printed when the run is not clean.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { z } from 'zod';
import { startLocalCluster, type LocalCluster } from '@joke/bus/local-cluster';
import { runSwarm, type SwarmRun } from '@joke/load-tests';
import { render, ROOT, type K8sObject } from './support/helm.ts';
import { freePort, ownRedis, until, type OwnedServer } from './support/procs.ts';
import { hookJobs, podsOf, runBundledNats, runJob, startPod, type Pod } from './support/rendered-pods.ts';

const CHART = join(ROOT, 'helm/joke-app');
const TABLES = 20;
const PG_BASE = process.env.LOBBY_TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';

/**
 * The only env the test changes, by service: everything else is the chart's.
 * - PORT, OPS_PORT: every pod listens on the same ports in its own network namespace; here two room
 *   workers (and any other test) share one host, so each process gets free ports.
 * - QUEUE_RATE_PER_ADDRESS, QUEUE_TABLES_PER_ADDRESS: the per-address quick-match budgets are for browsers;
 *   every bot of the swarm comes from 127.0.0.1 (0 = off).
 * - LOBBY_RATE_GUEST_PER_IP: 80 bots sign in as guests from one address within seconds, past the 60 a
 *   minute allowed to one browser address (0 = off).
 */
const TEST_SWITCHES: Record<string, Record<string, string>> = {
  matchmaker: { QUEUE_RATE_PER_ADDRESS: '0', QUEUE_TABLES_PER_ADDRESS: '0' },
  lobby: { LOBBY_RATE_GUEST_PER_IP: '0' },
};

/** The streams a NATS server holds (its monitoring /jsz), with their configured replica counts. */
const jsz = z.object({
  account_details: z
    .array(
      z.object({
        stream_detail: z
          .array(z.object({ name: z.string(), config: z.object({ num_replicas: z.number() }) }))
          .optional(),
      }),
    )
    .optional(),
});
async function streamsOn(monitorPort: number): Promise<{ name: string; replicas: number }[]> {
  const body = await fetch(`http://127.0.0.1:${monitorPort}/jsz?streams=true&config=true`).then((r) => r.json());
  return (jsz.parse(body).account_details ?? []).flatMap((a) =>
    (a.stream_detail ?? []).map((d) => ({ name: d.name, replicas: d.config.num_replicas })),
  );
}

let local: LocalCluster | undefined;
let lobbyRedis: OwnedServer | undefined;
const schema = `rc${randomBytes(4).toString('hex')}`;
const pods: Pod[] = [];
let docs: K8sObject[];
const workDir = mkdtempSync(join(tmpdir(), 'rendered-cluster-'));

const envOf = (component: string) =>
  pods.find((p) => p.component === component)!.env as Readonly<Record<string, string>>;

beforeAll(async () => {
  [local, lobbyRedis] = await Promise.all([startLocalCluster(), ownRedis()]);
  const overlay = join(workDir, 'loopback-values.yaml');
  // JSON is YAML. Addresses and replica counts only: every other value is cluster-values.yaml's.
  writeFileSync(
    overlay,
    JSON.stringify({
      nats: { url: local.natsUrls.join(',') },
      redis: { clusterUrls: local.redisClusterUrls.join(','), url: lobbyRedis.url },
      postgresql: { url: `${PG_BASE}?schema=${schema}` },
      roomWorker: { replicas: 2 },
      matchmaker: { replicas: 1 },
      gateway: { replicas: 1 },
      lobby: { replicas: 1 },
    }),
  );
  docs = render(CHART, [join(CHART, 'ci/cluster-values.yaml'), overlay]);
  // As helm would: the post-install hooks (the joke-streams Job when the chart makes one) before the services.
  for (const job of hookJobs(docs)) await runJob(job, 120_000);
  const starting: Promise<Pod>[] = [];
  for (const spec of podsOf(docs)) {
    const ports = { PORT: String(await freePort()), OPS_PORT: String(await freePort()) };
    // Only the ports the chart sets are moved (the matchmaker and the workers have no public port).
    const moved = Object.fromEntries(Object.entries(ports).filter(([k]) => k in spec.env));
    starting.push(startPod(spec, { ...moved, ...TEST_SWITCHES[spec.component] }));
  }
  const settled = await Promise.allSettled(starting);
  for (const s of settled) if (s.status === 'fulfilled') pods.push(s.value);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  // Every pod is ready (startPod waits for /readyz); the matchmaker must also count both workers before any bot asks.
  await until(
    async () => {
      const text = await fetch(`${pods.find((p) => p.component === 'matchmaker')!.opsUrl}/metrics`).then(
        (r) => r.text(),
        () => '',
      );
      return /^joke_matchmaker_live_workers(?:\{[^}]*\})? 2$/m.test(text);
    },
    // 60 s ran out once with the suite's four lanes and two busy loops on 2 cores (alone: ≈ 1 s).
    180_000,
    'the matchmaker to see both room workers',
  );
}, 300_000);

afterAll(async () => {
  try {
    await Promise.all(pods.map((p) => p.stop()));
    await lobbyRedis?.close();
    const db = new pg.Client({ connectionString: PG_BASE });
    await db.connect();
    await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).finally(() => db.end());
  } finally {
    await local?.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
}, 90_000);

describe('cluster mode from ci/cluster-values.yaml, every process on its rendered env', () => {
  it('starts room-worker ×2, matchmaker, gateway and lobby on the loopback clusters', () => {
    expect(pods.map((p) => p.component).sort()).toEqual([
      'gateway',
      'lobby',
      'matchmaker',
      'room-worker',
      'room-worker',
    ]);
    // Named as their pods would be: the StatefulSet's by ordinal (WORKER_ID and SHARD come from them).
    expect(pods.filter((p) => p.component === 'room-worker').map((p) => [p.env.WORKER_ID, p.env.SHARD])).toEqual([
      ['joke-joke-app-room-worker-0', '0'],
      ['joke-joke-app-room-worker-1', '1'],
    ]);
    // The rendered env is the cluster's: every NATS server, every Redis seed, streams and snapshots replicated.
    const worker = envOf('room-worker');
    expect(worker.NATS_URL.split(',')).toEqual(local!.natsUrls);
    expect(worker.REDIS_CLUSTER_URLS.split(',')).toEqual(local!.redisClusterUrls);
    expect(worker).toMatchObject({ JETSTREAM_REPLICAS: '3', SNAPSHOT_REPLICAS: '1', NODE_ENV: 'production' });
    expect(envOf('lobby').REDIS_URL).toBe(lobbyRedis!.url);
  });

  it(`plays ${TABLES} tables of the swarm through the gateway with no error`, async () => {
    const gateway = pods.find((p) => p.component === 'gateway')!;
    const lobby = pods.find((p) => p.component === 'lobby')!;
    const run: SwarmRun = await runSwarm(
      {
        url: `ws://127.0.0.1:${gateway.env.PORT}/ws`,
        lobby: `http://127.0.0.1:${lobby.env.PORT}/trpc`,
        auth: 'guest',
        tokenCache: join(workDir, 'tokens.json'),
        game: 'one-card',
        mode: 'classic',
        players: 4,
        tables: TABLES,
        // A bound, not a wait: the run ends once every table finished.
        duration: 150,
        think: { meanMs: 60 },
        rampMs: 1000,
        untilFinished: true,
        liveMs: 0,
      },
      { log: (line) => console.log(`[rendered-cluster] ${line}`) },
    );
    console.log(`[rendered-cluster] ${JSON.stringify(run.report)}`);
    if (run.report.errors > 0 || run.report.seated < TABLES)
      for (const p of pods) console.error(`[${p.name}] warnings:\n${p.warnings().join('\n')}`);
    expect(run.report.seated, JSON.stringify(run.report)).toBeGreaterThanOrEqual(TABLES);
    expect(run.report.actions, JSON.stringify(run.report)).toBeGreaterThan(0);
    expect(run.report.errors, JSON.stringify(run.report.errorKinds)).toBe(0);
    expect(run.report.warmupErrors, JSON.stringify(run.report.errorKinds)).toBe(0);
  }, 240_000);

  it('the durable streams sit on all three servers at the replica count from values', async () => {
    const want = Number(envOf('lobby').JETSTREAM_REPLICAS);
    expect(want).toBe(3);
    // cluster.sh: NATS monitoring ports are the client ports + 20 (its header).
    for (const port of local!.natsPorts) {
      const streams = await streamsOn(port + 20);
      expect(
        streams.map((s) => s.name),
        `server on ${port}`,
      ).toContain('EV_joke_v1_room_finished');
      for (const s of streams) expect(s.replicas, s.name).toBe(want);
    }
  });
});

describe('the bundled NATS cluster of ci/bundled-cluster-values.yaml', () => {
  it('its rendered nats.conf forms a 3-server JetStream cluster and its joke-streams Job makes the streams at 3', async () => {
    const bundled = render(CHART, [join(CHART, 'ci/bundled-cluster-values.yaml')]);
    const servers = await runBundledNats(bundled, workDir);
    try {
      const [job] = hookJobs(bundled);
      expect(job.env.JETSTREAM_REPLICAS).toBe('3');
      await runJob({ ...job, env: { ...job.env, NATS_URL: servers.clientUrls(job.env.NATS_URL) } }, 120_000);
      for (const port of servers.monitorPorts) {
        const streams = await streamsOn(port);
        expect(streams.length, `server monitored on ${port}`).toBeGreaterThanOrEqual(6);
        for (const s of streams) expect(s.replicas, s.name).toBe(3);
      }
    } finally {
      await servers.stop();
    }
  }, 180_000);
});
