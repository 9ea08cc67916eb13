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
  Counter,
  Gauge,
  Histogram,
  Registry,
  Summary,
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
    mirrorMetric(registry, source, a);
  }
}

/**
 * The mirror is a subclass of the source's own prom-client class whose `get()` (all a scrape reads) renames
 * and scales the source's values: the registry takes it as the metric type it is, and it counts nothing.
 */
function mirrorMetric(registry: Registry, source: Metric, a: MetricAlias): void {
  const help = `Deprecated alias of ${a.current} (removed in the next release)`;
  const config = { name: a.old, help, registers: [registry], aggregator: 'sum' as const };
  const read = async <V extends MetricValue<string>>(got: MetricObjectWithValues<V>) => ({
    ...got,
    name: a.old,
    help,
    values: got.values.map((v) => ({
      ...v,
      metricName: (v as { metricName?: string }).metricName?.replace(a.current, a.old),
      value: a.scale === undefined ? v.value : v.value * a.scale,
    })),
  });
  if (source instanceof Histogram) {
    new (class extends Histogram {
      override get() {
        return source.get().then(read);
      }
      // prom-client renders a histogram from this (untyped) method rather than get(): the source's
      // get() output (the bucket bound among the labels) renders the same.
      getForPromString() {
        return this.get();
      }
    })(config);
  } else if (source instanceof Summary) {
    new (class extends Summary {
      override get() {
        return source.get().then(read);
      }
    })(config);
  } else if (source instanceof Gauge) {
    new (class extends Gauge {
      override get() {
        return source.get().then(read);
      }
    })(config);
  } else {
    new (class extends Counter {
      override get() {
        return source.get().then(read);
      }
    })(config);
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
