/**
 * A gateway's rolling-update shutdown, for real: 2 gateways, 2 room workers and
 * a matchmaker as processes on the real NATS and Redis, and the bot swarm
 * (load-tests) playing one-card through both gateways. One gateway gets
 * SIGTERM: it turns not-ready at once, refuses new sockets, and closes its
 * sockets spread over GATEWAY_SHUTDOWN_SPREAD_MS with the reconnect hint;
 * every bot moves to the other gateway and plays on — the swarm counts no
 * error, every table finishes, and every acknowledged action is in its record.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_JWT_SECRET } from '@joke/protocol/auth';
import { runSwarm, type TableStats } from '@joke/load-tests';
import { type GameRecord } from '@joke/engine';
import { Cluster, until, type Proc } from './cluster-harness.ts';

const SPREAD_MS = 3000;
const TABLES = 10;
const c = new Cluster();
let gateways: { proc: Proc; url: string; http: string }[] = [];

const portOf = (p: Proc) => Number(/READY \S+ (\d+)/.exec(p.out.join(''))![1]);

beforeAll(async () => {
  await c.start();
  const gw = (id: string) =>
    c.spawn(id, 'gateway', {
      GATEWAY_ID: id,
      PORT: '0',
      JWT_SECRET: DEV_JWT_SECRET,
      GATEWAY_SHUTDOWN_SPREAD_MS: String(SPREAD_MS),
      // No lobby in this cluster to ask about private rooms.
      GATEWAY_ROOM_ACCESS: 'open',
    });
  const [g1, g2] = await Promise.all([
    gw('g1'),
    gw('g2'),
    c.worker('w1', 1, { BOT_DELAY_MS: '50', BOT_JITTER_MS: '50' }),
    c.worker('w2', 2, { BOT_DELAY_MS: '50', BOT_JITTER_MS: '50' }),
    c.matchmaker('mm1'),
  ]);
  gateways = [g1, g2].map((proc) => ({
    proc,
    url: `ws://127.0.0.1:${portOf(proc)}/ws`,
    http: `http://127.0.0.1:${portOf(proc)}`,
  }));
  await until(() => ['w1', 'w2'].every((w) => c.heartbeats.has(w)), 10_000, 'worker heartbeats');
  await c.matchmakersSee(['mm1'], 2);
}, 90_000);
afterAll(() => c.stop(), 60_000);

describe('gateway SIGTERM under load', () => {
  it('turns not-ready, spreads its closes over the window, and every bot plays on through the other gateway', async () => {
    let tables: ReadonlyMap<string, TableStats> = new Map();
    const swarm = runSwarm(
      {
        url: gateways.map((g) => g.url).join(','),
        game: 'one-card',
        mode: 'classic',
        players: 4,
        tables: TABLES,
        auth: 'jwt-secret',
        jwtSecret: DEV_JWT_SECRET,
        duration: 120,
        think: { meanMs: 150 },
        rampMs: 0,
        requeue: false,
        untilFinished: true,
        liveMs: 0,
        collectAcks: true,
        runId: c.ns,
      },
      { observe: (t) => (tables = t) },
    );
    // Every table has started and moved a few times before the gateway goes.
    await until(
      () => tables.size === TABLES && [...tables.values()].every((t) => t.lastSeq >= 3),
      60_000,
      'tables playing',
    );
    const [leaving, staying] = gateways;
    expect((await fetch(`${leaving.http}/readyz`)).status).toBe(200);
    const t0 = performance.now();
    leaving.proc.child.kill('SIGTERM');
    await until(
      async () =>
        (await fetch(`${leaving.http}/readyz`).then(
          (r) => r.status,
          () => 0,
        )) !== 200,
      5_000,
      'not ready',
    );
    const notReadyMs = performance.now() - t0;
    const code = await leaving.proc.exited;
    const exitMs = performance.now() - t0;
    expect(code).toBe(0);
    const report = JSON.parse(/SHUTDOWN (\{.*\})/.exec(leaving.proc.out.join(''))![1]);
    // Half the bots were on the leaving gateway; their closes were spread over the window, not sent at once.
    expect(report.sockets).toBeGreaterThanOrEqual((TABLES * 4) / 2 - 2);
    expect(report.spreadMs).toBeGreaterThanOrEqual(SPREAD_MS * 0.8);
    expect(exitMs).toBeLessThan(SPREAD_MS + 10_000);

    const run = await swarm;
    expect(run.report.errors, JSON.stringify(run.report.errorKinds)).toBe(0);
    expect([...run.tables.values()].every((t) => t.finishedAt !== null)).toBe(true);
    // Every acknowledged action is in its table's record.
    await until(() => [...run.tables.keys()].every((id) => c.finished.has(id)), 30_000, 'records');
    for (const a of run.acks) {
      const record = c.finished.get(a.roomId)!.record as GameRecord;
      const step = record.actions.find(
        (s) => 'actor' in s && s.actor === a.userId && JSON.stringify(s.action) === JSON.stringify(a.action),
      );
      expect(step, `${a.roomId} ${a.actionId}`).toBeDefined();
    }
    expect((await fetch(`${staying.http}/readyz`)).status).toBe(200);
    console.log(
      `[gateway-shutdown] not ready after ${notReadyMs.toFixed(0)} ms; ${report.sockets} sockets closed over ${report.spreadMs} ms; ` +
        `exit after ${exitMs.toFixed(0)} ms; ${run.report.errors} swarm errors, ${run.tables.size} tables finished`,
    );
  }, 180_000);
});
