/**
 * Abuse limits on the real stack (PostgreSQL, and Redis for the shared
 * counters): body and batch caps, rate limits per address and per user,
 * rooms per user. docs/security.md lists each limit with its default.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { randomBytes } from 'node:crypto';
import { createTRPCClient, httpBatchLink, httpLink } from '@trpc/client';
import { DEFAULT_LIMITS, LOBBY_MESSAGES as MSG, type AppRouter } from '../src/index.ts';
import { failure, sql, startHarness, uniqueSchema, type Harness } from './helpers/harness.ts';

const REDIS_URL = process.env.LOBBY_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const MiB = 1024 * 1024;

/**
 * POSTs `total` bytes to `url` without holding them (one 64 KiB chunk written
 * again and again, with backpressure), stopping as soon as an answer arrives.
 */
function bigPost(url: string, total: number, declareLength: boolean): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let answered = false;
    const req = request(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(declareLength ? { 'content-length': String(total + 14) } : {}),
      },
    });
    req.on('response', (res) => {
      answered = true;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body });
      });
      res.on('error', reject);
    });
    // Writing into a connection the server cut after answering is expected; anything before the answer is not.
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    let sent = 0;
    const pump = (): void => {
      while (!answered && sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!answered) req.end('"}');
    };
    req.write('{"nickname":"');
    pump();
  });
}

/** A tRPC client that claims to come from `ip` (honoured because the lobby trusts one proxy hop here). */
function clientFrom(url: string, ip: string, token?: string, batch = true) {
  const headers = () => ({ 'x-forwarded-for': ip, ...(token ? { authorization: `Bearer ${token}` } : {}) });
  return createTRPCClient<AppRouter>({
    links: [batch ? httpBatchLink({ url: `${url}/trpc`, headers }) : httpLink({ url: `${url}/trpc`, headers })],
  });
}

describe('request size limits', () => {
  const schema = uniqueSchema('limits');
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ databaseUrl: schema.url });
  });
  afterAll(async () => {
    await h?.close();
    await schema.drop();
  });

  it('answers a streamed 200 MiB POST with 413 without buffering it, and keeps serving', async () => {
    const before = process.memoryUsage().rss;
    const r = await bigPost(`${h.url}/trpc/auth.guest`, 200 * MiB, false);
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body).error.message).toBe(MSG.bodyTooLarge);
    // Buffering the body would have added at least 200 MiB (more as a JS string).
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * MiB);
    expect((await h.anon.auth.guest.mutate({ nickname: '살아있음' })).nickname).toBe('살아있음');
  });

  it('answers a declared 200 MiB body with 413 before reading it', async () => {
    const r = await bigPost(`${h.url}/trpc/auth.guest`, 200 * MiB, true);
    expect(r.status).toBe(413);
    expect((await h.anon.auth.guest.mutate({ nickname: '계속' })).nickname).toBe('계속');
  });

  it('refuses a batch with more calls than LOBBY_MAX_BATCH', async () => {
    const paths = Array.from({ length: DEFAULT_LIMITS.maxBatchSize + 1 }, () => 'games.list').join(',');
    const res = await fetch(`${h.url}/trpc/${paths}?batch=1&input={}`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { message: string } }[] | { error: { message: string } };
    expect(JSON.stringify(body)).toContain(MSG.batchTooLarge);
    const ok = await fetch(`${h.url}/trpc/games.list,games.list?batch=1&input={}`);
    expect(ok.status).toBe(200);
  });

  it('refuses a megabyte nickname on its length, before any per-character work', async () => {
    // Within the body cap but far past the nickname's: refused with the length message.
    const f = await failure(h.anon.auth.guest.mutate({ nickname: 'ㅋ'.repeat(20_000) }));
    expect([f.code, f.message]).toEqual(['BAD_REQUEST', MSG.nicknameLength]);
  });
});

describe('rate limits and room caps', () => {
  const schema = uniqueSchema('limits');
  const namespace = `rl${randomBytes(4).toString('hex')}`;
  const limits = {
    trustProxyHops: 1,
    guestPerIp: 3,
    guestPerUser: 2,
    createPerIp: 4,
    createPerUser: 3,
    joinPerIp: 5,
    joinPerUser: 3,
    maxRoomsPerUser: 2,
  };
  let a: Harness;
  let b: Harness;
  beforeAll(async () => {
    // Two lobby replicas on one Redis: the counters are shared, so a second replica is no way around them.
    a = await startHarness({ databaseUrl: schema.url, limits, redisUrl: REDIS_URL, namespace });
    b = await startHarness({ databaseUrl: schema.url, limits, redisUrl: REDIS_URL, namespace });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await schema.drop();
  });

  it('limits guest sign-ins per address across replicas, with a Korean reason; other addresses are unaffected', async () => {
    await clientFrom(a.url, '10.0.0.1').auth.guest.mutate({ nickname: '하나' });
    await clientFrom(b.url, '10.0.0.1').auth.guest.mutate({ nickname: '둘이' });
    await clientFrom(a.url, '10.0.0.1').auth.guest.mutate({ nickname: '셋이' });
    const f = await failure(clientFrom(b.url, '10.0.0.1').auth.guest.mutate({ nickname: '넷이' }));
    expect(f.code).toBe('TOO_MANY_REQUESTS');
    expect(f.message).toMatch(/^요청이 너무 많아요\. \d+초 뒤에 다시 시도해 주세요$/);
    expect((await clientFrom(a.url, '10.0.0.2').auth.guest.mutate({ nickname: '다른곳' })).nickname).toBe('다른곳');
    const metrics = await a.lobby.metrics.metrics();
    const countedOnB = await b.lobby.metrics.metrics();
    expect(metrics + countedOnB).toContain('joke_lobby_rate_limited_total{action="guest",scope="ip"} 1');
  });

  it('limits renames of one user id whatever address they come from', async () => {
    const me = await clientFrom(a.url, '10.0.1.1').auth.guest.mutate({ nickname: '이름' });
    await clientFrom(a.url, '10.0.1.2', me.token).auth.guest.mutate({ nickname: '이름둘' });
    await clientFrom(a.url, '10.0.1.3', me.token).auth.guest.mutate({ nickname: '이름셋' });
    const f = await failure(clientFrom(a.url, '10.0.1.4', me.token).auth.guest.mutate({ nickname: '이름넷' }));
    expect(f.code).toBe('TOO_MANY_REQUESTS');
  });

  it('caps the rooms one user hosts, and limits room creation per user', async () => {
    const host = await clientFrom(a.url, '10.0.2.1').auth.guest.mutate({ nickname: '방장' });
    const api = clientFrom(a.url, '10.0.2.1', host.token);
    await api.rooms.create.mutate({ game: 'count' });
    await api.rooms.create.mutate({ game: 'count' });
    const capped = await failure(api.rooms.create.mutate({ game: 'count' }));
    expect([capped.code, capped.message]).toEqual(['FORBIDDEN', MSG.tooManyRooms(2)]);
    // The refused third call still counted: a fourth hits the per-user rate limit (3/min).
    const rated = await failure(api.rooms.create.mutate({ game: 'count' }));
    expect(rated.code).toBe('TOO_MANY_REQUESTS');
    const listed = await api.rooms.list.query({ limit: 100 });
    expect(listed.filter((r) => r.hostId === host.userId)).toHaveLength(2);
  });

  it('holds the rooms-per-user cap under concurrent creates on two replicas', async () => {
    const host = await clientFrom(a.url, '10.0.3.1').auth.guest.mutate({ nickname: '동시' });
    // Unbatched, so the three creates are separate requests racing on both replicas.
    const results = await Promise.allSettled([
      clientFrom(a.url, '10.0.3.1', host.token, false).rooms.create.mutate({ game: 'count' }),
      clientFrom(b.url, '10.0.3.2', host.token, false).rooms.create.mutate({ game: 'count' }),
      clientFrom(a.url, '10.0.3.3', host.token, false).rooms.create.mutate({ game: 'count' }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    const refused = results.find((r) => r.status === 'rejected');
    expect((refused as PromiseRejectedResult).reason.message).toBe(MSG.tooManyRooms(2));
    // Counted in the database: the list of replica a may not show b's room yet (it is cached for up to
    // listCacheMs, and b's presence marks travel over a bus these two replicas do not share).
    const mine = await sql<{ n: number }>(schema.schema, 'SELECT count(*)::int AS n FROM rooms WHERE host_id = $1', [
      host.userId,
    ]);
    expect(mine[0].n).toBe(2);
  });

  it('limits room creation per address, whichever user asks', async () => {
    const users = await Promise.all(
      ['10.0.5.1', '10.0.5.2', '10.0.5.3'].map((ip, i) =>
        clientFrom(a.url, ip).auth.guest.mutate({ nickname: `주소${i}` }),
      ),
    );
    const from = (i: number) => clientFrom(a.url, '10.0.5.9', users[i].token);
    await from(0).rooms.create.mutate({ game: 'count' });
    await from(0).rooms.create.mutate({ game: 'count' });
    await from(1).rooms.create.mutate({ game: 'count' });
    await from(1).rooms.create.mutate({ game: 'count' });
    expect((await failure(from(2).rooms.create.mutate({ game: 'count' }))).code).toBe('TOO_MANY_REQUESTS');
  });

  it('limits joins and spectating per user', async () => {
    const host = await clientFrom(a.url, '10.0.4.1').auth.guest.mutate({ nickname: '주인' });
    const room = await clientFrom(a.url, '10.0.4.1', host.token).rooms.create.mutate({ game: 'count' });
    const guest = await clientFrom(a.url, '10.0.4.2').auth.guest.mutate({ nickname: '손님' });
    const api = clientFrom(a.url, '10.0.4.2', guest.token);
    await api.rooms.join.mutate({ roomId: room.roomId });
    await api.rooms.spectate.mutate({ roomId: room.roomId });
    await api.rooms.join.mutate({ roomId: room.roomId });
    const f = await failure(api.rooms.spectate.mutate({ roomId: room.roomId }));
    expect(f.code).toBe('TOO_MANY_REQUESTS');
    const detail = await clientFrom(a.url, '10.0.4.1', host.token).rooms.get.query({ roomId: room.roomId });
    expect(detail.seats.map((s) => s.userId)).toEqual([host.userId, guest.userId]);
  });
});
