/** FakeClock: what the service tests rely on when they run timers on fake time. */
import { describe, expect, it } from 'vitest';
import { FakeClock, systemClock } from '../src/clock.ts';

describe('FakeClock', () => {
  it('fires a timer only once its time has come, with now() at its due time', async () => {
    const clock = new FakeClock(1_000);
    const fired: number[] = [];
    clock.setTimeout(() => fired.push(clock.now()), 100);
    await clock.advance(99);
    expect(fired).toEqual([]);
    expect(clock.now()).toBe(1_099);
    await clock.advance(1);
    expect(fired).toEqual([1_100]);
    await clock.advance(1_000);
    expect(fired).toEqual([1_100]);
    expect(clock.pending).toBe(0);
  });

  it('fires in time order, same-time timers in the order they were set, and cleared ones never', async () => {
    const clock = new FakeClock(0);
    const fired: string[] = [];
    clock.setTimeout(() => fired.push('c@30'), 30);
    clock.setTimeout(() => fired.push('a@10'), 10);
    clock.setTimeout(() => fired.push('b@10'), 10);
    const gone = clock.setTimeout(() => fired.push('cleared'), 20);
    clock.clearTimeout(gone);
    await clock.advance(50);
    expect(fired).toEqual(['a@10', 'b@10', 'c@30']);
  });

  it('a stall moves time without firing; then each overdue timer fires once, late, and an interval goes on from there', async () => {
    const clock = new FakeClock(0);
    const fired: string[] = [];
    clock.setInterval(() => fired.push(`every100@${clock.now()}`), 100);
    clock.setTimeout(() => fired.push(`once250@${clock.now()}`), 250);
    await clock.advance(100);
    clock.stall(1_000);
    expect(clock.now()).toBe(1_100);
    expect(fired).toEqual(['every100@100']);
    await clock.runDue();
    // Node runs them in the order they fell due, at the time it wakes, the interval once (not 10 times).
    expect(fired).toEqual(['every100@100', 'every100@1100', 'once250@1100']);
    await clock.advance(100);
    expect(fired.at(-1)).toBe('every100@1200');
  });

  it('lets promises settle between timers: a timer set by awaited work fires in the same advance', async () => {
    const clock = new FakeClock(0);
    const at: number[] = [];
    clock.setTimeout(() => {
      at.push(clock.now());
      void Promise.resolve()
        .then(() => new Promise<void>((r) => setImmediate(r)))
        .then(() => clock.setTimeout(() => at.push(clock.now()), 40));
    }, 10);
    await clock.advance(49);
    expect(at).toEqual([10]);
    await clock.advance(1);
    expect(at).toEqual([10, 50]);
  });

  it('repeats intervals at their period until cleared; sleep resolves on fake time', async () => {
    const clock = new FakeClock(0);
    const ticks: number[] = [];
    const t = clock.setInterval(() => ticks.push(clock.now()), 25);
    await clock.advance(100);
    expect(ticks).toEqual([25, 50, 75, 100]);
    clock.clearInterval(t);
    await clock.advance(100);
    expect(ticks).toHaveLength(4);
    let woke = false;
    void clock.sleep(30).then(() => (woke = true));
    await clock.advance(29);
    expect(woke).toBe(false);
    await clock.advance(1);
    expect(woke).toBe(true);
    expect(clock.nextAt()).toBeNull();
  });

  it('treats a 0 ms or negative delay as 1 ms, like Node', async () => {
    const clock = new FakeClock(0);
    let n = 0;
    clock.setTimeout(() => n++, 0);
    clock.setTimeout(() => n++, -5);
    expect(clock.nextAt()).toBe(1);
    await clock.runDue();
    expect(n).toBe(0);
    await clock.advance(1);
    expect(n).toBe(2);
  });

  it('the system clock schedules on real timers', async () => {
    const t0 = Date.now();
    await systemClock.sleep(5);
    expect(systemClock.now()).toBeGreaterThanOrEqual(t0 + 4);
    let fired = false;
    systemClock.clearTimeout(systemClock.setTimeout(() => (fired = true), 1));
    await systemClock.sleep(10);
    expect(fired).toBe(false);
  });
});
