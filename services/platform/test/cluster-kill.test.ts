/**
 * Node losses on the real local cluster (scripts/cluster.sh: 3 nats-server in
 * one JetStream cluster, a Redis Cluster of 3 primaries + 3 replicas), started
 * once for this file: 2 gateways (uWebSockets.js, JWT), 3 room workers, 2
 * matchmakers and a lobby on PostgreSQL as processes, with SNAPSHOT_REPLICAS=1
 * and durable results replicated on the 3 NATS nodes. The bot swarm
 * (@joke/load-tests) plays 50 one-card tables over WebSockets, each table's 4
 * bots from sockets spread over both gateways. In turn:
 * SIGKILL the NATS node a worker is connected to; SIGKILL a Redis primary (its
 * replica is promoted, then the dead node is replaced by an empty replica);
 * SIGKILL the lobby while games end and start a new one. After each, every
 * table finishes, its record replays to the last frame its viewers were sent
 * and holds every action a bot had acknowledged, in order; every game is in
 * the PostgreSQL history exactly once; and the longest silence each table's
 * bots saw around the kill is printed (p50/p99/max).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { isDeepStrictEqual, promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalCluster, type LocalCluster } from '@joke/bus/local-cluster';
import { keySlot, type ClusterRedis } from '@joke/stores';
import { games, type GameRecord } from '@joke/engine';
import { DEV_JWT_SECRET } from '@joke/protocol/auth';
import { contract, listen } from '@joke/protocol';
import { runSwarm, type SwarmRun, type TableStats } from '@joke/load-tests';
import { Cluster, pct, replayFinished, until } from './cluster-harness.ts';

const run = promisify(execFile);
const game = games['one-card'];
const TABLES = 50;
const GATEWAYS = ['g1', 'g2'];
const WORKER_ENV = {
  // Seat substitutes (a bot that lost its socket for longer than the grace) play at this pace.
  BOT_DELAY_MS: '30',
  BOT_JITTER_MS: '30',
  FINISHED_LINGER_MS: '30000',
  SNAPSHOT_REPLICAS: '1',
  SNAPSHOT_REPLICA_TIMEOUT_MS: '500',
  JETSTREAM_REPLICAS: '3',
};
// No bot fill: under the suite's load a queue once waited past QUEUE_BOT_FILL_MS and tables started short of
// 4 swarm bots (56 tables for the 200 bots, where the checks below count 50). Every table is 4 swarm bots.
const MM_ENV = { WORKER_PROBE_MS: '50', QUEUE_BOT_FILL_MS: '0' };
const GATEWAY_ENV = {
  PORT: '0',
  JWT_SECRET: DEV_JWT_SECRET,
  // The swarm's 250 sockets come from one address.
  GATEWAY_MAX_SOCKETS_PER_IP: '0',
  // The lobby is killed in the third test: joins must not depend on it.
  GATEWAY_ROOM_ACCESS: 'open',
  // The test reads what the workers send these gateways by tapping their delivery subject (tapGateway); an
  // action's frames that ride on its reply (RoomCommand.framesInReply) are not on that subject. The frames
  // in the reply are tested under a lost attempt in services/gateway (protocol.test.ts, worker.test.ts).
  GATEWAY_FRAMES_IN_REPLY: '0',
};
const PG_BASE = process.env.LOBBY_TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const schema = `ck_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
const LOBBY_ENV = {
  DATABASE_URL: `${PG_BASE}?schema=${schema}`,
  PORT: '0',
  JETSTREAM_REPLICAS: '3',
  JWT_SECRET: DEV_JWT_SECRET,
};

let local: LocalCluster;
let c: Cluster;
let gatewayUrls: string[] = [];
let lobbies = 0;
/** The rooms each gateway was sent deliveries for. */
const servedBy = new Map(GATEWAYS.map((g) => [g, new Set<string>()]));
// A lobby start migrates a new schema and creates its durable consumers on the 3 NATS nodes: slow at load 30.
const startLobby = () => c.spawn(`lobby${++lobbies}`, 'lobby', LOBBY_ENV, 150_000);
const portOf = (out: string[]) => Number(/READY \S+ (\d+)/.exec(out.join(''))![1]);

beforeAll(async () => {
  local = await startLocalCluster();
  c = new Cluster({ natsUrl: local.natsUrls.join(','), redisClusterUrls: local.redisClusterUrls });
  await c.start();
  for (const g of GATEWAYS) {
    c.tapGateway(g);
    listen(c.bus, contract.gatewayDeliver.at(g), (d) => servedBy.get(g)!.add(d.roomId));
  }
  const [g1, g2] = await Promise.all([
    ...GATEWAYS.map((g) => c.spawn(g, 'gateway', { GATEWAY_ID: g, ...GATEWAY_ENV })),
    c.worker('w1', 1, WORKER_ENV),
    c.worker('w2', 2, WORKER_ENV),
    c.worker('w3', 3, WORKER_ENV),
    c.matchmaker('mm1', MM_ENV),
    c.matchmaker('mm2', MM_ENV),
    startLobby(),
  ]);
  gatewayUrls = [g1, g2].map((p) => `ws://127.0.0.1:${portOf(p.out)}/ws`);
  await until(() => ['w1', 'w2', 'w3'].every((w) => c.heartbeats.has(w)), 20_000, 'worker heartbeats');
  await c.matchmakersSee(['mm1', 'mm2'], 3);
}, 300_000);
afterAll(async () => {
  try {
    await c?.stop();
    const db = new pg.Client({ connectionString: PG_BASE });
    await db.connect();
    await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).finally(() => db.end());
  } finally {
    await local?.stop();
  }
}, 90_000);

interface Play {
  run: Promise<SwarmRun>;
  tables: () => ReadonlyMap<string, TableStats>;
}

/** 50 tables of swarm bots quick-match through both gateways; resolves once every table has shown some play. */
async function play(label: string): Promise<Play> {
  let tables: ReadonlyMap<string, TableStats> = new Map();
  const swarmRun = runSwarm(
    {
      url: gatewayUrls.join(','),
      auth: 'jwt-secret',
      jwtSecret: DEV_JWT_SECRET,
      game: 'one-card',
      mode: 'classic',
      players: 4,
      tables: TABLES,
      // Only a bound: the run ends once every table finished (untilFinished), inside the test's 300 s.
      duration: 260,
      think: { meanMs: 60 },
      rampMs: 1000,
      requeue: false,
      untilFinished: true,
      collectAcks: true,
      liveMs: 0,
      runId: `${c.ns}${label}`,
    },
    { observe: (t) => (tables = t), log: (line) => console.log(`[cluster-kill ${label}] ${line}`) },
  );
  // Every bot is at a table and every table has moved a few times, so what follows lands mid-game. 200 bots
  // sign in and quick-match through the cluster: on a quiet box in ≈ 5 s, far longer under the suite's own
  // load (≈ 30); the bound is wide and a timeout says how far they got.
  const seated = () => [...tables.values()].reduce((n, t) => n + t.bots.size, 0);
  await Promise.race([
    until(
      () => seated() >= TABLES * 4 && [...tables.values()].every((t) => t.lastSeq >= 3),
      150_000,
      () =>
        `play on every table (${seated()} of ${TABLES * 4} bots seated at ${tables.size} tables, ` +
        `${[...tables.values()].filter((t) => t.lastSeq >= 3).length} past their third step)`,
    ),
    swarmRun.then(() => {
      throw new Error('the swarm ended before every table was playing');
    }),
  ]);
  return { run: swarmRun, tables: () => tables };
}

/**
 * Every table finished; its record verifies and replays to its spectator's last frame; every action a bot had
 * acknowledged is in it, in order. Returns the run and how many recorded actions the bots never saw acknowledged.
 */
async function finishAndCheck(p: Play): Promise<{ run: SwarmRun; unacked: number }> {
  const run = await p.run;
  const ids = [...run.tables.keys()];
  expect(ids.length, JSON.stringify(run.report)).toBe(TABLES);
  expect(run.report.finished, JSON.stringify(run.report)).toBe(TABLES);
  await until(() => ids.every((id) => c.finished.has(id)), 30_000, 'every RoomFinished');
  // Each table's viewers sat on one gateway or both (quick-match mixes the bots of several slots); both carried many.
  for (const id of ids)
    expect(
      GATEWAYS.some((g) => servedBy.get(g)!.has(id)),
      id,
    ).toBe(true);
  for (const g of GATEWAYS) expect(ids.filter((id) => servedBy.get(g)!.has(id)).length, g).toBeGreaterThan(TABLES / 4);
  const bySeat = new Map<string, unknown[]>();
  for (const a of [...run.acks].sort((x, y) => x.seq - y.seq)) {
    const key = `${a.roomId} ${a.userId}`;
    bySeat.set(key, [...(bySeat.get(key) ?? []), a.action]);
  }
  let unacked = 0;
  for (const id of ids) {
    // The viewer sent the room's last frame: the replayed final state must be what they were shown.
    let last: { seq: number; viewer: string | null } = { seq: -1, viewer: null };
    for (const d of c.deliveries.get(id) ?? []) if (d.frame.t === 'view' && d.seq >= last.seq) last = d;
    const record = replayFinished(c, game, id, last.viewer);
    for (const userId of new Set(record.players.map((pl) => pl.id))) {
      const steps = record.actions
        .filter((s) => 'actor' in s && s.actor === userId)
        .map((s) => (s as { action: unknown }).action);
      const acked = bySeat.get(`${id} ${userId}`) ?? [];
      // The acknowledged actions are an ordered subsequence of the seat's recorded steps.
      let i = 0;
      for (const a of acked) {
        while (i < steps.length && !isDeepStrictEqual(steps[i], a)) i++;
        if (i >= steps.length) explainLoss(id, userId, a, record, run);
        i++;
      }
      unacked += steps.length - acked.length;
    }
  }
  return { run, unacked };
}

/**
 * An acknowledged action missing from its table's record: fails with what it takes to tell an order mix-up from
 * a loss — the seat's acknowledgements (seq, action), the table's recorded steps, and every line a process
 * printed about the table (fencing, failovers, bus losses; at the harness's warn level).
 */
function explainLoss(id: string, userId: string, missing: unknown, record: GameRecord, run: SwarmRun): never {
  const acks = run.acks
    .filter((a) => a.roomId === id)
    .sort((x, y) => x.seq - y.seq)
    .map((a) => `  #${a.seq} ${a.userId} ${a.actionId} ${JSON.stringify(a.action)}`);
  const steps = record.actions.map(
    (s, k) => `  ${k} ${'actor' in s ? `${s.actor} ${JSON.stringify(s.action)}` : 'timeout'} @${s.now}`,
  );
  const lines = [...c.procs.values()].flatMap((p) =>
    p.out
      .join('')
      .split('\n')
      .filter((l) => l.includes(id))
      .map((l) => `  [${p.name}] ${l}`),
  );
  throw new Error(
    [
      `${id} ${userId}: acknowledged ${JSON.stringify(missing)} is not in the record (in order)`,
      'acknowledgements at the table:',
      ...acks,
      'recorded steps:',
      ...steps,
      'process lines naming the table:',
      ...lines,
    ].join('\n'),
  );
}

/** Every game of `ids` is in the lobby's history exactly once. */
async function inHistoryOnce(ids: string[]) {
  const db = new pg.Client({ connectionString: PG_BASE });
  await db.connect();
  try {
    const rows = async () =>
      (await db.query(`SELECT id FROM "${schema}".games WHERE id = ANY($1)`, [ids])).rows.map((r) => r.id as string);
    await until(
      async () => {
        const have = new Set(await rows());
        return ids.every((id) => have.has(id));
      },
      60_000,
      'games recorded',
    );
    const got = await rows();
    expect(got.length).toBe(ids.length);
    expect(new Set(got)).toEqual(new Set(ids));
  } finally {
    await db.end();
  }
}

/** The longest silence of each table in [from, to] (performance.now() ms), as its bots saw it (seq advances). */
function pauses(run: SwarmRun, ids: string[], from: number, to: number): string {
  const gaps = ids.map((id) => {
    const at = run.tables
      .get(id)!
      .advances.map((a) => a.at)
      .filter((x) => x >= from && x <= to);
    let gap = 0;
    for (let i = 1; i < at.length; i++) gap = Math.max(gap, at[i] - at[i - 1]);
    return gap;
  });
  return `p50 ${pct(gaps, 50).toFixed(0)} ms, p99 ${pct(gaps, 99).toFixed(0)} ms, max ${Math.max(...gaps).toFixed(0)} ms`;
}

/** Which NATS node (index) each named client is connected to, from the nodes' monitoring /connz. */
async function natsNodeOf(name: string): Promise<number> {
  for (const [i, port] of local.natsPorts.entries()) {
    const r = await fetch(`http://127.0.0.1:${port + 20}/connz?limit=1000`).catch(() => null);
    const body = r && ((await r.json()) as { connections?: { name?: string }[] });
    if (body?.connections?.some((x) => x.name === name)) return i;
  }
  return -1;
}

/** The primary serving `key`'s slot, asked through any live node. */
async function primaryOf(key: string): Promise<number | null> {
  const slot = keySlot(key);
  for (const port of local.redisPorts) {
    const { stdout } = await run('redis-cli', ['-p', String(port), '--json', 'cluster', 'slots']).catch(() => ({
      stdout: '',
    }));
    if (!stdout) continue;
    const range = (JSON.parse(stdout) as [number, number, [string, number]][]).find(([a, b]) => slot >= a && slot <= b);
    if (range) return range[2][1];
  }
  return null;
}

const errors = (run: SwarmRun) => `swarm errors ${run.report.errors} ${JSON.stringify(run.report.errorKinds)}`;

describe('node losses on a local NATS + Redis cluster, under 50 tables of bots on 2 gateways', () => {
  it('SIGKILL of the NATS node a worker is connected to: the worker reconnects (or is failed over), nothing is lost', async () => {
    const p = await play('n');
    const mine = c.bus.nc.getServer();
    let victim = -1;
    for (const w of ['w1', 'w2', 'w3']) {
      const node = await natsNodeOf(w);
      if (node >= 0 && (victim < 0 || !mine.endsWith(`:${local.natsPorts[node]}`))) victim = node;
    }
    expect(victim).toBeGreaterThanOrEqual(0);
    const onVictim = (await Promise.all([...GATEWAYS, 'w1', 'w2', 'w3'].map(async (n) => [n, await natsNodeOf(n)])))
      .filter(([, node]) => node === victim)
      .map(([n]) => n);
    const at = performance.now();
    await local.killNats(victim);
    const { run, unacked } = await finishAndCheck(p);
    const ids = [...run.tables.keys()];
    console.log(
      `[cluster-kill] NATS node ${victim} SIGKILLed (connected to it: ${onVictim.join(', ')}): longest silence per table ` +
        `${pauses(run, ids, at - 1000, at + 10_000)}; recorded steps no bot saw acknowledged (a bot stops at its game's final view, so a winning move's later reply is not counted): ${unacked}; ${errors(run)}`,
    );
    await inHistoryOnce(ids);
  }, 300_000);

  it('SIGKILL of a Redis primary: its replica is promoted, acknowledged actions survive (SNAPSHOT_REPLICAS=1)', async () => {
    const p = await play('r');
    const ids = [...p.tables().keys()];
    const conn = c.conn as ClusterRedis;
    const key = (id: string) => `joke:${c.ns}:room:{${id}}:epoch`;
    const victim = conn.client.slots[keySlot(key(ids[0]))].master.port!;
    const onVictim = ids.filter((id) => conn.client.slots[keySlot(key(id))].master.port === victim);
    const at = performance.now();
    await local.killRedis(victim);
    let promoted = 0;
    await until(
      async () => {
        const pr = await primaryOf(key(ids[0]));
        if (pr !== null && pr !== victim) promoted = pr;
        return promoted !== 0;
      },
      60_000,
      'the replica to be promoted',
    );
    // With SNAPSHOT_REPLICAS=1 the promoted primary acknowledges nothing until it has a replica again.
    await local.replaceRedis(victim, promoted);
    const { run, unacked } = await finishAndCheck(p);
    // Writes and replica confirmations go per primary (redis-writes.ts), so only the tables on the dead primary
    // should pause for its failover; the others' silence stays at their normal pace.
    const others = ids.filter((id) => !onVictim.includes(id));
    console.log(
      `[cluster-kill] Redis primary ${victim} SIGKILLed: longest silence per table on it (${onVictim.length}) ` +
        `${pauses(run, onVictim, at - 1000, at + 30_000)}; on the other shards (${others.length}) ` +
        `${pauses(run, others, at - 1000, at + 30_000)}; recorded steps no bot saw acknowledged: ${unacked}; ${errors(run)}`,
    );
    await inHistoryOnce(ids);
  }, 300_000);

  it('SIGKILL of the lobby while games end: a new lobby records every one of them once', async () => {
    const p = await play('l');
    const ids = [...p.tables().keys()];
    const before = ids.filter((id) => c.finished.has(id)).length;
    await c.kill(`lobby${lobbies}`, 'SIGKILL');
    // Games end while no lobby is up: their results wait in the stream.
    await until(() => ids.filter((id) => c.finished.has(id)).length >= before + 10, 120_000, 'games ending');
    const ended = ids.filter((id) => c.finished.has(id)).length - before;
    await startLobby();
    const { run } = await finishAndCheck(p);
    console.log(`[cluster-kill] lobby SIGKILLed: ${ended} games ended while no lobby was up; ${errors(run)}`);
    await inHistoryOnce(ids);
  }, 300_000);
});
