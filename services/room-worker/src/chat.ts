/**
 * Table chat relay. The room's owner is the one place that knows everyone
 * watching a room (on every gateway), so it judges a chat message — is the
 * sender here, may a spectator speak, is free text allowed, is the sender
 * chatting too fast — and publishes ONE pre-encoded frame to each gateway
 * hosting viewers. Chat bypasses the room's queue and snapshot on purpose:
 * it changes no state and is forgotten as soon as it is relayed.
 */
import {
  CHAT_ERRORS,
  CHAT_LIMITS,
  ChatRequest,
  DEFAULT_CHAT_POLICY,
  PROTOCOL_VERSION,
  cleanChatBody,
  contract,
  emit,
  serve,
  type ChatErrorCode,
  type ChatMessage,
  type ChatPolicy,
  type ChatReply,
} from '@joke/protocol';
import type { BusClient, BusSubscription, Logger } from '@joke/bus';
import type { ViewerMeta } from './room-types.ts';

/** What the relay reads of its room. */
export interface ChatRoom {
  id: string;
  policy(): ChatPolicy | undefined;
  viewers(): Iterable<ViewerMeta>;
}

export interface ChatHost {
  bus: BusClient;
  log: Logger;
  /** Injected by tests; Date.now otherwise. */
  now?: () => number;
}

interface Bucket {
  tokens: number;
  at: number;
}

export function subscribeChat(host: ChatHost, room: ChatRoom): BusSubscription {
  const now = host.now ?? Date.now;
  const buckets = new Map<string, Bucket>();
  const refuse = (code: ChatErrorCode): ChatReply => ({ ok: false, code, reason: CHAT_ERRORS[code] });

  const takeToken = (userId: string): boolean => {
    const t = now();
    const b = buckets.get(userId) ?? { tokens: CHAT_LIMITS.rateBurst, at: t };
    b.tokens = Math.min(CHAT_LIMITS.rateBurst, b.tokens + ((t - b.at) / 1000) * CHAT_LIMITS.ratePerSecond);
    b.at = t;
    buckets.set(userId, b);
    if (b.tokens < 1) return false;
    b.tokens -= 1;
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
    const msg: ChatMessage = {
      v: PROTOCOL_VERSION,
      t: 'chat',
      roomId: room.id,
      from: req.userId,
      name: req.name,
      role,
      body: clean.body,
      at: now(),
    };
    return { ok: true, frame: JSON.stringify(msg) };
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
