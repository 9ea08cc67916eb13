/**
 * The one way table animations move things (issue 16 §4), shared by the
 * poker chips, the 훌라 melds and 땡큐, and the 원카드 attack badge:
 * - every movement is recorded, animated or not, so the test hook can tell
 *   where things went (`MotionLog`);
 * - its length comes from `motionMs` (the animation setting and the
 *   system's prefers-reduced-motion): 0 means the thing is simply there;
 * - `Flights` keeps a flight going when the scene redraws its objects in
 *   the middle of it (the 훌라 table redraws on every tap), so a redraw
 *   never makes a card jump back to the start or to the end.
 */
import type Phaser from 'phaser';
import { motionMs } from '../settings.ts';

export interface Point {
  x: number;
  y: number;
}

/** What the hook shows of one movement: its own fields plus whether it was animated. */
export type Logged<T> = T & { animated: boolean };

export class MotionLog<T extends object> {
  readonly entries: Logged<T>[] = [];

  constructor(private readonly cap = 200) {}

  /** Records `m`; `ms` is the length actually used (0 = instant). */
  record(m: T, ms: number): Logged<T> {
    const e = { ...m, animated: ms > 0 };
    this.entries.push(e);
    if (this.entries.length > this.cap) this.entries.splice(0, this.entries.length - this.cap);
    return e;
  }
}

/** Moves `target` from where it is to `to` over `ms` (nothing when `ms` is 0); calls `done` at the end. */
export function glide(
  scene: Phaser.Scene,
  target: Phaser.GameObjects.Components.Transform,
  to: Point & { scaleX?: number; scaleY?: number },
  ms: number,
  opts: { delay?: number; ease?: string; done?: () => void } = {},
): void {
  if (ms <= 0) {
    target.setPosition(to.x, to.y);
    opts.done?.();
    return;
  }
  scene.tweens.add({
    targets: target,
    ...to,
    duration: ms,
    delay: opts.delay ?? 0,
    ease: opts.ease ?? 'Cubic.easeOut',
    onComplete: () => opts.done?.(),
  });
}

/** A short "pop": `target` starts `from` times its size and settles back (none with motion reduced). */
export function pop(scene: Phaser.Scene, target: Phaser.GameObjects.Components.Transform, from: number): number {
  const ms = motionMs(220);
  scene.tweens.killTweensOf(target);
  if (ms <= 0) {
    target.setScale(1);
    return 0;
  }
  target.setScale(from);
  scene.tweens.add({ targets: target, scale: 1, duration: ms, ease: 'Back.easeOut' });
  return ms;
}

/** Cubic ease-out, the same curve the tweens use, for a flight resumed after a redraw. */
const easeOut = (t: number) => 1 - (1 - t) ** 3;

interface Flight {
  from: Point;
  start: number;
  ms: number;
}

/**
 * Flights keyed by what flies (a card id). `begin` starts one; `place` puts
 * a freshly drawn object where its flight is now and tweens it the rest of
 * the way, or leaves it at its place when there is no flight (or it ended).
 */
export class Flights {
  private readonly live = new Map<string, Flight>();

  constructor(private readonly now: () => number) {}

  /** Starts a flight from `from`; returns its length (0 with motion reduced: nothing flies). */
  begin(key: string, from: Point, ms = 300): number {
    const len = motionMs(ms);
    if (len > 0) this.live.set(key, { from, start: this.now(), ms: len });
    return len;
  }

  /** Flights still under way (for the test hook). */
  count(): number {
    for (const k of [...this.live.keys()]) this.flying(k);
    return this.live.size;
  }

  /** How far the furthest flight under way has got (0…1; 0 when none is). */
  progress(): number {
    let p = 0;
    for (const f of this.live.values()) p = Math.max(p, Math.min(1, (this.now() - f.start) / f.ms));
    return this.count() > 0 ? p : 0;
  }

  flying(key: string): boolean {
    const f = this.live.get(key);
    if (f && this.now() - f.start >= f.ms) this.live.delete(key);
    return this.live.has(key);
  }

  place(scene: Phaser.Scene, obj: Phaser.GameObjects.Components.Transform, key: string): void {
    if (!this.flying(key)) return;
    const f = this.live.get(key)!;
    const to = { x: obj.x, y: obj.y };
    const p = easeOut(Math.min(1, (this.now() - f.start) / f.ms));
    obj.setPosition(f.from.x + (to.x - f.from.x) * p, f.from.y + (to.y - f.from.y) * p);
    // A flight just begun eases out; one resumed after a redraw finishes at an even pace.
    const ease = p < 0.02 ? 'Cubic.easeOut' : 'Linear';
    glide(scene, obj, to, Math.max(1, f.start + f.ms - this.now()), { ease });
  }
}
