/** Latency samples in ms; quantiles by sorting a copy (cheap at the sizes a swarm collects). */
export class Latencies {
  private samples: number[] = [];

  add(ms: number): void {
    this.samples.push(ms);
  }

  get count(): number {
    return this.samples.length;
  }

  summary(): { p50: number; p95: number; p99: number; max: number } {
    if (this.samples.length === 0) return { p50: 0, p95: 0, p99: 0, max: 0 };
    const s = [...this.samples].sort((a, b) => a - b);
    const q = (p: number) => round(s[Math.min(s.length - 1, Math.floor(p * s.length))]);
    return { p50: q(0.5), p95: q(0.95), p99: q(0.99), max: round(s[s.length - 1]) };
  }
}

export const round = (ms: number): number => Math.round(ms * 10) / 10;

/** p-quantile of a plain list (for per-table figures in tests). */
export function quantile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
}
