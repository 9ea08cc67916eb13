/**
 * The lean tRPC path (src/trpc-http.ts) against tRPC 11's own standalone
 * handler: the same requests to both must give the same status and the same
 * JSON, for results, thrown errors, input validation, malformed input and
 * mixed batches; requests it does not handle must reach tRPC's handler.
 * A router of its own (no database): the wire format does not depend on the lobby's procedures.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initTRPC, TRPCError } from '@trpc/server';
import { createHTTPHandler } from '@trpc/server/adapters/standalone';
import { createTRPCClient, httpBatchLink, httpLink } from '@trpc/client';
import { z } from 'zod';
import { leanTrpcHandler, reusedOutput } from '../src/trpc-http.ts';

const shared = reusedOutput(
  Object.freeze([
    { roomId: 'r1', name: '방 "하나"', n: 1 },
    { roomId: 'r2', n: null },
  ]),
);

interface Ctx {
  user: string | null;
}
const t = initTRPC.context<Ctx>().create({
  isDev: false,
  errorFormatter: ({ shape, error }) => ({ ...shape, data: { ...shape.data, why: error.code } }),
});
const router = t.router({
  echo: t.procedure.input(z.object({ text: z.string().min(2, '두 글자 이상') })).query(({ input, ctx }) => ({
    text: input.text,
    user: ctx.user,
  })),
  none: t.procedure.query(() => 'nothing asked'),
  // The same frozen answer every call, as rooms.list gives between changes: its JSON is kept.
  same: t.procedure.query(() => shared),
  nested: t.router({
    add: t.procedure.input(z.object({ a: z.number(), b: z.number() })).mutation(({ input }) => input.a + input.b),
    refuse: t.procedure.mutation(() => {
      throw new TRPCError({ code: 'FORBIDDEN', message: '안 됩니다' });
    }),
    boom: t.procedure.mutation(() => {
      throw new Error('database on fire');
    }),
  }),
});

const createContext = async (req: IncomingMessage): Promise<Ctx> => ({
  user: typeof req.headers.authorization === 'string' ? req.headers.authorization : null,
});
const trpc = createHTTPHandler({
  router,
  basePath: '/trpc/',
  maxBatchSize: 3,
  createContext: ({ req }) => createContext(req),
});
let fallbacks = 0;
const lean = leanTrpcHandler({
  router,
  basePath: '/trpc/',
  maxBatchSize: 3,
  createContext,
  fallback: (req, res) => {
    fallbacks++;
    trpc(req, res);
  },
});

const servers: Server[] = [];
const urls: string[] = [];
async function listen(h: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const s = createServer(h);
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(s.address() as { port: number }).port}`;
}

beforeAll(async () => {
  urls.push(await listen(trpc), await listen(lean));
});
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

async function both(path: string, init?: RequestInit, json = true): Promise<{ status: number; body: unknown }[]> {
  return Promise.all(
    urls.map(async (u) => {
      const res = await fetch(`${u}/trpc/${path}`, init);
      if (json) expect(res.headers.get('content-type')).toBe('application/json');
      return { status: res.status, body: await res.text() };
    }),
  );
}
const post = (body: string, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body,
});
const q = (v: unknown): string => encodeURIComponent(JSON.stringify(v));

describe('lean tRPC path', () => {
  it('answers exactly as tRPC does, call by call and batched', async () => {
    const cases: [string, RequestInit | undefined][] = [
      [`echo?input=${q({ text: '안녕' })}`, { headers: { authorization: 'Bearer x' } }],
      [`echo?input=${q({ text: '안' })}`, undefined],
      [`echo?input=%7Bbroken`, undefined],
      ['echo', undefined],
      ['none', undefined],
      ['nested.add', post(JSON.stringify({ a: 2, b: 3 }))],
      ['nested.add', post('{"a":2')],
      ['nested.add', post('')],
      ['nested.refuse', post('{}')],
      ['nested.boom', post('{}')],
      ['same', undefined],
      ['same', undefined],
      ['same,echo?batch=1&input=' + q({ 1: { text: '둘둘' } }), undefined],
      [`echo,none?batch=1&input=${q({ 0: { text: '하나둘' } })}`, undefined],
      [`echo,none?batch=1&input=${q({ 0: { text: '' } })}`, undefined],
      [`none,none?batch=1&input=${q([1, 2])}`, undefined],
      ['nested.add,nested.refuse?batch=1', post(JSON.stringify({ 0: { a: 1, b: 1 } }))],
      ['nested.refuse,nested.refuse?batch=1', post('{}')],
    ];
    for (const [path, init] of cases) {
      const [viaTrpc, viaLean] = await both(path, init);
      expect(viaLean, path).toEqual(viaTrpc);
    }
    expect(fallbacks).toBe(0);
  });

  it("leaves what it does not handle to tRPC's handler, which answers it", async () => {
    const before = fallbacks;
    const cases: [string, RequestInit | undefined][] = [
      ['missing', undefined],
      ['nested.add', undefined], // a mutation by GET
      ['echo', post('{}')], // a query by POST
      ['none,none,none,none?batch=1', undefined], // over the batch cap
      ['nested.add', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' }],
    ];
    for (const [path, init] of cases) {
      const [viaTrpc, viaLean] = await both(path, init, false);
      expect(viaLean, path).toEqual(viaTrpc);
      expect(viaLean.status, path).toBeGreaterThanOrEqual(400);
    }
    expect(fallbacks - before).toBe(cases.length);
  });

  it('works with the tRPC client, batched and not', async () => {
    for (const link of [httpBatchLink({ url: `${urls[1]}/trpc` }), httpLink({ url: `${urls[1]}/trpc` })]) {
      const client = createTRPCClient<typeof router>({ links: [link] });
      const [echo, sum] = await Promise.all([
        client.echo.query({ text: '두 사람' }),
        client.nested.add.mutate({ a: 4, b: 5 }),
      ]);
      expect(echo).toEqual({ text: '두 사람', user: null });
      expect(sum).toBe(9);
      await expect(client.nested.refuse.mutate()).rejects.toMatchObject({
        message: '안 됩니다',
        data: { code: 'FORBIDDEN' },
      });
    }
  });
});
