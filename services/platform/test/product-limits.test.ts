/**
 * The lobby's abuse limits hold where `npm start` mounts it, on the
 * platform's one HTTP port (issue 10): a 200 MiB POST gets 413 without being
 * buffered and the product keeps serving, and the limit settings given to the
 * platform reach its lobby.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startProduct, type Product } from '../src/index.ts';

const PG_BASE = process.env.LOBBY_TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const schema = `product_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
const MiB = 1024 * 1024;

let p: Product;
beforeAll(async () => {
  p = await startProduct({
    port: 0,
    gatewayPort: 0,
    opsPort: 0,
    natsUrl: '',
    redisUrl: '',
    logLevel: 'silent',
    databaseUrl: `${PG_BASE}?schema=${schema}`,
    guestPerIp: 3,
  });
});
afterAll(async () => {
  await p?.close();
  const c = new pg.Client({ connectionString: PG_BASE });
  await c.connect();
  await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await c.end();
});

/** Streams `total` bytes (one reused 64 KiB chunk, chunked encoding) until the server answers. */
function streamedPost(url: string, total: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let answered = false;
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json' } });
    req.on('response', (res) => {
      answered = true;
      res.resume();
      res.on('end', () => {
        req.destroy();
        resolve(res.statusCode ?? 0);
      });
    });
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    let sent = 0;
    const pump = (): void => {
      while (!answered && sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}

const signIn = (nickname: string) =>
  fetch(`${p.httpUrl}/trpc/auth.guest`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ nickname }),
  });

describe('lobby limits on the embedded platform', () => {
  it('a streamed 200 MiB POST to /trpc gets 413 unbuffered; the product keeps serving', async () => {
    const before = process.memoryUsage().rss;
    expect(await streamedPost(`${p.httpUrl}/trpc/auth.guest`, 200 * MiB)).toBe(413);
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * MiB);
    expect((await signIn('버팀')).status).toBe(200);
    expect((await fetch(`${p.httpUrl}/readyz`)).status).toBe(200);
  });

  it('the platform passes its limit settings to the lobby (here 3 sign-ins per address per minute)', async () => {
    // One sign-in above already counted.
    expect((await signIn('둘째')).status).toBe(200);
    expect((await signIn('셋째')).status).toBe(200);
    const refused = await signIn('넷째');
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/요청이 너무 많아요/);
  });
});
