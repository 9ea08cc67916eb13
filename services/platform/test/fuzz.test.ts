/**
 * The permanent fuzz guard (issue 36): random and adversarial input at every
 * entry point of a running `npm start` — raw HTTP requests (broken
 * percent-escapes, odd methods, hostile headers and bodies), every tRPC
 * procedure of the lobby with inputs shaped after its own schema, and every
 * client WebSocket frame type with random fields. It fails when the process
 * dies, when its last resort had to catch anything, when anything answers 5xx
 * or not at all, or when its heap grows past a bound.
 *
 * Count-bounded, not timed: JOKE_FUZZ_RUNS cases per entry point (default 60),
 * from the seed printed at the start (JOKE_FUZZ_SEED replays it). The release
 * check runs far more: `npm run fuzz -- --runs 20000` (services/platform/scripts/fuzz.mjs).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rmSync } from 'node:fs';
import fc from 'fast-check';
import WebSocket from 'ws';
import { appRouter } from '@joke/lobby';
import { ClientMessage } from '@joke/protocol';
import { signPlayerToken } from '@joke/protocol/auth';
import {
  fakeClientDir,
  freshSchema,
  rawRequest,
  startProductProcess,
  type LiveProcess,
} from './support/live-process.ts';
import { frameArb, httpArb, trpcInputArb } from './support/fuzz-inputs.ts';

const RUNS = Number(process.env.JOKE_FUZZ_RUNS ?? 60);
const SEED = Number(process.env.JOKE_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
/** Heap the whole run may add (MiB): far above what the cases hold, far below a leak of one buffer per request. */
const HEAP_GROWTH_MIB = 160;
const SECRET = 'fuzz-secret-0123456789abcdef-0123456789';
// One case waits at most 15 s for an answer; the whole file scales with the count (the release run is long).
vi.setConfig({ testTimeout: Math.max(120_000, RUNS * 200), hookTimeout: 200_000 });

const clientDir = fakeClientDir();
const schema = freshSchema('fuzz');
let p: LiveProcess;
let token: string;
let heapBefore = 0;

async function heapUsed(): Promise<number> {
  const text = await (await fetch(`${p.opsUrl}/metrics`)).text();
  return Number(/^nodejs_heap_size_used_bytes (\S+)$/m.exec(text)![1]);
}

beforeAll(async () => {
  console.log(
    `fuzz: seed ${SEED}, ${RUNS} runs per entry point (replay: JOKE_FUZZ_SEED=${SEED} JOKE_FUZZ_RUNS=${RUNS})`,
  );
  p = await startProductProcess({
    DATABASE_URL: schema.url,
    CLIENT_DIR: clientDir,
    JWT_SECRET: SECRET,
    // Limits would answer most cases with 429 before they reach a handler: lifted so the handlers are fuzzed.
    GATEWAY_RATE_PER_SECOND: '100000',
    GATEWAY_RATE_BURST: '100000',
    GATEWAY_RETRY_BUDGET_MS: '500',
    LOBBY_RATE_GUEST_PER_IP: '0',
    LOBBY_RATE_GUEST_PER_USER: '0',
    LOBBY_RATE_CREATE_PER_IP: '0',
    LOBBY_RATE_CREATE_PER_USER: '0',
    LOBBY_RATE_JOIN_PER_IP: '0',
    LOBBY_RATE_JOIN_PER_USER: '0',
  });
  token = await signPlayerToken(SECRET, { sub: 'fuzzer1', name: '퍼저' }, 3600);
  heapBefore = await heapUsed();
});

afterAll(async () => {
  await p?.stop();
  await schema.drop();
  rmSync(clientDir, { recursive: true, force: true });
});

/** What a fuzz case may get back: any answer below 500, a refused connection, or /readyz saying not yet. */
function expectHandled(status: number | null, what: string): void {
  if (status === null || status < 500 || (status === 503 && /^\/readyz\b/.test(what))) return;
  throw new Error(`${what} answered ${status}`);
}

function expectAlive(): void {
  if (!p.alive()) throw new Error(`npm start died:\n${p.out.join('').slice(-4000)}`);
  const caught = p.lastResortLines();
  if (caught.length)
    throw new Error(`the last resort caught ${caught.length} stray errors:\n${p.out.join('').slice(-4000)}`);
}

/** A procedure's input field names, read from its zod object schema through defaults and refinements. */
function inputKeys(proc: any): string[] {
  let s = proc._def.inputs?.[0];
  for (let i = 0; i < 6 && s; i++) {
    if (s.shape) return Object.keys(s.shape);
    s = s._def?.innerType ?? s._def?.in ?? s._def?.schema;
  }
  return [];
}

const procedures = Object.entries(appRouter._def.procedures as Record<string, any>).map(([path, proc]) => ({
  path,
  type: proc._def.type as string,
  keys: inputKeys(proc),
}));
const frameFields = Object.fromEntries(
  (ClientMessage.options as any[]).map((o) => [o.shape.t.value as string, Object.keys(o.shape)]),
);

describe('fuzz guard: npm start survives hostile input at every entry point', () => {
  it('raw HTTP: paths, percent-escapes, methods, headers, bodies', async () => {
    await fc.assert(
      fc.asyncProperty(httpArb, async (r) => {
        expectHandled(await rawRequest(p.httpUrl, r.head, r.body), r.head.split('\r\n')[0]);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    expectAlive();
  });

  it(`tRPC: every procedure (${procedures.length}) with inputs shaped after its schema, signed in or not`, async () => {
    expect(procedures.length).toBeGreaterThan(10);
    const call = fc
      .tuple(fc.constantFrom(...procedures), fc.constantFrom('valid', 'none', 'garbage'), fc.boolean())
      .chain(([proc, auth, batch]) => trpcInputArb(proc.keys).map((input) => ({ proc, auth, batch, input })));
    await fc.assert(
      fc.asyncProperty(call, async ({ proc, auth, batch, input }) => {
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (auth === 'valid') headers.authorization = `Bearer ${token}`;
        if (auth === 'garbage') headers.authorization = 'Bearer x.y.z';
        const wire = batch ? { 0: input } : input;
        const json = wire === undefined ? undefined : JSON.stringify(wire);
        const q = batch ? '?batch=1' : '';
        const res =
          proc.type === 'query'
            ? await fetch(
                `${p.httpUrl}/trpc/${proc.path}${q}${json === undefined ? '' : `${q ? '&' : '?'}input=${encodeURIComponent(json)}`}`,
                { headers },
              )
            : await fetch(`${p.httpUrl}/trpc/${proc.path}${q}`, { method: 'POST', headers, body: json ?? '' });
        await res.arrayBuffer();
        expectHandled(res.status, `${proc.path} ${json?.slice(0, 300)}`);
      }),
      { seed: SEED, numRuns: RUNS * 2, endOnFailure: true },
    );
    expectAlive();
  });

  it('WebSocket: every client frame type with random fields, random JSON and bytes', async () => {
    const frames = fc.tuple(fc.array(frameArb(frameFields), { minLength: 1, maxLength: 8 }), fc.boolean());
    await fc.assert(
      fc.asyncProperty(frames, async ([list, signIn]) => {
        const ws = new WebSocket(p.gatewayUrl);
        try {
          await new Promise<void>((resolve, reject) => {
            ws.once('open', () => resolve());
            ws.once('error', reject);
          });
          if (signIn) ws.send(JSON.stringify({ v: 1, t: 'hello', token, revision: 2 }));
          for (const f of list) ws.send(f);
          // Still answering this socket: the ping gets its pong (or `unauthenticated`), or the socket is
          // closed with a code of the protocol. 1011 (a handler threw) and no answer are failures.
          ws.send(JSON.stringify({ v: 1, t: 'ping', at: 7 }));
          const outcome = await new Promise<string>((resolve) => {
            const timer = setTimeout(() => resolve('no answer within 15 s'), 15_000);
            ws.on('message', (m) => {
              const text = String(m);
              if (/"t":"pong","at":7\b/.test(text) || /"code":"unauthenticated"/.test(text)) {
                clearTimeout(timer);
                resolve('ok');
              }
            });
            ws.once('close', (code) => {
              clearTimeout(timer);
              resolve(code === 1011 || code === 1006 ? `closed ${code}` : 'ok');
            });
          });
          if (outcome !== 'ok') throw new Error(`${outcome} after ${JSON.stringify(list).slice(0, 400)}`);
        } finally {
          ws.terminate();
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    expectAlive();
  });

  it('is still alive, serving, caught nothing, and its heap stayed bounded', async () => {
    expectAlive();
    expect((await fetch(`${p.httpUrl}/healthz`)).status).toBe(200);
    const grown = (await heapUsed()) - heapBefore;
    console.log(`fuzz: heap grew ${(grown / 2 ** 20).toFixed(1)} MiB over the run`);
    expect(grown).toBeLessThan(HEAP_GROWTH_MIB * 2 ** 20);
  });
});
