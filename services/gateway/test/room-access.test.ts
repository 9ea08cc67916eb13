/**
 * Issue 10: private-room spectating is checked at the gateway. With
 * GATEWAY_ROOM_ACCESS=lobby the gateway asks the lobby (here a stand-in
 * answering subjects.roomAccess on the real NATS server) before a join, and a
 * non-member's join never reaches the room.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { NatsBus, type Bus, type BusSubscription } from '@joke/bus';
import { ERRORS, subjects, wireText } from '@joke/protocol';
import { DEV_JWT_SECRET, signPlayerToken } from '@joke/protocol/auth';
import { pino } from 'pino';
import { startGateway, type Gateway } from '../src/index.ts';
import { TestClient } from '@joke/session/test-client';

const ns = `gwacc-${randomBytes(4).toString('hex')}`;
const logger = pino({ level: 'silent' });
let bus: Bus;
const gateways: Gateway[] = [];
const clients: TestClient[] = [];
const subs: BusSubscription[] = [];

const privateRoom = `${ns}-private`;
const members = new Set(['member']);
const accessAsked: { userId: string; roomId: string }[] = [];
const joinsSeen: string[] = [];
let lobby: BusSubscription | null = null;

/** The lobby's answer: the private room's game only for members, any other game for anyone. */
function standInLobby(): BusSubscription {
  return bus.subscribe(
    subjects.roomAccess,
    (m) => {
      const q = JSON.parse(wireText(m.data));
      accessAsked.push(q);
      m.respond!(JSON.stringify({ ok: true, allowed: q.roomId !== privateRoom || members.has(q.userId) }));
    },
    { queue: 'lobby' },
  );
}

function standInRoom(roomId: string): void {
  subs.push(
    bus.subscribe(subjects.roomJoin(roomId), (m) => {
      const j = JSON.parse(wireText(m.data));
      joinsSeen.push(`${roomId}:${j.userId}`);
      const frame = JSON.stringify({ v: 1, t: 'view', roomId, seq: 0, role: 'spectator', view: {}, events: [] });
      m.respond!(JSON.stringify({ ok: true, role: 'spectator', seq: 0, owner: 'stand-in/1', frame }));
    }),
  );
}

async function gateway(roomAccess: 'lobby' | 'open'): Promise<string> {
  const gw = await startGateway(
    {
      gatewayId: `${ns}-${roomAccess}`,
      port: 0,
      jwtSecret: DEV_JWT_SECRET,
      roomAccess,
      commandTimeoutMs: 500,
      retryBudgetMs: 1500,
    },
    { bus, logger },
  );
  gateways.push(gw);
  return `ws://127.0.0.1:${gw.port}/ws`;
}

async function signedIn(url: string, sub: string): Promise<TestClient> {
  const c = await TestClient.open(url);
  clients.push(c);
  expect((await c.hello(await signPlayerToken(DEV_JWT_SECRET, { sub, name: sub }))).t).toBe('welcome');
  return c;
}

/** The first view or error about `roomId` after a join. */
async function join(c: TestClient, roomId: string): Promise<any> {
  const from = c.messages.length;
  c.send({ v: 1, t: 'join', roomId, spectate: true });
  return c.next((m) => m.roomId === roomId && (m.t === 'view' || m.t === 'error'), 10_000, from);
}

beforeAll(async () => {
  bus = await NatsBus.connect(process.env.NATS_URL ?? 'nats://127.0.0.1:4222', { prefix: ns });
  lobby = standInLobby();
  standInRoom(privateRoom);
  standInRoom(`${ns}-public`);
  await bus.flush?.();
});
afterAll(async () => {
  for (const c of clients) await c.close();
  for (const g of gateways) await g.close();
  for (const s of subs) s.unsubscribe();
  lobby?.unsubscribe();
  await bus?.close();
});

describe('private-room access at the gateway (GATEWAY_ROOM_ACCESS=lobby)', () => {
  it("refuses a non-member's join to a private room before it reaches the room; members and public rooms pass", async () => {
    const url = await gateway('lobby');
    const outsider = await signedIn(url, 'outsider');
    const refused = await join(outsider, privateRoom);
    expect(refused).toMatchObject({
      t: 'error',
      code: 'privateRoom',
      message: ERRORS.privateRoom,
      roomId: privateRoom,
    });
    expect(joinsSeen).not.toContain(`${privateRoom}:outsider`);
    expect((await join(outsider, `${ns}-public`)).t).toBe('view');

    const member = await signedIn(url, 'member');
    expect((await join(member, privateRoom)).t).toBe('view');
    expect(joinsSeen).toContain(`${privateRoom}:member`);
    expect(accessAsked).toContainEqual({ v: 1, userId: 'outsider', roomId: privateRoom });
  });

  it('without an answer from the lobby the join is refused as unavailable, never let through', async () => {
    const url = await gateway('lobby');
    lobby!.unsubscribe();
    await bus.flush?.();
    try {
      const c = await signedIn(url, 'late');
      expect(await join(c, privateRoom)).toMatchObject({ t: 'error', code: 'unavailable', roomId: privateRoom });
      expect(joinsSeen).not.toContain(`${privateRoom}:late`);
    } finally {
      lobby = standInLobby();
      await bus.flush?.();
    }
  });

  it('GATEWAY_ROOM_ACCESS=open (stacks without a lobby) does not ask', async () => {
    const url = await gateway('open');
    const asked = accessAsked.length;
    const c = await signedIn(url, 'anyone');
    expect((await join(c, privateRoom)).t).toBe('view');
    expect(accessAsked).toHaveLength(asked);
  });
});
