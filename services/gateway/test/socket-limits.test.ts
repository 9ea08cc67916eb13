/**
 * Issue 10: per-address and per-user socket limits and the per-socket bound
 * on outstanding requests, on a gateway over the real NATS server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import { NatsBus, type Bus } from '@joke/bus';
import { ERRORS } from '@joke/protocol';
import { DEV_JWT_SECRET, signPlayerToken } from '@joke/protocol/auth';
import { pino } from 'pino';
import { startGateway, type Gateway } from '../src/index.ts';
import { TestClient } from '@joke/session/test-client';

const ns = `gwlim-${randomBytes(4).toString('hex')}`;
const logger = pino({ level: 'silent' });
let bus: Bus;
const gateways: Gateway[] = [];
const clients: TestClient[] = [];

const token = (sub: string) => signPlayerToken(DEV_JWT_SECRET, { sub, name: sub });
async function gateway(cfg: object): Promise<{ gw: Gateway; url: string }> {
  const gw = await startGateway(
    { gatewayId: `${ns}-${gateways.length}`, port: 0, jwtSecret: DEV_JWT_SECRET, ...cfg },
    { bus, logger },
  );
  gateways.push(gw);
  return { gw, url: `ws://127.0.0.1:${gw.port}/ws` };
}
async function open(url: string): Promise<TestClient> {
  const c = await TestClient.open(url);
  clients.push(c);
  return c;
}
/** The HTTP status of a refused upgrade, or 101 when the socket opened. */
function upgradeStatus(url: string, headers: Record<string, string> = {}): Promise<{ status: number; ws?: WebSocket }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => resolve({ status: 101, ws }));
    ws.once('unexpected-response', (_req, res) => resolve({ status: res.statusCode ?? 0 }));
    ws.once('error', (err) => (String(err).includes('Unexpected server response') ? undefined : reject(err)));
  });
}
const joinsInFlight = async (gw: Gateway) =>
  (await gw.metrics.requestsInFlight.get()).values.find((x) => x.labels.op === 'join')?.value ?? 0;
const refused = async (gw: Gateway, scope: string) =>
  (await gw.metrics.socketsRefused.get()).values.find((x) => x.labels.scope === scope)?.value ?? 0;

beforeAll(async () => {
  bus = await NatsBus.connect(process.env.NATS_URL ?? 'nats://127.0.0.1:4222', { prefix: ns });
});
afterAll(async () => {
  for (const c of clients) await c.close();
  for (const g of gateways) await g.close();
  await bus?.close();
});

describe('socket limits', () => {
  it('refuses an address its socket beyond maxSocketsPerIp at the upgrade (429), and admits again after a close', async () => {
    const { gw, url } = await gateway({ maxSocketsPerIp: 5 });
    const five = await Promise.all(Array.from({ length: 5 }, () => open(url)));
    expect((await upgradeStatus(url)).status).toBe(429);
    expect(await refused(gw, 'ip')).toBe(1);
    await five[0].close();
    const again = await upgradeStatus(url);
    expect(again.status).toBe(101);
    again.ws!.close();
  });

  it('refuses any socket beyond maxSockets at the upgrade (503 capacity), keeps the ones it holds, and admits after a close', async () => {
    const { gw, url } = await gateway({ maxSockets: 3, maxSocketsPerIp: 0 });
    const three = await Promise.all(
      ['a', 'b', 'c'].map(async (u) => {
        const c = await open(url);
        expect((await c.hello(await token(`${ns}-cap-${u}`))).t).toBe('welcome');
        return c;
      }),
    );
    const body = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.once('open', () => reject(new Error('the fourth socket opened')));
      ws.once('unexpected-response', (_req, res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      ws.once('error', (err) => (String(err).includes('Unexpected server response') ? undefined : reject(err)));
    });
    expect(body).toEqual({ status: 503, text: 'capacity' });
    expect(await refused(gw, 'gateway')).toBe(1);
    // The sockets it holds still talk to it.
    const pong = three[1].nextNew('pong');
    three[1].send({ v: 1, t: 'ping', at: 1 });
    await pong;
    await three[0].close();
    await expect.poll(async () => (await upgradeStatus(url)).status).toBe(101);
  });

  it('behind a trusted proxy counts the forwarded address, not the proxy', async () => {
    const { url } = await gateway({ maxSocketsPerIp: 2, trustProxyHops: 1 });
    const opened: WebSocket[] = [];
    for (const addr of ['10.0.0.1', '10.0.0.1', '10.0.0.2', '10.0.0.2']) {
      const r = await upgradeStatus(url, { 'x-forwarded-for': `203.0.113.9, ${addr}` });
      expect(r.status).toBe(101);
      opened.push(r.ws!);
    }
    expect((await upgradeStatus(url, { 'x-forwarded-for': '10.0.0.1' })).status).toBe(429);
    expect((await upgradeStatus(url, { 'x-forwarded-for': '10.0.0.3' })).status).toBe(101);
    for (const ws of opened) ws.close();
  });

  it('a user beyond maxSocketsPerUser gets error tooManySockets and close 4429; other users are unaffected', async () => {
    const { gw, url } = await gateway({ maxSocketsPerUser: 3 });
    for (let k = 0; k < 3; k++) expect((await (await open(url)).hello(await token('many'))).t).toBe('welcome');
    const fourth = await open(url);
    const e = await fourth.hello(await token('many'));
    expect(e).toMatchObject({ t: 'error', code: 'tooManySockets', message: ERRORS.tooManySockets });
    await new Promise<void>((r) => (fourth.closed ? r() : fourth.raw.once('close', () => r())));
    expect(fourth.closed!.code).toBe(4429);
    expect(await refused(gw, 'user')).toBe(1);
    expect((await (await open(url)).hello(await token('other'))).t).toBe('welcome');
  });

  it('a socket with maxPendingPerSocket requests unanswered gets error tooManyPending for the next', async () => {
    // Joins to rooms nobody serves stay pending (retried) for the whole budget.
    const { gw, url } = await gateway({ maxPendingPerSocket: 3, retryBudgetMs: 60_000, commandTimeoutMs: 500 });
    const c = await open(url);
    expect((await c.hello(await token('pending'))).t).toBe('welcome');
    for (let k = 0; k < 5; k++) c.send({ v: 1, t: 'join', roomId: `${ns}-void-${k}` });
    const e1 = await c.next((m) => m.code === 'tooManyPending' && m.roomId === `${ns}-void-3`);
    expect(e1.message).toBe(ERRORS.tooManyPending);
    await c.next((m) => m.code === 'tooManyPending' && m.roomId === `${ns}-void-4`);
    // Leaving one ends its join (its retries stop) and frees a place.
    c.send({ v: 1, t: 'leave', roomId: `${ns}-void-0` });
    const t0 = performance.now();
    while ((await joinsInFlight(gw)) !== 2) {
      if (performance.now() - t0 > 10_000) throw new Error('the left join is still pending');
      await new Promise((r) => setTimeout(r, 5));
    }
    const from = c.messages.length;
    c.send({ v: 1, t: 'join', roomId: `${ns}-void-5` });
    c.send({ v: 1, t: 'ping', at: 1 });
    await c.next((m) => m.t === 'pong', 5000, from);
    expect(c.messages.slice(from).filter((m) => m.code === 'tooManyPending')).toEqual([]);
    expect(await joinsInFlight(gw)).toBe(3);
  });
});
