/**
 * The swarm's guest sign-in against a stand-in lobby speaking tRPC's HTTP
 * wire format: "too many requests" answers are waited out and counted, and a
 * token cache makes the next run resume the same identities.
 */
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lobbyAuthenticator } from '../src/auth.ts';

let server: Server;
let url: string;
const bodies: { nickname: string; resumeToken?: string }[] = [];
let refuseNext = 0;
let issued = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      expect(req.method).toBe('POST');
      expect(req.url).toBe('/trpc/auth.guest');
      const input = JSON.parse(text);
      bodies.push(input);
      if (refuseNext > 0) {
        refuseNext--;
        res.writeHead(429, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ error: { message: '요청이 너무 많아요', code: -32029 } }));
      }
      const userId = input.resumeToken ? input.resumeToken.replace('tok-', '') : `u_${++issued}`;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ result: { data: { userId, nickname: input.nickname, token: `tok-${userId}` } } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}/trpc`;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('guest sign-in through the lobby', () => {
  it('waits out 429 answers, then signs in; a token cache resumes the same guests next run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'joke-auth-'));
    const cacheFile = join(dir, 'tokens.json');
    try {
      let throttled = 0;
      const signIns: number[] = [];
      const hooks = { signedIn: (ms: number) => signIns.push(ms), throttled: () => throttled++, stopping: () => false };
      refuseNext = 2;
      const first = lobbyAuthenticator({ lobbyUrl: url, concurrency: 2, cacheFile, hooks });
      const a = await first.identity('w0-1-p0');
      const b = await first.identity('w0-1-p1');
      expect(throttled).toBe(2);
      expect(signIns).toHaveLength(2);
      expect([a.userId, b.userId]).toEqual(['u_1', 'u_2']);
      expect(bodies.slice(0, 3).map((x) => x.resumeToken)).toEqual([undefined, undefined, undefined]);
      for (const x of bodies) expect([...x.nickname].length).toBeLessThanOrEqual(12);
      first.save();

      const second = lobbyAuthenticator({ lobbyUrl: url, concurrency: 2, cacheFile, hooks });
      const again = await second.identity('w0-1-p1');
      expect(again.userId).toBe('u_2');
      expect(bodies.at(-1)).toEqual({ nickname: b.name, resumeToken: 'tok-u_2' });
      expect(issued).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives up on an answer that retrying cannot fix (400)', async () => {
    const bad = createServer((_req, res) => res.writeHead(400).end('{"error":{"message":"닉네임"}}'));
    await new Promise<void>((r) => bad.listen(0, '127.0.0.1', r));
    const port = (bad.address() as { port: number }).port;
    try {
      const auth = lobbyAuthenticator({
        lobbyUrl: `http://127.0.0.1:${port}/trpc`,
        concurrency: 1,
        cacheFile: '',
        hooks: { signedIn: () => {}, throttled: () => {}, stopping: () => false },
      });
      await expect(auth.identity('w0-0-p0')).rejects.toThrow(/400/);
    } finally {
      await new Promise<void>((r) => bad.close(() => r()));
    }
  });
});
