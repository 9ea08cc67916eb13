import type { Timer } from '@joke/bus/clock';

/** Runs `f` over `items` with at most `n` in flight. */
export async function pool<T>(items: T[], n: number, f: (item: T) => Promise<void>): Promise<void> {
  let i = 0;
  const run = async (): Promise<void> => {
    while (i < items.length) await f(items[i++]);
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, run));
}

/**
 * Lets the process exit with this timer pending, as before timers went through a `Clock`: the system
 * clock's timers are Node's (which have `unref`); a FakeClock's holds nothing open and has none.
 */
export function unref(timer: Timer): void {
  (timer as unknown as { unref?: () => void }).unref?.();
}
