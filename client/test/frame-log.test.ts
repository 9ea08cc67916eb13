/**
 * The frame capture of test builds (src/frame-log.ts): a ring of the last N frames, oldest first, and
 * nothing kept (nor built) where capture is off, as in the production build.
 */
import { describe, expect, it } from 'vitest';
import { FrameLog } from '../src/frame-log.ts';

describe('FrameLog', () => {
  it('keeps the last N frames, oldest first', () => {
    const log = new FrameLog(3, true);
    for (let i = 1; i <= 2; i++) log.record(`f${i}`);
    expect(log.list()).toEqual(['f1', 'f2']);
    for (let i = 3; i <= 7; i++) log.record(`f${i}`);
    expect(log.list()).toEqual(['f5', 'f6', 'f7']);
  });

  it('keeps nothing and builds nothing when capture is off', () => {
    const log = new FrameLog(3, false);
    let built = 0;
    log.record(() => `f${++built}`);
    log.record('f');
    expect(log.list()).toEqual([]);
    expect(built).toBe(0);
  });

  it('captures under vitest (mode test), as in the browser tests’ build', () => {
    const log = new FrameLog();
    log.record(() => 'frame');
    expect(log.list()).toEqual(['frame']);
  });
});
