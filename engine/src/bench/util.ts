/** Runs `fn` repeatedly for about `ms` milliseconds after a warm-up; returns calls per second. */
export function perSecond(fn: () => void, ms = 1500): number {
  const warmUntil = performance.now() + Math.min(300, ms / 4);
  while (performance.now() < warmUntil) fn();
  let n = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < 100; i++) fn();
    n += 100;
    now = performance.now();
  }
  return (n * 1000) / (now - start);
}
