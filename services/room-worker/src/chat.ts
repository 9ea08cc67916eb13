/**
 * Table chat relay. The room's owner is the one place that knows everyone
 * watching a room (on every gateway), so it judges a chat message — is the
 * sender here, may a spectator speak, is free text allowed, is the sender
 * chatting too fast — and publishes ONE pre-encoded frame to each gateway
 * hosting viewers. Chat bypasses the room's queue and snapshot on purpose:
 * it changes no state and is forgotten as soon as it is relayed.
 *
 * Two budgets, both token buckets on the host's clock, both kept only in this
 * worker's memory (a room has one owner; a new owner starts them full):
 * - per user (CHAT_LIMITS.ratePerSecond / rateBurst);
 * - per room, across all senders (issue 36: 200 spectators of one room sent
 *   every player 117–122 lines a second). A player's line needs one token; a
 *   spectator's needs more than `playerReserve` left, so when a crowd spends
 *   the room's budget spectators are refused first and players still speak.
 *   Each viewer therefore receives at most `ratePerSecond` lines a second
 *   (after a `burst`). A refused line gets `chatRoomBusy` to its sender only.
 * User buckets that have refilled are forgotten once there are many, so a
 * stream of passing spectators cannot grow the map without bound.
 */
import {
  CHAT_ERRORS,
  CHAT_LIMITS,
  ChatRequest,
  DEFAULT_CHAT_POLICY,
  cleanChatBody,
  contract,
  emit,
  serve,
  type ChatErrorCode,
  type ChatPolicy,
  type ChatReply,
} from '@joke/protocol';
import { encodeChat } from '@joke/protocol/wire';
import type { BusClient, BusSubscription } from '@joke/bus';
import type { Logger } from '@joke/ops';
import type { ViewerMeta } from './room-types.ts';

/** What the relay reads of its room. */
export interface ChatRoom {
  id: string;
  policy(): ChatPolicy | undefined;
  viewers(): Iterable<ViewerMeta>;
}

/** The room's chat budget (the worker's ROOM_CHAT_* options). */
export interface ChatBudget {
  ratePerSecond: number;
  burst: number;
  playerReserve: number;
}

export interface ChatHost {
  bus: BusClient;
  log: Logger;
  /** The worker's clock (tests pass fake time); Date.now otherwise. */
  now?: () => number;
  /** Default: CHAT_LIMITS' room figures. */
  budget?: ChatBudget;
}

/** Past this many remembered senders, those whose bucket is full again are forgotten. */
const MAX_REMEMBERED_SENDERS = 256;

interface Bucket {
  tokens: number;
  at: number;
}

export function subscribeChat(host: ChatHost, room: ChatRoom): BusSubscription {
  const now = host.now ?? Date.now;
  const buckets = new Map<string, Bucket>();
  const refuse = (code: ChatErrorCode): ChatReply => ({ ok: false, code, reason: CHAT_ERRORS[code] });

  const budget: ChatBudget = host.budget ?? {
    ratePerSecond: CHAT_LIMITS.roomRatePerSecond,
    burst: CHAT_LIMITS.roomBurst,
    playerReserve: CHAT_LIMITS.roomPlayerReserve,
  };
  const roomBucket: Bucket = { tokens: budget.burst, at: now() };

  const refill = (b: Bucket, rate: number, burst: number, t: number): void => {
    // A clock set back must not drain the bucket.
    b.tokens = Math.min(burst, b.tokens + (Math.max(0, t - b.at) / 1000) * rate);
    b.at = t;
  };

  const forgetRefilled = (t: number): void => {
    const fullAfterMs = (CHAT_LIMITS.rateBurst / CHAT_LIMITS.ratePerSecond) * 1000;
    for (const [id, b] of buckets) if (t - b.at >= fullAfterMs) buckets.delete(id);
  };

  const takeToken = (userId: string): boolean => {
    const t = now();
    let b = buckets.get(userId);
    if (!b) {
      if (buckets.size >= MAX_REMEMBERED_SENDERS) forgetRefilled(t);
      b = { tokens: CHAT_LIMITS.rateBurst, at: t };
      buckets.set(userId, b);
    }
    refill(b, CHAT_LIMITS.ratePerSecond, CHAT_LIMITS.rateBurst, t);
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  };

  /** The room's budget: a spectator may not take the last `playerReserve` lines. */
  const takeRoomToken = (role: 'player' | 'spectator'): boolean => {
    refill(roomBucket, budget.ratePerSecond, budget.burst, now());
    const need = role === 'player' ? 1 : 1 + budget.playerReserve;
    if (roomBucket.tokens < need) return false;
    roomBucket.tokens -= 1;
    return true;
  };

  const judge = (req: ChatRequest): { ok: true; frame: string } | { ok: false; reply: ChatReply } => {
    let role: 'player' | 'spectator' | null = null;
    for (const v of room.viewers()) if (v.userId === req.userId && v.connected && role !== 'player') role = v.role;
    if (role === null) return { ok: false, reply: refuse('chatNotInRoom') };
    const policy = room.policy() ?? DEFAULT_CHAT_POLICY;
    if (role === 'spectator' && !policy.spectators) return { ok: false, reply: refuse('chatSpectator') };
    if (req.body.kind === 'text' && !policy.freeText) return { ok: false, reply: refuse('chatTextPrivateOnly') };
    const clean = cleanChatBody(req.body);
    if (!clean.ok) return { ok: false, reply: refuse(clean.code) };
    if (!takeToken(req.userId)) return { ok: false, reply: refuse('chatRateLimited') };
    if (!takeRoomToken(role)) return { ok: false, reply: refuse('chatRoomBusy') };
    const frame = encodeChat({
      roomId: room.id,
      from: req.userId,
      name: req.name,
      role,
      body: clean.body,
      at: now(),
    });
    return { ok: true, frame };
  };

  const relay = (frame: string): void => {
    const gateways = new Set<string>();
    for (const v of room.viewers()) if (v.connected) gateways.add(v.gatewayId);
    for (const g of gateways) {
      try {
        emit(host.bus, contract.gatewayChat.at(g), { roomId: room.id, frame });
      } catch (err) {
        host.log.warn({ err, roomId: room.id }, 'chat publish failed');
      }
    }
  };

  return serve(
    host.bus,
    contract.roomChat.at(room.id),
    (req, reply) => {
      const verdict = judge(req);
      if (!verdict.ok) return reply(verdict.reply);
      relay(verdict.frame);
      reply({ ok: true });
    },
    () => ({ ok: false, code: 'malformed', reason: '잘못된 메시지예요' }),
  );
}
