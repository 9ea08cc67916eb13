/**
 * Node losses on the real local cluster (scripts/cluster.sh: 3 nats-server in
 * one JetStream cluster, a Redis Cluster of 3 primaries + 3 replicas), started
 * once for this file: 3 room workers, 2 matchmakers and a lobby on PostgreSQL
 * as processes, with SNAPSHOT_REPLICAS=1 and durable results replicated on the
 * 3 NATS nodes. The test plays one gateway. In turn, under 50 tables of bots
 * (10 with a seat played from the test): SIGKILL the NATS node a worker is
 * connected to; SIGKILL a Redis primary (its replica is promoted, then the dead
 * node is replaced by an empty replica); SIGKILL the lobby while games end and
 * start a new one. After each, every table finishes, its record replays and
 * holds every acknowledged action, every game is in the PostgreSQL history
 * exactly once, and the longest silence players saw is printed (p50/p99/max).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalCluster, type LocalCluster } from '@joke/bus/local-cluster';
import { keySlot, type ClusterRedis } from '@joke/bus';
import { games } from '@joke/engine';
import { Cluster, HumanSeat, replayFinished, until } from './cluster-harness.ts';

const run = promisify(execFile);
const game = games['one-card'];
const TABLES = 50;
const WORKER_ENV = {
  BOT_DELAY_MS: '30',
  BOT_JITTER_MS: '30',
  FINISHED_LINGER_MS: '30000',
  SNAPSHOT_REPLICAS: '1',
  SNAPSHOT_REPLICA_TIMEOUT_MS: '500',
  JETSTREAM_REPLICAS: '3',
};
const MM_ENV = { WORKER_PROBE_MS: '50' };
const PG_BASE = process.env.LOBBY_TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const schema = `ck_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
const LOBBY_ENV = { DATABASE_URL: `${PG_BASE}?schema=${schema}`, PORT: '0', JETSTREAM_REPLICAS: '3' };

let local: LocalCluster;
let c: Cluster;
let lobbies = 0;
const startLobby = () => c.spawn(`lobby${++lobbies}`, 'lobby', LOBBY_ENV);

beforeAll(async () => {
  local = await startLocalCluster();
  c = new Cluster({ natsUrl: local.natsUrls.join(','), redisClusterUrls: local.redisClusterUrls });
  await c.start();
  await Promise.all([
    c.worker('w1', 1, WORKER_ENV),
    c.worker('w2', 2, WORKER_ENV),
    c.worker('w3', 3, WORKER_ENV),
    c.matchmaker('mm1', MM_ENV),
    c.matchmaker('mm2', MM_ENV),
    startLobby(),
  ]);
  await until(() => ['w1', 'w2', 'w3'].every((w) => c.heartbeats.has(w)), 20_000, 'worker heartbeats');
  // The matchmakers hear the same heartbeats; wait until they have surely heard all three.
  const t = Date.now();
  await until(() => Date.now() - t > 1200, 5_000, 'one more heartbeat period');
}, 180_000);
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

const bots = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `bot${i}`, name: `봇${i}`, bot: true }));

async function startTables(prefix: string) {
  const ids: string[] = [];
  const seats: HumanSeat[] = [];
  await Promise.all(
    Array.from({ length: TABLES }, async (_, i) => {
      const roomId = `${prefix}${i}`;
      const human = i < 10;
      const players = human ? [{ id: `human-${i}`, name: '사람', bot: false }, ...bots(3)] : bots(4);
      await c.createRoom(roomId, players, { mode: i % 2 === 0 ? 'classic' : 'uno-style' });
      ids.push(roomId);
      await c.join(roomId, 'watcher', true);
      if (human) {
        await c.join(roomId, `human-${i}`, false);
        seats.push(new HumanSeat(c, roomId, `human-${i}`));
      }
    }),
  );
  const running = seats.map((s) => s.run());
  // Every table has shown some play, so what follows lands mid-game.
  await until(() => ids.every((id) => (c.deliveries.get(id)?.length ?? 0) > 3), 60_000, 'play on every table');
  return { ids, seats, running };
}

/** Every table finished; its record verifies and replays; every acknowledged action is in it, in order. */
async function finishAndCheck(t: Awaited<ReturnType<typeof startTables>>): Promise<number> {
  let extra = 0;
  await until(() => t.ids.every((id) => c.finished.has(id)), 120_000, 'every table finished');
  for (const s of t.seats) s.stop();
  await Promise.all(t.running);
  for (const id of t.ids) {
    const record = replayFinished(c, game, id);
    const seat = t.seats.find((s) => s.roomId === id);
    if (seat) {
      const mine = record.actions
        .filter((s) => 'actor' in s && s.actor === seat.userId)
        .map((s) => JSON.stringify((s as { action: unknown }).action));
      // Acknowledged = applied: exactly the acknowledged actions, in order. A worker cut off and failed over
      // holds its rooms until its leases are checked after the reconnect (room-worker reconnect.ts), so it
      // cannot refuse from stale state an action the new owner applied.
      extra += mine.length - seat.acked.length;
      expect(mine, `${id}: the player's steps are the acknowledged actions`).toEqual(
        seat.acked.map((a) => JSON.stringify(a.action)),
      );
    }
  }
  return extra;
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

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

/** The longest silence of each table in [from, to] (performance.now() ms), as its watcher saw it. */
function pauses(ids: string[], from: number, to: number): string {
  const gaps = ids.map((id) => {
    const at = c.deliveries
      .get(id)!
      .map((d) => d.at)
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

describe('node losses on a local NATS + Redis cluster, under 50 tables of bots', () => {
  it('SIGKILL of the NATS node a worker is connected to: the worker reconnects (or is failed over), nothing is lost', async () => {
    const t = await startTables('n');
    const mine = c.bus.nc.getServer();
    let victim = -1;
    for (const w of ['w1', 'w2', 'w3']) {
      const node = await natsNodeOf(w);
      if (node >= 0 && (victim < 0 || !mine.endsWith(`:${local.natsPorts[node]}`))) victim = node;
    }
    expect(victim).toBeGreaterThanOrEqual(0);
    const at = performance.now();
    await local.killNats(victim);
    const refusedButApplied = await finishAndCheck(t);
    console.log(
      `[cluster-kill] NATS node ${victim} SIGKILLed: longest silence per table ${pauses(t.ids, at - 1000, at + 10_000)}; ` +
        `actions applied although the player was told they were refused: ${refusedButApplied}`,
    );
    await inHistoryOnce(t.ids);
  }, 300_000);

  it('SIGKILL of a Redis primary: its replica is promoted, acknowledged actions survive (SNAPSHOT_REPLICAS=1)', async () => {
    const t = await startTables('r');
    const conn = c.conn as ClusterRedis;
    const key = (id: string) => `joke:${c.ns}:room:{${id}}:epoch`;
    const victim = conn.client.slots[keySlot(key(t.ids[0]))].master.port!;
    const onVictim = t.ids.filter((id) => conn.client.slots[keySlot(key(id))].master.port === victim);
    const at = performance.now();
    await local.killRedis(victim);
    let promoted = 0;
    await until(
      async () => {
        const p = await primaryOf(key(t.ids[0]));
        if (p !== null && p !== victim) promoted = p;
        return promoted !== 0;
      },
      60_000,
      'the replica to be promoted',
    );
    // With SNAPSHOT_REPLICAS=1 the promoted primary acknowledges nothing until it has a replica again.
    await local.replaceRedis(victim, promoted);
    await finishAndCheck(t);
    // Writes and replica confirmations go per primary (redis-writes.ts), so only the tables on the dead primary
    // should pause for its failover; the others' silence stays at their normal pace.
    const others = t.ids.filter((id) => !onVictim.includes(id));
    console.log(
      `[cluster-kill] Redis primary ${victim} SIGKILLed: longest silence per table on it (${onVictim.length}) ` +
        `${pauses(onVictim, at - 1000, at + 30_000)}; on the other shards (${others.length}) ` +
        `${pauses(others, at - 1000, at + 30_000)}`,
    );
    await inHistoryOnce(t.ids);
  }, 300_000);

  it('SIGKILL of the lobby while games end: a new lobby records every one of them once', async () => {
    const t = await startTables('l');
    const before = t.ids.filter((id) => c.finished.has(id)).length;
    await c.kill(`lobby${lobbies}`, 'SIGKILL');
    // Games end while no lobby is up: their results wait in the stream.
    await until(() => t.ids.filter((id) => c.finished.has(id)).length >= before + 10, 120_000, 'games ending');
    await startLobby();
    await finishAndCheck(t);
    await inHistoryOnce(t.ids);
  }, 300_000);
});
