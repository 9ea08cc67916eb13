/**
 * Shared Prometheus plumbing of every service: the process metrics and the
 * deprecated metric-name aliases.
 *
 * Process metrics (CPU, memory, event loop, GC, handles: prom-client's default
 * set) describe the process, not a service: a process that embeds several
 * services (the platform) must export them once. `processRegistry()` hands out
 * one registry per process, created on first use; every caller gets the same
 * one, so no second `collectDefaultMetrics` registers the names twice (prom-client
 * refuses that, and `Registry.merge` refuses duplicate names).
 *
 * Aliases (`aliasMetrics`): metric names moved to one `joke_<service>_` prefix
 * with base units (docs/operations.md, "Metric names"). For one release each old
 * name is still served, read from the new metric at scrape time: nothing extra is
 * counted on the hot path. A scaled alias (an old `_ms` gauge) multiplies the
 * value. An alias whose source metric is missing from the registry serves nothing.
 * Remove `aliasMetrics` calls (and this helper) in the release after next.
 */
import {
  collectDefaultMetrics,
  Registry,
  type Metric,
  type MetricObjectWithValues,
  type MetricValue,
} from 'prom-client';

let processMetrics: Registry | null = null;

/** The one registry of this process's default metrics (created and filled on first call). */
export function processRegistry(): Registry {
  if (!processMetrics) {
    processMetrics = new Registry();
    collectDefaultMetrics({ register: processMetrics });
  }
  return processMetrics;
}

export interface MetricAlias {
  /** The deprecated name still served. */
  old: string;
  /** The current metric it mirrors (must be registered in the same registry). */
  current: string;
  /** Multiplies each value (e.g. 1000 for seconds → an old `_ms` name). Not for histograms. */
  scale?: number;
}

/** Registers, in `registry`, a read-only mirror of each `current` metric under its `old` name. */
export function aliasMetrics(registry: Registry, aliases: readonly MetricAlias[]): void {
  for (const a of aliases) {
    const source = registry.getSingleMetric(a.current);
    if (!source || registry.getSingleMetric(a.old)) continue;
    const type = (source as unknown as { type: string }).type;
    const mirror = {
      name: a.old,
      help: `Deprecated alias of ${a.current} (removed in the next release)`,
      type,
      aggregator: 'sum',
      async get(): Promise<MetricObjectWithValues<MetricValue<string>>> {
        const got = await source.get();
        const values = got.values.map((v) => ({
          ...v,
          metricName: (v as { metricName?: string }).metricName?.replace(a.current, a.old),
          value: a.scale === undefined ? v.value : v.value * a.scale,
        }));
        return { ...got, name: a.old, help: mirror.help, values };
      },
      reset(): void {
        // The mirror holds nothing of its own: the current metric is reset by its owner.
      },
    };
    registry.registerMetric(mirror as unknown as Metric);
  }
}

/**
 * Aliases every metric of `registry` named `current…` under `old…` (same suffix), but those in
 * `except` (names that never existed under the old prefix). Call after the metrics are registered.
 */
export function aliasPrefix(registry: Registry, current: string, old: string, except: readonly string[] = []): void {
  const aliases = registry
    .getMetricsAsArray()
    .map((m) => m.name)
    .filter((name) => name.startsWith(current) && !except.includes(name))
    .map((name) => ({ current: name, old: old + name.slice(current.length) }));
  aliasMetrics(registry, aliases);
}
