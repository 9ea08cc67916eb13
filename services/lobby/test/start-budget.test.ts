/**
 * Tables started from the lobby (issue 36): `rooms.start` opens a live table
 * on a worker, so it is rate limited per client address and per user like
 * `rooms.create` (LOBBY_RATE_START_PER_IP / _PER_USER). Two replicas on one
 * Redis share the counts; the minute is moved with a fake Date on memory
 * counters (rate-limiter-flexible reads Date.now). A refused start leaves the
 * room waiting and never reaches the matchmaker.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { randomBytes } from 'node:crypto';
import { createTRPCClient, httpLink } from '@trpc/client';
import type { AppRouter } from '../src/index.ts';
import { failure, startHarness, uniqueSchema, type Harness } from './helpers/harness.ts';

const REDIS_URL = process.env.LOBBY_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A tRPC client that claims to come from `ip` (honoured: the lobby trusts one proxy hop here). */
function clientFrom(url: string, ip: string, token?: string) {
  const headers = () => ({ 'x-forwarded-for': ip, ...(token ? { authorization: `Bearer ${token}` } : {}) });
  return createTRPCClient<AppRouter>({ links: [httpLink({ url: `${url}/trpc`, headers })] });
}

/** A signed-in host from `ip` with a full duel room (one bot), ready to start. */
async function readyRoom(h: Harness, ip: string, nickname: string) {
  const me = await clientFrom(h.url, ip).auth.guest.mutate({ nickname });
  const api = clientFrom(h.url, ip, me.token);
  const room = await api.rooms.create.mutate({ game: 'count', options: { mode: 'duel' } });
  await api.rooms.addBot.mutate({ roomId: room.roomId });
  return { api, roomId: room.roomId };
}

const generous = { trustProxyHops: 1, guestPerIp: 0, createPerIp: 0, createPerUser: 0, maxRoomsPerUser: 10 };

describe('rooms.start budget on two replicas sharing Redis', () => {
  const schema = uniqueSchema('startbudget');
  const namespace = `sb${randomBytes(4).toString('hex')}`;
  const limits = { ...generous, startPerIp: 3, startPerUser: 2 };
  let a: Harness;
  let b: Harness;
  beforeAll(async () => {
    a = await startHarness({ databaseUrl: schema.url, limits, redisUrl: REDIS_URL, namespace });
    b = await startHarness({ databaseUrl: schema.url, limits, redisUrl: REDIS_URL, namespace });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await schema.drop();
  });

  it('one address with many hosts starts at most N tables a minute across replicas; the refused room stays waiting', async () => {
    const ip = '10.9.0.1';
    const hosts = [];
    for (let i = 0; i < 5; i++) hosts.push(await readyRoom(i % 2 ? b : a, ip, `시작${i}`));
    const sent = () => a.mm.requests.length + b.mm.requests.length;
    await hosts[0].api.rooms.start.mutate({ roomId: hosts[0].roomId });
    await hosts[1].api.rooms.start.mutate({ roomId: hosts[1].roomId });
    await hosts[2].api.rooms.start.mutate({ roomId: hosts[2].roomId });
    expect(sent()).toBe(3);
    const f = await failure(hosts[3].api.rooms.start.mutate({ roomId: hosts[3].roomId }));
    expect(f.code).toBe('TOO_MANY_REQUESTS');
    expect(f.message).toMatch(/^요청이 너무 많아요\. \d+초 뒤에 다시 시도해 주세요$/);
    expect(sent()).toBe(3);
    const room = await hosts[3].api.rooms.get.query({ roomId: hosts[3].roomId });
    expect(room.status).toBe('waiting');
    // Another address starts as usual.
    const other = await readyRoom(a, '10.9.0.2', '다른곳');
    expect((await other.api.rooms.start.mutate({ roomId: other.roomId })).gameRoomId).toBeTruthy();
    const counted = (await a.lobby.metrics.metrics()) + (await b.lobby.metrics.metrics());
    expect(counted).toContain('joke_lobby_rate_limited_total{action="start",scope="ip"} 1');
  });

  it('one user starts at most N tables a minute, whatever address they come from', async () => {
    const me = await clientFrom(a.url, '10.9.1.1').auth.guest.mutate({ nickname: '연속' });
    const rooms = [];
    for (let i = 0; i < 3; i++) {
      const api = clientFrom(i % 2 ? b.url : a.url, `10.9.1.${i + 1}`, me.token);
      const room = await api.rooms.create.mutate({ game: 'count', options: { mode: 'duel' } });
      await api.rooms.addBot.mutate({ roomId: room.roomId });
      rooms.push({ api, roomId: room.roomId });
    }
    await rooms[0].api.rooms.start.mutate({ roomId: rooms[0].roomId });
    await rooms[1].api.rooms.start.mutate({ roomId: rooms[1].roomId });
    expect((await failure(rooms[2].api.rooms.start.mutate({ roomId: rooms[2].roomId }))).code).toBe(
      'TOO_MANY_REQUESTS',
    );
  });
});

describe('rooms.start budget window', () => {
  const schema = uniqueSchema('startwindow');
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ databaseUrl: schema.url, limits: { ...generous, startPerIp: 1, startPerUser: 0 } });
  });
  afterAll(async () => {
    await h?.close();
    await schema.drop();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('the next minute the address may start again', async () => {
    // Only Date is faked, and it keeps moving; setSystemTime jumps it past the window.
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    const first = await readyRoom(h, '10.9.2.1', '첫판');
    const second = await readyRoom(h, '10.9.2.1', '두판');
    await first.api.rooms.start.mutate({ roomId: first.roomId });
    expect((await failure(second.api.rooms.start.mutate({ roomId: second.roomId }))).code).toBe('TOO_MANY_REQUESTS');
    vi.setSystemTime(Date.now() + 55_000);
    expect((await failure(second.api.rooms.start.mutate({ roomId: second.roomId }))).code).toBe('TOO_MANY_REQUESTS');
    vi.setSystemTime(Date.now() + 6_000);
    expect((await second.api.rooms.start.mutate({ roomId: second.roomId })).gameRoomId).toBeTruthy();
  });
});
