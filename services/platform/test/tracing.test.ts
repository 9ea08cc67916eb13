/**
 * One player action, traced: the platform runs its gateway, matchmaker and room worker on the real NATS
 * and Redis (so the trace context crosses NATS in the request's headers), a test client plays one move, and
 * an OTLP/HTTP receiver on loopback gets the spans. They are one trace: the worker's apply is a child of the
 * gateway's command span, the snapshot write a child of the apply, and the view delivery a child of the
 * command; no attribute carries the action's cards or the player's token.
 */
import { createServer, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { games, Rng } from '@joke/engine';
import { FixedViewMembers, PROTOCOL_REVISION } from '@joke/protocol';
import { signPlayerToken } from '@joke/protocol/auth';
import { initTracing, type Tracing } from '@joke/bus/tracing';
import { startPlatform, type Platform } from '../src/index.ts';
import { NATS_URL, REDIS_URL, until } from './cluster-harness.ts';
import { createRoom } from './support/stack-room.ts';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: { key: string; value: Record<string, unknown> }[];
}

/** Every span posted to /v1/traces (OTLP/HTTP, JSON encoding), with the service.name it came from. */
const received: (OtlpSpan & { service: string })[] = [];
let receiver: Server;
let tracing: Tracing;
let p: Platform;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        for (const rs of body.resourceSpans ?? []) {
          const service = rs.resource?.attributes?.find((a: any) => a.key === 'service.name')?.value?.stringValue;
          for (const ss of rs.scopeSpans ?? []) for (const s of ss.spans ?? []) received.push({ ...s, service });
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const { port } = receiver.address() as AddressInfo;
  tracing = await initTracing({
    otlpEndpoint: `http://127.0.0.1:${port}`,
    otelServiceName: 'joke-platform-test',
    traceSampleRatio: 1,
    exportDelayMs: 50,
  });
  p = await startPlatform({
    natsUrl: NATS_URL,
    redisUrl: REDIS_URL,
    namespace: `trace${randomBytes(4).toString('hex')}`,
    port: 0,
    gatewayPort: 0,
    opsPort: 0,
    logLevel: 'silent',
    botDelayMs: 20,
    botJitterMs: 0,
  });
}, 120_000);

afterAll(async () => {
  await p?.close();
  await tracing?.shutdown();
  await new Promise((r) => receiver?.close(r));
});

const attr = (s: OtlpSpan, key: string): unknown => {
  const v = s.attributes?.find((a) => a.key === key)?.value;
  return v && Object.values(v)[0];
};

describe('tracing one action', () => {
  it('sends one trace: gateway.command → worker.apply (over NATS headers) → worker.snapshot, and gateway.view', async () => {
    const roomId = `traced${randomBytes(3).toString('hex')}`;
    const created = await createRoom(
      p.bus,
      {
        roomId,
        game: 'one-card',
        options: { mode: 'classic' },
        players: [
          { id: 'u1', name: '민수', bot: false },
          { id: 'b1', name: '봇1', bot: true },
        ],
      },
      30_000,
    );
    expect(created).toMatchObject({ ok: true });

    const token = await signPlayerToken(p.config.jwtSecret, { sub: 'u1', name: '민수' });
    const ws = new WebSocket(p.gatewayUrl);
    await new Promise((r, j) => ws.once('open', r).once('error', j));
    const rng = Rng.fromSeed('traced');
    let sent: { actionId: string; action: unknown } | null = null;
    // Every card id u1 could see when it moved (its hand, the pile's top): none may reach a span.
    let seenCards: string[] = [];
    // The game's fixed view members come in the join's reply and are kept, as a client does.
    const fixed = new FixedViewMembers();
    // The first move of u1 the game accepts (a bot may move first; the bot's moves are not traced).
    const acked = new Promise<void>((resolve, reject) => {
      ws.on('message', (raw) => {
        const msg = JSON.parse(String(raw));
        if (msg.t === 'view' && msg.roomId === roomId && fixed.complete(msg) && sent === null && !msg.result) {
          const action = games['one-card'].bot(msg.view, rng);
          if (!action) return;
          sent = { actionId: 'a1', action };
          seenCards = [...new Set(JSON.stringify(msg.view).match(/\bc\d+\b/g) ?? [])];
          ws.send(JSON.stringify({ v: 1, t: 'action', roomId, actionId: 'a1', action }));
        } else if (msg.t === 'ack' && msg.actionId === 'a1') resolve();
        else if (msg.t === 'rejected' || msg.t === 'error') reject(new Error(`${msg.t}: ${JSON.stringify(msg)}`));
      });
    });
    ws.send(JSON.stringify({ v: 1, t: 'hello', token, revision: PROTOCOL_REVISION }));
    ws.send(JSON.stringify({ v: 1, t: 'join', roomId }));
    await acked;
    ws.close();

    const names = ['gateway.command', 'gateway.view', 'worker.apply', 'worker.snapshot'];
    const byName = (n: string) => received.filter((s) => s.name === n && attr(s, 'joke.room.id') === roomId);
    await until(
      async () => {
        await tracing.flush();
        return names.every((n) => byName(n).length > 0);
      },
      60_000,
      () => `spans ${names.join(', ')}; got ${received.map((s) => s.name).join(', ')}`,
    );

    const [command] = byName('gateway.command');
    const [view] = byName('gateway.view');
    const [apply] = byName('worker.apply');
    const [snapshot] = byName('worker.snapshot');
    // One action, one trace, one span of each kind.
    for (const n of names) expect(byName(n), n).toHaveLength(1);
    for (const s of [view, apply, snapshot]) expect(s.traceId).toBe(command.traceId);
    expect(command.parentSpanId ?? '').toBe('');
    expect(apply.parentSpanId).toBe(command.spanId);
    expect(snapshot.parentSpanId).toBe(apply.spanId);
    expect(view.parentSpanId).toBe(command.spanId);
    // The span names the type of the action sent: the deal is the room's own, so u1's first move may be a draw.
    expect(attr(command, 'joke.action.type')).toBe((sent!.action as { type: string }).type);
    expect(attr(command, 'joke.outcome')).toBe('ok');
    expect(attr(snapshot, 'joke.stored')).toBe(true);
    expect(command.service).toBe('joke-platform-test');

    // Secrecy: only these attributes, and none holds a card id of the move or the token.
    const allowed = new Set([
      'joke.room.id',
      'joke.action.type',
      'joke.outcome',
      'joke.tries',
      'joke.seq',
      'joke.frames',
      'joke.batch.items',
      'joke.stored',
    ]);
    // A draw names no card, so the cards are those u1 saw; whole ids only (the room id is hex: "…ac3f…").
    expect(seenCards.length).toBeGreaterThan(1);
    const card = new RegExp(`\\b(${seenCards.join('|')})\\b`);
    for (const s of received) {
      for (const a of s.attributes ?? []) {
        expect(allowed, `${s.name} ${a.key}`).toContain(a.key);
        const value = JSON.stringify(a.value);
        expect(value).not.toContain(token);
        expect(value, `${s.name} ${a.key}`).not.toMatch(card);
      }
    }
  }, 120_000);
});
