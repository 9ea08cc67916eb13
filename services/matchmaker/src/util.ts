/** Runs `f` over `items` with at most `n` in flight. */
export async function pool<T>(items: T[], n: number, f: (item: T) => Promise<void>): Promise<void> {
  let i = 0;
  const run = async (): Promise<void> => {
    while (i < items.length) await f(items[i++]);
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, run));
}
