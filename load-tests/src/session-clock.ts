/**
 * The bots' sessions' clock (`@joke/session` SessionClock) on the process's timer wheel: every
 * session arms a timer per action (its resend deadline) and cancels it at the answer, thousands a
 * second. As Node timers that is a Timeout and a heap insert each; here a `WheelTimer` from a free
 * list, armed into a slot. A cancelled wheel timer stays in its slot's list until the slot passes
 * (the wheel skips it there), so its callback is dropped at once — an action's state must not live
 * on for the 15 s of the deadline and be promoted by the GC — and the timer goes back to the list;
 * the wheel skips a stale entry of a reused timer by its slot (timer-wheel.ts).
 */
import type { SessionClock } from '@joke/session';
import { TimerWheel, WheelTimer } from './timer-wheel.ts';

const idle = (): void => {};

export class WheelClock implements SessionClock {
  private readonly free: WheelTimer[] = [];

  constructor(private readonly wheel: TimerWheel) {}

  now(): number {
    return performance.now();
  }

  setTimeout(fn: () => void, ms: number): WheelTimer {
    const t = this.free.pop() ?? new WheelTimer(idle);
    t.fire = () => {
      t.fire = idle;
      this.free.push(t);
      fn();
    };
    this.wheel.arm(t, ms);
    return t;
  }

  clearTimeout(timer: unknown): void {
    if (!(timer instanceof WheelTimer) || timer.fire === idle) return;
    this.wheel.cancel(timer);
    timer.fire = idle;
    this.free.push(timer);
  }
}
