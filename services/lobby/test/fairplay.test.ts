/**
 * Fair-play signals end to end in the lobby: seeded poker records (engine/src/fairplay/world.ts, a scripted
 * colluding pair c1/c2 among honest players) arrive as RoomFinished, are stored with their totals, and the
 * operator view lists the pair with its evidence hands linked to their 복기. operator.fairplay refuses (no
 * data) without the operator token, with a wrong one and with a player's token; /operator serves the page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { InProcessBus } from '@joke/bus';
import { subjects, type bus as wire } from '@joke/protocol';
import { Rng } from '@joke/engine/core/rng';
import { playGame } from '@joke/engine/fairplay/world';
import type { AppRouter } from '../src/index.ts';
import { lobbyConfigFromEnv } from '../src/config.ts';
import { startLobbyServer, type LobbyServer } from '../src/server.ts';
import { clientFor, uniqueSchema } from './helpers/harness.ts';

const OPERATOR_TOKEN = 'operator-test-token-0123456789';
function operatorClient(server: LobbyServer, token?: string) {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({ url: `${server.url}/trpc`, headers: () => (token ? { authorization: `Bearer ${token}` } : {}) }),
    ],
  });
}

/** Seeded games: the pair in every game with four of eight honest players (made once, for both databases). */
let made: wire.RoomFinished[] | null = null;
function games(count: number): wire.RoomFinished[] {
  made ??= makeGames(14);
  return made.slice(0, count);
}

function makeGames(count: number): wire.RoomFinished[] {
  const rng = Rng.fromSeed('lobby-fairplay');
  const honest = Array.from({ length: 8 }, (_, i) => `h${i + 1}`);
  const partners = new Map([
    ['c1', 'c2'],
    ['c2', 'c1'],
  ]);
  return Array.from({ length: count }, (_, g) => {
    const pool = [...honest];
    const table = ['c1', 'c2'];
    while (table.length < 6) table.push(pool.splice(rng.int(pool.length), 1)[0]);
    const record = playGame(`lobby-fp:${g}`, table, partners, rng);
    return {
      v: 1,
      roomId: `fp-game-${g}`,
      game: 'poker',
      mode: 'holdem',
      players: table.map((id) => ({ id, name: `이름${id}`, bot: false })),
      record: record as unknown as Record<string, unknown>,
      result: record.result as unknown as Record<string, unknown>,
      finishedAt: record.startedAt + 60_000 * (g + 1),
    };
  });
}

describe.each(['postgresql', 'pglite'] as const)('fair-play operator view on %s', (kind) => {
  const schema = uniqueSchema('fairplay');
  const bus = new InProcessBus();
  let server: LobbyServer;
  beforeAll(async () => {
    const config = lobbyConfigFromEnv({
      HOST: '127.0.0.1',
      PORT: '0',
      OPS_PORT: '0',
      DATABASE_URL: kind === 'postgresql' ? schema.url : '',
      JWT_SECRET: 's'.repeat(32),
      OPERATOR_TOKEN,
    });
    server = await startLobbyServer(config, { bus, logger: pino({ level: 'silent' }) });
    for (const msg of games(14)) bus.publish(subjects.roomFinished, JSON.stringify(msg));
    // Delivered on a later turn of the event loop; then wait until every one is stored and evaluated.
    await new Promise((r) => setImmediate(r));
    await server.lobby.idle();
  }, 600_000);

  afterAll(async () => {
    await server?.close();
    await bus.close();
    await schema.drop();
  });

  async function refusal(p: Promise<unknown>): Promise<{ code: unknown; data: unknown }> {
    const e = await p.then(
      () => null,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(TRPCClientError);
    const err = e as TRPCClientError<AppRouter>;
    return { code: err.data?.code, data: (err as unknown as { result?: unknown }).result };
  }

  it('refuses without, with a wrong and with a player credential, and hands out no data', async () => {
    const player = await clientFor(server.url).auth.guest.mutate({ nickname: '평범한손님' });
    for (const token of [undefined, 'wrong-token-wrong-token-wrong', player.token]) {
      const r = await refusal(operatorClient(server, token).operator.fairplay.query());
      expect(r.code).toBe('UNAUTHORIZED');
      expect(r.data).toBeUndefined();
    }
    // The raw HTTP answer holds the error alone.
    const res = await fetch(`${server.url}/trpc/operator.fairplay`, { headers: { authorization: 'Bearer nope' } });
    expect(res.status).toBe(401);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['error']);
    // Quoted: a test server (NODE_ENV=test) adds its stack, whose paths may hold "c1" (a clone in /tmp/cc1 did).
    expect(JSON.stringify(body)).not.toContain('"c1"');
    expect(JSON.stringify(body)).not.toContain('이름c1');
  });

  it('flags the scripted pair with evidence hands linked to their replay, and no honest pair', async () => {
    const view = await operatorClient(server, OPERATOR_TOKEN).operator.fairplay.query();
    const pair = view.pairs.find((p) => p.a.id === 'c1' && p.b.id === 'c2');
    expect(pair, JSON.stringify(view.pairs.map((p) => [p.a.id, p.b.id]))).toBeDefined();
    expect(pair!.a.name).toBe('이름c1');
    expect(pair!.hands).toBeGreaterThan(100);
    expect(pair!.games).toBe(14);
    expect(pair!.tableOverlap).toBe(1);
    expect(pair!.flag.p).toBeLessThan(1e-4);
    const folds = pair!.evidence.filter((e) => e.kind === 'strongFold');
    expect(folds.length).toBeGreaterThan(0);
    for (const e of pair!.evidence) expect(e.replayUrl).toBe(`/?replay=${e.gameId}`);
    expect(view.pairs.filter((p) => !p.a.id.startsWith('c') || !p.b.id.startsWith('c'))).toEqual([]);
    // Flag metrics on the ops port.
    const metrics = await (await fetch(`${server.opsUrl}/metrics`)).text();
    expect(metrics).toMatch(/joke_lobby_fairplay_flags_total\{kind="pair"\} [1-9]/);
    expect(metrics).toMatch(/joke_lobby_fairplay_games_total\{outcome="analysed"\} 14\b/);
  });

  it('adds a redelivered game only once', async () => {
    const handsOf = async () =>
      (await operatorClient(server, OPERATOR_TOKEN).operator.fairplay.query()).pairs.find((p) => p.a.id === 'c1')
        ?.hands;
    const before = await handsOf();
    expect(before).toBeGreaterThan(0);
    const [again] = games(1);
    bus.publish(subjects.roomFinished, JSON.stringify(again));
    await new Promise((r) => setImmediate(r));
    await server.lobby.idle();
    expect(await handsOf()).toBe(before);
  });

  it('serves the operator page and its script (no data in either)', async () => {
    const page = await fetch(`${server.url}/operator`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toContain('공정 플레이 점검');
    expect(html).toContain('운영자 토큰');
    expect(html).not.toContain('c1');
    const js = await fetch(`${server.url}/operator/app.js`);
    expect(js.status).toBe(200);
    expect(await js.text()).toContain('/trpc/operator.fairplay');
  });
});
