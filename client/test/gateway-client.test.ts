/**
 * The client's networking against the real stack (no browser): the typed
 * lobby client signs in and starts a table with bots, then GatewayClient
 * says hello, joins, acts with retry-safe action ids, survives a dropped
 * socket by re-joining its seat, and a spectator connection sees no hand.
 */
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import type { AppRouter } from '@joke/lobby';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayClient, newActionId, type ConnStatus, type ViewFrame } from '../src/net/gateway.ts';
import type { OneCardView } from '../src/cards/model.ts';
import { startStack, type Stack } from './support/stack.ts';
import { waitFor } from './support/table-driver.ts';

let stack: Stack;

function lobbyAs(token: () => string | null) {
  return createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: `${stack.httpUrl}/trpc`,
        headers: () => {
          const t = token();
          return t ? { authorization: `Bearer ${t}` } : {};
        },
      }),
    ],
  });
}

function connect(token: string): { gw: GatewayClient; views: ViewFrame[]; statuses: ConnStatus[]; errors: string[] } {
  const gw = new GatewayClient({
    url: stack.gatewayUrl,
    token: () => token,
    WebSocketImpl: WebSocket as unknown as typeof globalThis.WebSocket,
    backoffBaseMs: 100,
  });
  const views: ViewFrame[] = [];
  const statuses: ConnStatus[] = [];
  const errors: string[] = [];
  gw.on('view', (f) => views.push(f));
  gw.on('status', (s) => statuses.push(s));
  gw.on('error', (m, code) => errors.push(`${code}: ${m}`));
  gw.connect();
  return { gw, views, statuses, errors };
}

beforeAll(async () => {
  // Slow bots, so the test can take its own turn between theirs.
  stack = await startStack({ botDelayMs: 400, botJitterMs: 100 });
});

afterAll(async () => {
  await stack?.close();
});

describe('GatewayClient against the real gateway', () => {
  it('joins, retries an action under the same id without applying it twice, resumes after a dropped socket; spectators get no hand', async () => {
    let token: string | null = null;
    const api = lobbyAs(() => token);
    const me = await api.auth.guest.mutate({ nickname: '네트워크' });
    token = me.token;
    expect(await api.auth.me.query()).toEqual({ userId: me.userId, nickname: '네트워크' });
    const games = await api.games.list.query();
    const oc = games.find((g) => g.id === 'one-card');
    expect(oc?.modes.map((m) => m.id)).toEqual(['classic', 'uno-style']);
    const room = await api.rooms.create.mutate({ game: 'one-card', options: { mode: 'classic', turnSeconds: 60 } });
    for (let i = 0; i < 3; i++) await api.rooms.addBot.mutate({ roomId: room.roomId });
    const started = await api.rooms.start.mutate({ roomId: room.roomId });
    const gameRoomId = started.gameRoomId;

    const player = connect(me.token);
    player.gw.join(gameRoomId);
    const first = await waitFor('first view', async () => player.views[0]);
    expect(first.role).toBe('player');
    expect((first.view as OneCardView).hand?.length).toBe(7);
    expect(player.statuses).toContain('online');

    // Our turn: draw with a chosen id, then send the very same action id again (a client retry).
    const myTurn = await waitFor(
      'my turn',
      async () => {
        const v = player.views.at(-1)?.view as OneCardView | undefined;
        return v && v.current === me.userId && v.phase.kind === 'turn' && v.legal.canDraw ? v : null;
      },
      30_000,
    );
    const handBefore = myTurn.hand!.length;
    const id = newActionId();
    const r1 = await player.gw.act(gameRoomId, { type: 'draw' }, id);
    expect(r1.ok).toBe(true);
    const r2 = await player.gw.act(gameRoomId, { type: 'draw' }, id);
    expect(r2).toEqual(r1);
    const after = await waitFor('view after the draw', async () => {
      const f = player.views.find((x) => r1.ok && x.seq === r1.seq);
      return f ? (f.view as OneCardView) : null;
    });
    expect(after.hand!.length).toBe(handBefore + myTurn.legal.drawCount);
    // Not our turn any more: a fresh action is refused with the engine's Korean reason.
    const again = await player.gw.act(gameRoomId, { type: 'draw' });
    expect(again.ok).toBe(false);
    if (!again.ok) expect(again.reason).toMatch(/[가-힣]/);

    // The socket dies; the client reconnects, says hello again and re-joins: a fresh view resumes the seat.
    const seen = player.views.length;
    player.gw.dropConnection();
    await waitFor('reconnecting', async () => player.statuses.includes('reconnecting'));
    await waitFor('back online', async () => player.gw.status === 'online');
    const resumed = await waitFor('view after rejoin', async () => player.views.slice(seen).at(-1));
    expect(resumed.role).toBe('player');
    expect((resumed.view as OneCardView).viewer).toBe(me.userId);

    // A spectator on another connection: every view it gets has no hand and no legal cards.
    let watcherToken: string | null = null;
    const api2 = lobbyAs(() => watcherToken);
    const watcher = await api2.auth.guest.mutate({ nickname: '관전러' });
    watcherToken = watcher.token;
    const detail = await api2.rooms.spectate.mutate({ roomId: room.roomId });
    expect(detail.gameRoomId).toBe(gameRoomId);
    const spec = connect(watcher.token);
    spec.gw.join(gameRoomId, true);
    // The bots may already be waiting on us: keep taking our turns (draw) so the spectator sees the game move.
    await waitFor(
      'spectator views',
      async () => {
        const v = player.views.at(-1)?.view as OneCardView | undefined;
        if (v && v.current === me.userId && v.phase.kind === 'turn' && v.legal.canDraw)
          await player.gw.act(gameRoomId, { type: 'draw' });
        return spec.views.length >= 3;
      },
      30_000,
    );
    for (const f of spec.views) {
      expect(f.role).toBe('spectator');
      const v = f.view as OneCardView;
      expect(v.hand).toBeNull();
      expect(v.legalCardIds).toEqual([]);
    }
    const denied = await spec.gw.act(gameRoomId, { type: 'draw' });
    expect(denied.ok).toBe(false);

    // An unknown room is reported, not retried forever.
    player.gw.join('no-such-room');
    await waitFor('noRoom error', async () => player.errors.find((e) => e.startsWith('noRoom')));

    player.gw.close();
    spec.gw.close();
    expect(player.gw.status).toBe('closed');
  });
});
