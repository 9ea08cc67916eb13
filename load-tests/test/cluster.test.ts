/**
 * The multi-process test: 2 gateways, 5 room workers and 2 matchmakers
 * as separate processes over the real NATS and Redis. 50 concurrent one-card
 * tables of swarm bots play to the end; then 50 more while the busiest worker
 * is killed with SIGKILL mid-game, three times, each once the previous kill's
 * tables resumed (5 workers, so two are always left): every table still
 * finishes, no acknowledged action is lost, and each kill's resume pause of the
 * affected tables is printed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDeepStrictEqual } from 'node:util';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { NatsBus } from '@joke/bus';
import { RedisSnapshotStore, connectRedis, type RedisClient } from '@joke/stores';
import { games, verifyRecord, type GameRecord } from '@joke/engine';
import { subjects, wireText } from '@joke/protocol';
import { quantile, round, runSwarm, type AckRecord, type SwarmRun, type TableStats } from '../src/index.ts';
import { startCluster, type Cluster, type Proc } from './cluster.ts';

const TABLES = 50;
const game = games['one-card'];
let cluster: Cluster;
let bus: NatsBus;
const records = new Map<string, GameRecord>();
/** roomId → workerId, from the rooms' leases (heartbeats carry counts only). */
const owner = new Map<string, string>();
let redis: RedisClient;
let store: RedisSnapshotStore;
/**
 * Workers killed one after the other in the kill test; two more than that run, so even the last kill's
 * tables are restored on two workers (on one, its restores queue up on one CPU and that round measures
 * the queue).
 */
const KILLS = 3;
const WORKERS = KILLS + 2;
/** Each matchmaker pings each worker every 50 ms (the default is 100), as the worker-level cluster test does. */
const CLUSTER_ENV = { WORKER_PROBE_MS: '50' };
let ownerTimer: NodeJS.Timeout;
const workersSeen = new Set<string>();
const log = (line: string) => process.stderr.write(`  ${line}\n`);
const tokenCache = join(mkdtempSync(join(tmpdir(), 'joke-tokens-')), 'tokens.json');
let firstIdentities = new Set<string>();
const cached = (): Record<string, { userId: string }> => JSON.parse(readFileSync(tokenCache, 'utf8'))[cluster.lobbyUrl];

beforeAll(async () => {
  cluster = await startCluster({ workers: WORKERS, matchmakers: 2, gateways: 2, lobby: true, env: CLUSTER_ENV });
  bus = await NatsBus.connect(cluster.natsUrl, { prefix: cluster.namespace });
  bus.subscribe(subjects.roomFinished, (m) => {
    const f = JSON.parse(wireText(m.data));
    records.set(f.roomId, f.record);
  });
  bus.subscribe(subjects.workerHeartbeat, (m) => {
    const hb = JSON.parse(wireText(m.data));
    workersSeen.add(hb.workerId);
  });
  redis = await connectRedis(cluster.redisUrl);
  store = new RedisSnapshotStore(redis, `joke:${cluster.namespace}`);
  let reading = false;
  ownerTimer = setInterval(() => {
    if (reading) return;
    reading = true;
    void Promise.all(
      [...workersSeen].map(async (w) => {
        for (const id of await store.ownedBy(w, 100_000)) owner.set(id, w);
      }),
    )
      .catch(() => {})
      .finally(() => (reading = false));
  }, 250);
  // Every worker has been heard from before tables are placed.
  for (let i = 0; i < 200 && workersSeen.size < WORKERS; i++) await new Promise((r) => setTimeout(r, 50));
  expect(workersSeen.size).toBe(WORKERS);
}, 240_000);

afterAll(async () => {
  clearInterval(ownerTimer);
  await redis?.close();
  await bus?.close();
  await cluster?.stop();
  rmSync(dirname(tokenCache), { recursive: true, force: true });
}, 60_000);

/** Every acknowledged action is in the room's final record, in acknowledgement order. */
function lostAcks(run: SwarmRun): string[] {
  const lost: string[] = [];
  const byRoom = new Map<string, AckRecord[]>();
  for (const a of run.acks) byRoom.set(a.roomId, [...(byRoom.get(a.roomId) ?? []), a]);
  for (const [roomId, acks] of byRoom) {
    const record = records.get(roomId);
    if (!record) {
      lost.push(`${roomId}: no record`);
      continue;
    }
    acks.sort((a, b) => a.seq - b.seq);
    let i = 0;
    for (const a of acks) {
      while (
        i < record.actions.length &&
        !(
          'actor' in record.actions[i] &&
          (record.actions[i] as any).actor === a.userId &&
          isDeepStrictEqual((record.actions[i] as any).action, a.action)
        )
      )
        i++;
      if (i === record.actions.length) lost.push(`${roomId}: ${a.actionId} (seq ${a.seq})`);
      else i++;
    }
  }
  return lost;
}

async function play(
  label: string,
  during?: (tables: ReadonlyMap<string, TableStats>) => Promise<void>,
  { thinkMs = 40, durationS = 150 } = {},
): Promise<SwarmRun> {
  let live: ReadonlyMap<string, TableStats> = new Map();
  const swarm = runSwarm(
    {
      url: cluster.gatewayUrls.join(','),
      // Bots sign in as guests through the lobby process, like browsers; the second run resumes the
      // identities of the first from the token cache instead of signing up 200 new guests.
      lobby: cluster.lobbyUrl,
      auth: 'guest',
      tokenCache,
      game: 'one-card',
      mode: 'classic',
      players: 4,
      tables: TABLES,
      duration: durationS,
      think: { meanMs: thinkMs },
      rampMs: 1000,
      untilFinished: true,
      collectAcks: true,
      liveMs: 5000,
    },
    { log: (line) => log(`${label} ${line}`), observe: (t) => (live = t) },
  );
  if (during) await during(live);
  const run = await swarm;
  // RoomFinished is published right after the last transition; give the bus a moment.
  for (let i = 0; i < 50 && [...run.tables.keys()].some((id) => !records.has(id)); i++)
    await new Promise((r) => setTimeout(r, 100));
  return run;
}

/**
 * The tables a run left unfinished, for a failure message: a table still moving when the swarm's time ran
 * out (a slow box) reads differently from one that stopped (its last transition long before the end).
 */
function unfinished(run: SwarmRun): string {
  const end = Math.max(...[...run.tables.values()].map((t) => t.lastSeqAt));
  return [...run.tables.values()]
    .filter((t) => t.finishedAt === null)
    .map(
      (t) =>
        `${t.roomId}: seq ${t.lastSeq}, last transition ${Math.round(end - t.lastSeqAt)} ms before the run's last, ${t.advances.length} advances, longest gap ${Math.round(t.maxGapMs)} ms`,
    )
    .join('; ');
}

/** Polls a condition (the swarm's live table stats, the heartbeats seen) until it holds. */
async function until(cond: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

interface KillRound {
  victim: string;
  proc: Proc;
  killedAt: number;
  affected: string[];
}

/** SIGKILLs the worker whose leases hold the most unfinished tables right now. */
async function killBusiest(tables: ReadonlyMap<string, TableStats>, k: number): Promise<KillRound> {
  const held = new Map<string, string[]>();
  await Promise.all(
    [...tables.values()]
      .filter((t) => t.finishedAt === null)
      .map(async (t) => {
        const lease = await store.lease(t.roomId);
        if (lease) held.set(lease.owner, [...(held.get(lease.owner) ?? []), t.roomId]);
      }),
  );
  const busiest = [...held.entries()].sort((a, b) => b[1].length - a[1].length)[0];
  if (!busiest) throw new Error(`kill ${k}: no live table left to kill a worker under (the games ended first)`);
  const [victim, affected] = busiest;
  const proc = cluster.workers.find((p) => victim === `${cluster.namespace}-w${p.name.slice('worker-'.length)}`)!;
  const killedAt = performance.now();
  proc.child.kill('SIGKILL');
  // The wall time lines this up with the services' logs (CLUSTER_LOG_DIR).
  log(
    `[kill] round ${k}: SIGKILL ${victim} (pid ${proc.child.pid}) holding ${affected.length} live tables at ${new Date().toISOString()}`,
  );
  return { victim, proc, killedAt, affected };
}

/** Each table's gap between its last delivery before the kill and its first after it: affected vs the others. */
function gaps(run: SwarmRun, r: KillRound): { pauses: number[]; normal: number[] } {
  const pauses: number[] = [];
  const normal: number[] = [];
  for (const [roomId, t] of run.tables) {
    const before = t.advances.filter((a) => a.at <= r.killedAt).pop();
    const after = t.advances.find((a) => a.at > r.killedAt);
    if (!before || !after) continue;
    (r.affected.includes(roomId) ? pauses : normal).push(after.at - before.at);
  }
  return { pauses, normal };
}

describe('2 gateways, 5 room workers, 2 matchmakers as separate processes', () => {
  it('50 concurrent one-card tables of swarm bots play to the end', async () => {
    // 240 s as the kill run has: at load 34 three of the 50 games were still going at 150 s (p50 0.36 s per action).
    const run = await play('[steady]', undefined, { durationS: 240 });
    log(`[steady] ${JSON.stringify(run.report)}`);
    // A run with errors says which service complained (the swarm sees only the code it was sent).
    if (run.report.errors > 0)
      for (const p of cluster.procs) for (const w of p.warnings.slice(-10)) log(`[steady] ${p.name}: ${w}`);
    // Taken before this test's checks: the kill test compares its sign-ins with these, not with a failure here.
    firstIdentities = new Set(Object.values(cached()).map((i) => i.userId));
    expect(run.report.tables).toBe(TABLES);
    expect(run.report.finished, unfinished(run)).toBe(TABLES);
    expect(run.report.errors).toBe(0);
    expect(lostAcks(run)).toEqual([]);
    for (const id of run.tables.keys()) expect(verifyRecord(game, records.get(id)!).ok).toBe(true);
    // Both gateways and every worker carried tables.
    expect(new Set([...run.tables.keys()].map((id) => owner.get(id))).size).toBe(WORKERS);
    // Every bot signed in through the lobby: 200 sign-ins, lobby-issued ids on the records' seats.
    expect(run.stats.total.hist.signin.totalCount).toBe(TABLES * 4);
    const players = new Set(run.acks.map((a) => a.userId));
    for (const id of players) expect(id).toMatch(/^u_[A-Za-z0-9]{16}$/);
    expect(firstIdentities.size).toBe(TABLES * 4);
    for (const id of players) expect(firstIdentities.has(id)).toBe(true);
  }, 270_000);

  it(`SIGKILL of the busiest worker ${KILLS} times in one run (5 workers, one after the other): every table finishes, no acknowledged action is lost, resume pause printed`, async () => {
    const rounds: KillRound[] = [];
    // Longer thinking than the steady run: the games must outlast three kill-and-resume rounds.
    const run = await play(
      '[kill]',
      async (tables) => {
        // Once every table is matched and under way. Alone this takes seconds; in a clean-clone suite on a
        // slow box (the browser tests beside it, 19 min in all) 60 s were not enough once, so the wait is
        // long and the kill rounds still fit in the swarm's 330 s and the test's 420 s.
        await until(
          () => tables.size === TABLES && [...tables.values()].every((t) => t.lastSeq >= 5 && owner.has(t.roomId)),
          120_000,
          'every table under way',
        );
        for (let k = 1; k <= KILLS; k++) {
          const round = await killBusiest(tables, k);
          rounds.push(round);
          // Its tables resumed elsewhere (each delivered a new seq since the kill, or finished); the next
          // kill follows at once, while the games are all still on.
          await until(
            () =>
              round.affected.every((id) => {
                const t = tables.get(id)!;
                return t.finishedAt !== null || t.lastSeqAt > round.killedAt;
              }),
            60_000,
            `the tables of ${round.victim} resuming`,
          );
        }
      },
      // The swarm stops at its duration (it ends sooner once every table finished): on a box loaded past 25
      // one table of 50 had not finished after 150 s, and at load 30 two of 50 were still playing, ≈ 0.8 s a
      // transition, after 240 s (clean-clone suite under two busy loops, 2026-12-06).
      { thinkMs: 80, durationS: 330 },
    );
    log(`[kill] ${JSON.stringify(run.report)}`);
    // Resume pause: for each table of the killed worker that was still playing, the gap between the last
    // delivery before the kill and the first one after it; the same gap on the other tables for comparison.
    const fmt = (xs: number[]) =>
      `n=${xs.length} p50 ${round(quantile(xs, 0.5))} ms, p99 ${round(quantile(xs, 0.99))} ms, max ${round(Math.max(0, ...xs))} ms`;
    const pooled = { pauses: [] as number[], normal: [] as number[] };
    for (const [k, r] of rounds.entries()) {
      const { pauses, normal } = gaps(run, r);
      log(`[kill] round ${k + 1}: ${r.victim} held ${r.affected.length} live tables: resume pause ${fmt(pauses)}`);
      log(`[kill] round ${k + 1}: same gap on the other tables (think time + latency): ${fmt(normal)}`);
      pooled.pauses.push(...pauses);
      pooled.normal.push(...normal);
    }
    log(
      `[kill] ${KILLS} kills pooled: resume pause of the killed workers' tables: ${fmt(pooled.pauses)} (target p99 < 500 ms; ping every ${CLUSTER_ENV.WORKER_PROBE_MS} ms)`,
    );
    log(`[kill] ${KILLS} kills pooled: same gap on the other tables: ${fmt(pooled.normal)}`);
    // Printed before the checks, so a failing run still shows its pauses.
    for (const r of rounds) expect(gaps(run, r).pauses.length).toBeGreaterThan(0);
    expect(rounds).toHaveLength(KILLS);
    // The second run resumed the first run's guests (token cache) instead of signing up new ones.
    expect(new Set(Object.values(cached()).map((i) => i.userId))).toEqual(firstIdentities);
    for (const a of run.acks) expect(firstIdentities.has(a.userId)).toBe(true);
    expect(run.report.tables).toBe(TABLES);
    expect(run.report.finished, unfinished(run)).toBe(TABLES);
    expect(run.report.errors).toBe(0);
    expect(lostAcks(run)).toEqual([]);
    for (const id of run.tables.keys()) expect(verifyRecord(game, records.get(id)!).ok).toBe(true);
    // Every affected table moved on again (it finished, checked above); the figure itself is printed, not asserted.
  }, 420_000);
});
