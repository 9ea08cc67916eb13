import { describe, expect, it } from 'vitest';
import { DEV_JWT_SECRET } from '@joke/protocol/auth';
import { Latencies, parseArgs } from '../src/index.ts';

describe('swarm options', () => {
  it('parses the documented command line', () => {
    const o = parseArgs(
      '--url ws://127.0.0.1:9000/ws --game one-card --mode classic --players 4 --tables 200 --duration 60 --think-ms 500 --no-requeue'.split(
        ' ',
      ),
    );
    expect(o).toMatchObject({
      url: 'ws://127.0.0.1:9000/ws',
      game: 'one-card',
      mode: 'classic',
      players: 4,
      tables: 200,
      duration: 60,
      thinkMs: 500,
      requeue: false,
      jwtSecret: DEV_JWT_SECRET,
    });
    expect(parseArgs([]).thinkMs).toBe(2000);
  });

  it('refuses any target that is not loopback', () => {
    for (const url of ['ws://10.0.0.5:8081/ws', 'ws://example.com/ws', 'ws://192.168.1.2/ws', 'http://127.0.0.1/ws'])
      expect(() => parseArgs(['--url', url]), url).toThrow(/loopback/);
    expect(() => parseArgs(['--url', 'ws://127.0.0.1:1/ws,ws://10.1.1.1:2/ws'])).toThrow(/loopback/);
    for (const url of [
      'ws://127.0.0.1:1/ws',
      'ws://localhost:8081/ws',
      'ws://[::1]:8081/ws',
      'ws://127.0.0.1:1/ws,ws://127.0.0.1:2/ws',
    ])
      expect(parseArgs(['--url', url]).url).toBe(url);
  });

  it('bounds the run: duration and tables have ceilings, unknown flags fail', () => {
    expect(() => parseArgs(['--duration', '100000'])).toThrow();
    expect(() => parseArgs(['--tables', '1000000'])).toThrow();
    expect(() => parseArgs(['--bogus', '1'])).toThrow();
    expect(() => parseArgs(['--tables'])).toThrow(/needs a value/);
  });
});

describe('latency summary', () => {
  it('reports quantiles of the samples and zeros when empty', () => {
    const l = new Latencies();
    expect(l.summary()).toEqual({ p50: 0, p95: 0, p99: 0, max: 0 });
    for (let i = 1; i <= 100; i++) l.add(i);
    expect(l.summary()).toEqual({ p50: 51, p95: 96, p99: 100, max: 100 });
  });
});
