/**
 * OpenTelemetry tracing of a player's action across processes: the gateway's span, the trace context in the
 * NATS headers of its request, the room worker's apply and snapshot spans, the gateway's view delivery.
 *
 * State: one process-wide tracer, null until `initTracing` is given an OTLP endpoint. Off (no endpoint,
 * the default) nothing is registered with the OpenTelemetry API, the SDK is never even loaded, and
 * `tracingOn()` is false: every caller checks it before making a span or a header, so the action path
 * allocates nothing for tracing (docs/perf-decisions.md). On, spans are batched and sent over OTLP/HTTP
 * (JSON) to `<endpoint>/v1/traces`; a collector that is down or slow loses spans (the batch queue is
 * bounded, the exporter logs through the OpenTelemetry diag logger, silent by default), never an action.
 *
 * Secrecy: callers put only room ids, action types, seqs and outcomes in attributes — never a card, a
 * pile order, RNG state or a token (docs/operations.md, "Tracing").
 */
import { z } from 'zod';
import {
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { opt } from '@joke/ops';
import type { TraceHeaders } from './types.ts';

export type { Span } from '@opentelemetry/api';
export { SpanKind } from '@opentelemetry/api';

let tracer: Tracer | null = null;
/** One export's wait for the collector; a slower one is dropped (spans lost, nothing else). */
const EXPORT_TIMEOUT_MS = 5_000;
/** What a stopping process gives its last spans. */
const SHUTDOWN_FLUSH_MS = 2_000;

/** Whether spans are made at all. Cheap: check it before building anything for a span. */
export function tracingOn(): boolean {
  return tracer !== null;
}

/** The config entries of every service that traces (spread into its spec, like livenessOptions). */
export const tracingOptions = (service: string) => ({
  otlpEndpoint: opt(
    'OTEL_EXPORTER_OTLP_ENDPOINT',
    z.string().refine((s) => s === '' || /^https?:\/\/[^\s]+$/.test(s), 'an http(s) URL'),
    '',
    'OpenTelemetry collector (OTLP/HTTP) that receives the traces of player actions, e.g. http://otel-collector:4318; spans go to <url>/v1/traces. Empty = tracing off (no cost).',
  ),
  otelServiceName: opt('OTEL_SERVICE_NAME', z.string(), service, 'service.name of the spans this process sends.'),
  traceSampleRatio: opt(
    'OTEL_TRACES_SAMPLER_ARG',
    z.coerce.number().min(0).max(1),
    1,
    "Share of actions traced (0–1), decided at the gateway; the room worker follows the gateway's decision.",
  ),
});

export interface TracingSettings {
  /** OTLP/HTTP base URL; empty = off. */
  otlpEndpoint: string;
  otelServiceName: string;
  traceSampleRatio: number;
  /** Batch export delay (ms); tests shorten it. Default 1000. */
  exportDelayMs?: number;
}

export interface Tracing {
  readonly on: boolean;
  /** Sends every span ended so far (tests; shutdown does it too). */
  flush(): Promise<void>;
  /** Flushes, then unregisters: the process traces no more (a later initTracing may start again). */
  shutdown(): Promise<void>;
}

const OFF: Tracing = { on: false, flush: async () => {}, shutdown: async () => {} };

/**
 * Installs the OTLP exporter when `otlpEndpoint` is set; otherwise registers nothing. Once per process (the
 * OpenTelemetry API keeps one global provider): a second call while tracing is on is refused.
 */
export async function initTracing(s: TracingSettings): Promise<Tracing> {
  if (!s.otlpEndpoint) return OFF;
  if (tracer) throw new Error('tracing is already on in this process');
  // Loaded only here: a process with tracing off never loads the SDK or the exporter.
  const [{ BasicTracerProvider, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler }, otlp, core, res] =
    await Promise.all([
      import('@opentelemetry/sdk-trace-base'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/core'),
      import('@opentelemetry/resources'),
    ]);
  const { ATTR_SERVICE_NAME } = await import('@opentelemetry/semantic-conventions');
  const exporter = new otlp.OTLPTraceExporter({
    url: `${s.otlpEndpoint.replace(/\/+$/, '')}/v1/traces`,
    timeoutMillis: EXPORT_TIMEOUT_MS,
  });
  const provider = new BasicTracerProvider({
    resource: res.resourceFromAttributes({ [ATTR_SERVICE_NAME]: s.otelServiceName }),
    // The gateway decides per action; a worker follows the sampled flag in the traceparent it receives.
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(s.traceSampleRatio) }),
    spanProcessors: [
      new BatchSpanProcessor(exporter, {
        scheduledDelayMillis: s.exportDelayMs ?? 1000,
        exportTimeoutMillis: EXPORT_TIMEOUT_MS,
        maxQueueSize: 4096,
      }),
    ],
  });
  trace.setGlobalTracerProvider(provider);
  propagation.setGlobalPropagator(new core.W3CTraceContextPropagator());
  tracer = provider.getTracer('joke-app');
  return {
    on: true,
    flush: () => provider.forceFlush(),
    shutdown: async () => {
      tracer = null;
      // Bounded: a collector that is down must not hold a SIGTERM'd pod past its grace period.
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((r) => (timer = setTimeout(r, SHUTDOWN_FLUSH_MS).unref()));
      await Promise.race([provider.shutdown().catch(() => {}), late]);
      clearTimeout(timer);
      trace.disable();
      propagation.disable();
    },
  };
}

/**
 * A span under `parent`: a span of this process, or the trace context a request carried (none: a new
 * trace). Only call it when `tracingOn()`.
 */
export function startSpan(
  name: string,
  attributes: Attributes,
  parent?: Span | TraceHeaders,
  kind: SpanKind = SpanKind.INTERNAL,
): Span {
  const ctx =
    parent === undefined
      ? ROOT_CONTEXT
      : isSpan(parent)
        ? trace.setSpan(ROOT_CONTEXT, parent)
        : propagation.extract(ROOT_CONTEXT, parent);
  return tracer!.startSpan(name, { attributes, kind }, ctx);
}

/** The trace context of `span` as headers for a bus request (W3C `traceparent`, `tracestate`). */
export function headersOf(span: Span): TraceHeaders {
  const out: TraceHeaders = {};
  propagation.inject(trace.setSpan(ROOT_CONTEXT, span), out);
  return out;
}

/** Ends `span` as failed: the error's name and message only (an error here never carries game secrets). */
export function endFailed(span: Span, err: unknown): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.name : 'error' });
  span.end();
}

function isSpan(p: Span | TraceHeaders): p is Span {
  return typeof (p as Span).spanContext === 'function';
}
