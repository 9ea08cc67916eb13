/**
 * Tracing off is free: with no OTLP endpoint nothing is registered with the OpenTelemetry API (its tracer
 * makes non-recording spans, its propagator writes no header) and `tracingOn()` stays false. And both buses
 * carry a request's headers to the subscriber (NATS headers over NATS), while an untraced request arrives
 * with none. A collector that never answers does not hold a stopping process for long.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { propagation, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { InProcessBus, NatsBus, type Bus, type BusMessage } from '../src/index.ts';
import { initTracing, startSpan, tracingOn } from '../src/tracing.ts';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

describe('tracing off', () => {
  it('installs no provider and no propagator without an endpoint', async () => {
    const t = await initTracing({ otlpEndpoint: '', otelServiceName: 'test', traceSampleRatio: 1 });
    expect(t.on).toBe(false);
    expect(tracingOn()).toBe(false);
    const span = trace.getTracerProvider().getTracer('x').startSpan('y');
    expect(span.isRecording()).toBe(false);
    span.end();
    const carrier: Record<string, string> = {};
    propagation.inject(trace.setSpan(ROOT_CONTEXT, span), carrier);
    expect(carrier).toEqual({});
    await t.shutdown();
  });
});

describe('tracing on', () => {
  it('stops within its bounded flush when the collector never answers', async () => {
    const hung = createServer(() => {}); // takes the request, never answers
    await new Promise<void>((r) => hung.listen(0, '127.0.0.1', r));
    const { port } = hung.address() as AddressInfo;
    const t = await initTracing({
      otlpEndpoint: `http://127.0.0.1:${port}`,
      otelServiceName: 'test',
      traceSampleRatio: 1,
    });
    expect(tracingOn()).toBe(true);
    startSpan('test.span', { 'joke.room.id': 'r1' }).end();
    const t0 = performance.now();
    await t.shutdown();
    expect(performance.now() - t0).toBeLessThan(4_000);
    expect(tracingOn()).toBe(false);
    hung.closeAllConnections();
    await new Promise((r) => hung.close(r));
  });
});

const buses: Bus[] = [];
afterAll(async () => {
  for (const b of buses) await b.close();
});

describe.each([
  ['in-process', async (): Promise<Bus> => new InProcessBus()],
  ['nats', async (): Promise<Bus> => NatsBus.connect(NATS_URL, { prefix: `t${randomBytes(6).toString('hex')}` })],
])('%s bus: request headers', (_name, make) => {
  it('reach the subscriber when sent, and are absent when not', async () => {
    const bus = await make();
    buses.push(bus);
    const seen: (BusMessage['headers'] | 'none')[] = [];
    bus.subscribe('svc', (m) => {
      seen.push(m.headers ?? 'none');
      m.respond?.('ok');
    });
    await bus.flush?.();
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    await bus.request('svc', 'a', 5000, undefined, { traceparent });
    await bus.request('svc', 'b', 5000);
    expect(seen).toEqual([{ traceparent }, 'none']);
  });
});
