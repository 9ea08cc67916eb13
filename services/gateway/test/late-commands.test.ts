/**
 * Admission by the playing tables' latency (late-commands.ts): quick match is refused while the last full
 * half-second window of commands had a p95 round trip past the limit, and only when it held enough
 * commands to tell; off at 0.
 */
import { describe, expect, it } from 'vitest';
import { LateCommands } from '../src/late-commands.ts';

function watch(limitMs: number) {
  let t = 0;
  const w = new LateCommands(limitMs, () => t);
  return { w, at: (ms: number) => (t = ms) };
}

describe('LateCommands', () => {
  it('is late for the window after one whose p95 passed the limit, and not after one that did not', () => {
    const { w, at } = watch(100);
    // 20 commands, 2 of them slow: the p95 (the 20th of 20 by speed) is slow.
    for (let i = 0; i < 18; i++) w.record(10);
    w.record(300);
    w.record(300);
    expect(w.late).toBe(false); // the window is still open: no verdict yet
    at(500);
    expect(w.late).toBe(true);
    for (let i = 0; i < 40; i++) w.record(20);
    w.record(900); // one slow move of 41 stays under the p95
    at(1000);
    expect(w.late).toBe(false);
  });

  it('says nothing from fewer than 20 commands (a gateway with few tables must let tables in)', () => {
    const { w, at } = watch(100);
    for (let i = 0; i < 19; i++) w.record(5_000);
    at(500);
    expect(w.late).toBe(false);
    // An idle window after a late one clears it too: nothing playing is waiting.
    for (let i = 0; i < 20; i++) w.record(5_000);
    at(1000);
    expect(w.late).toBe(true);
    at(1500);
    expect(w.late).toBe(false);
  });

  it('never refuses at 0 (off)', () => {
    const { w, at } = watch(0);
    for (let i = 0; i < 100; i++) w.record(60_000);
    at(10_000);
    expect(w.late).toBe(false);
  });
});
