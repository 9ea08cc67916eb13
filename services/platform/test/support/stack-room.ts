/**
 * A room on a running stack, as the platform's tests set one up: the matchmaker's `createRoom` request
 * straight to the workers (no queue), the room found on whichever in-process worker holds it, and a
 * player's TestClient past hello and join; the one-worker stack over the real NATS and Redis they run on.
 *
 * Failure modes: `createRoom` throws with the worker's reply when it is not ok (a test must not go on to
 * join a room that was never made); `roomOf` throws when no worker of this process holds the room (a
 * room of a worker in another process is not visible here); `joined` times out on its first view.
 */
import { expect } from 'vitest';
import type { Bus } from '@joke/bus';
import { subjects, wireText } from '@joke/protocol';
import { DEV_JWT_SECRET, signPlayerToken } from '@joke/protocol/auth';
import type { Room, RoomWorker } from '@joke/room-worker';
import { startStack, type Stack } from '@joke/load-tests';
import { TestClient } from '@joke/session/test-client';

/** One gateway, one room worker with quick bots, one matchmaker, over NATS_URL and REDIS_URL (or the local ones). */
export function startOneWorkerStack(gatewayConfig?: Record<string, unknown>): Promise<Stack> {
  return startStack({
    natsUrl: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    workers: 1,
    workerConfig: { botDelayMs: 5, botJitterMs: 10 },
    ...(gatewayConfig ? { gatewayConfig } : {}),
  });
}

export interface RoomSpec {
  roomId: string;
  game: string;
  options: Record<string, unknown>;
  /** Names default to the ids. */
  players: { id: string; name?: string; bot: boolean }[];
}

/** Asks the room workers for `spec` over `bus`; resolves with the reply (ok checked). */
export async function createRoom(bus: Bus, spec: RoomSpec, timeoutMs = 5000): Promise<Record<string, unknown>> {
  const room = { ...spec, players: spec.players.map((p) => ({ ...p, name: p.name ?? p.id })) };
  const reply = JSON.parse(wireText(await bus.request(subjects.createRoom, JSON.stringify({ v: 1, room }), timeoutMs)));
  expect(reply, `createRoom ${spec.roomId}`).toMatchObject({ ok: true });
  return reply;
}

/** The room `roomId` on whichever of `workers` holds it. */
export function roomOf(workers: readonly RoomWorker[], roomId: string): Room {
  for (const w of workers) {
    const r = w.room(roomId);
    if (r) return r;
  }
  throw new Error(`room ${roomId} not found on any worker`);
}

/** A development-secret token for `sub` (named after it). */
export const devToken = (sub: string): Promise<string> => signPlayerToken(DEV_JWT_SECRET, { sub, name: sub });

/** A TestClient of `userId` at `url`, welcomed and joined to `roomId` (its first view of the room arrived). */
export async function joined(
  url: string,
  userId: string,
  roomId: string,
  opts: { spectate?: boolean; timeoutMs?: number } = {},
): Promise<TestClient> {
  const c = await TestClient.open(url);
  expect((await c.hello(await devToken(userId))).t).toBe('welcome');
  c.send({ v: 1, t: 'join', roomId, ...(opts.spectate ? { spectate: true } : {}) });
  await c.next((m) => m.t === 'view' && m.roomId === roomId, opts.timeoutMs);
  return c;
}
