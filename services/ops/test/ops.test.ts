import { Counter, Registry } from 'prom-client';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { bool, defineConfig, int, opt, startLoopLagMonitor, startOpsServer } from '../src/index.ts';

const cfg = defineConfig({
  port: opt('T_PORT', int(0, 65535), 8080, 'port'),
  name: opt('T_NAME', z.string().min(1), () => 'computed', 'name'),
  on: opt('T_ON', bool(), false, 'flag'),
});

describe('defineConfig', () => {
  it('falls back to each default, reads and coerces set variables', () => {
    expect(cfg.fromEnv({})).toEqual({ port: 8080, name: 'computed', on: false });
    expect(cfg.fromEnv({ T_PORT: '9', T_NAME: 'x', T_ON: 'yes' })).toEqual({ port: 9, name: 'x', on: true });
    expect(cfg.resolve({ port: 1 })).toEqual({ port: 1, name: 'computed', on: false });
  });
  it('names the variable of a bad value', () => {
    expect(() => cfg.fromEnv({ T_PORT: 'eighty' })).toThrow(/T_PORT/);
    expect(() => cfg.fromEnv({ T_ON: 'maybe' })).toThrow(/T_ON/);
  });
  it('documents every option with its default', () => {
    const md = cfg.describe();
    expect(md).toContain('| `T_PORT` | 8080 | port |');
    expect(md).toContain('`T_NAME` | (computed)');
  });
});

describe('ops HTTP server', () => {
  it('serves healthz, readyz, metrics and mounted handlers', async () => {
    const reg = new Registry();
    new Counter({ name: 'joke_test_total', help: 'test', registers: [reg] }).inc(3);
    let ready = false;
    const ops = await startOpsServer({ host: '127.0.0.1', port: 0, registries: [reg], ready: () => ready });
    ops.mountHttp('/api', (_req, res) => void res.end('api'));
    ops.mountHttp('/', (_req, res) => void res.end('static'));
    const get = async (p: string) => {
      const r = await fetch(ops.url + p);
      return [r.status, await r.text()] as const;
    };
    expect(await get('/healthz')).toEqual([200, 'ok\n']);
    expect((await get('/readyz'))[0]).toBe(503);
    ready = true;
    expect((await get('/readyz'))[0]).toBe(200);
    expect((await get('/metrics'))[1]).toContain('joke_test_total 3');
    expect(await get('/api/x?y=1')).toEqual([200, 'api']);
    expect(await get('/apix')).toEqual([200, 'static']);
    expect(await get('/index.html')).toEqual([200, 'static']);
    await ops.close();
  });

  it('names the failing readiness checks and can leave /metrics out (the public port)', async () => {
    const state = { nats: true, redis: true };
    const ops = await startOpsServer({
      host: '127.0.0.1',
      port: 0,
      registries: [new Registry()],
      metrics: false,
      checks: { nats: () => state.nats, redis: () => state.redis },
    });
    const get = async (p: string) => {
      const r = await fetch(ops.url + p);
      return [r.status, await r.text()] as const;
    };
    expect(await get('/readyz')).toEqual([200, 'ready\n']);
    state.nats = false;
    expect(await get('/readyz')).toEqual([503, 'not ready: nats\n']);
    state.redis = false;
    expect(await get('/readyz')).toEqual([503, 'not ready: nats, redis\n']);
    expect((await get('/metrics'))[0]).toBe(404);
    await ops.close();
  });
});

describe('event-loop liveness', () => {
  /** Keeps the loop busy for `ms`, as a runaway computation would. */
  const block = (ms: number): void => {
    const end = performance.now() + ms;
    while (performance.now() < end);
  };
  const until = async (cond: () => boolean, what: string): Promise<void> => {
    const t0 = performance.now();
    while (!cond()) {
      if (performance.now() - t0 > 30_000) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  it('a loop blocked past the threshold fails /healthz, and passes again once it runs', async () => {
    const loop = startLoopLagMonitor({ maxLagMs: 200, intervalMs: 50, holdMs: 5000 });
    const ops = await startOpsServer({ host: '127.0.0.1', port: 0, registries: [new Registry()], loop });
    try {
      await until(() => loop.healthy(), 'a healthy loop');
      block(600);
      // Measured right after the block, before any timer ran: the overdue tick shows the stall.
      expect(loop.lagMs()).toBeGreaterThanOrEqual(400);
      expect(loop.healthy()).toBe(false);
      // The probe is answered once the loop runs again; the stall is held for holdMs, so it still fails.
      const r = await fetch(`${ops.url}/healthz`);
      expect([r.status, await r.text()]).toEqual([
        503,
        expect.stringMatching(/^event loop stuck: lag \d+ ms > 200 ms/),
      ]);
      // Recovered, the probe passes again. Asked until it does: on a loaded box (two busy loops, load 33)
      // the loop can stall past 200 ms again on its own between the recovery and the probe — which the
      // probe then rightly fails.
      let status = 0;
      const t0 = performance.now();
      while (status !== 200 && performance.now() - t0 < 30_000) {
        await until(() => loop.healthy(), 'the loop to recover');
        status = (await fetch(`${ops.url}/healthz`)).status;
      }
      expect(status).toBe(200);
    } finally {
      loop.stop();
      await ops.close();
    }
  });
});
