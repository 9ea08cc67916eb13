/**
 * Deprecated metric-name aliases (ops/metrics.ts): each old name serves the current metric's series at
 * scrape time, with the same type, scaled when asked, and counts nothing of its own.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { aliasMetrics, aliasPrefix } from '../src/metrics.ts';

function line(text: string, name: string): string | undefined {
  return text.split('\n').find((l) => l.startsWith(name));
}

describe('metric aliases', () => {
  it('serves a counter, a scaled gauge and a histogram under their old names, read from the current ones', async () => {
    const registry = new Registry();
    const opens = new Counter({ name: 'joke_x_opens_total', help: 'h', labelNames: ['kind'], registers: [registry] });
    const lag = new Gauge({ name: 'joke_x_lag_seconds', help: 'h', registers: [registry] });
    const took = new Histogram({ name: 'joke_x_took_seconds', help: 'h', buckets: [0.1, 1], registers: [registry] });
    aliasMetrics(registry, [
      { old: 'x_opens_total', current: 'joke_x_opens_total' },
      { old: 'x_lag_ms', current: 'joke_x_lag_seconds', scale: 1000 },
      { old: 'x_took_seconds', current: 'joke_x_took_seconds' },
      { old: 'x_gone', current: 'joke_x_never_registered' },
    ]);
    opens.inc({ kind: 'quick' }, 3);
    lag.set(0.25);
    took.observe(0.5);
    const text = await registry.metrics();
    expect(line(text, 'x_opens_total{kind="quick"}')).toBe('x_opens_total{kind="quick"} 3');
    expect(text).toContain('# TYPE x_opens_total counter');
    expect(line(text, 'x_lag_ms')).toBe('x_lag_ms 250');
    expect(text).toContain('# TYPE x_lag_ms gauge');
    expect(line(text, 'x_took_seconds_bucket{le="1"}')).toBe('x_took_seconds_bucket{le="1"} 1');
    expect(line(text, 'x_took_seconds_count')).toBe('x_took_seconds_count 1');
    expect(text).toContain('# TYPE x_took_seconds histogram');
    expect(text).not.toContain('x_gone');
    // Read-only: the next scrape follows the current metric, and resetting every metric leaves no copy behind.
    opens.inc({ kind: 'quick' });
    expect(line(await registry.metrics(), 'x_opens_total{kind="quick"}')).toBe('x_opens_total{kind="quick"} 4');
    registry.resetMetrics();
    expect(line(await registry.metrics(), 'x_opens_total{kind="quick"}')).toBeUndefined();
  });

  it('aliases a whole prefix but the names listed as never having existed', async () => {
    const registry = new Registry();
    new Counter({ name: 'joke_matchmaker_opens_total', help: 'h', registers: [registry] }).inc(2);
    new Counter({ name: 'joke_matchmaker_new_total', help: 'h', registers: [registry] }).inc();
    aliasPrefix(registry, 'joke_matchmaker_', 'joke_mm_', ['joke_matchmaker_new_total']);
    const text = await registry.metrics();
    expect(line(text, 'joke_mm_opens_total')).toBe('joke_mm_opens_total 2');
    expect(text).not.toContain('joke_mm_new_total');
  });
});
