/**
 * Table chat: quick phrases from a fixed list, emotes shown over the sender's
 * seat, and free text in private rooms. Everything chat needs on the wire is
 * here — the client message, the server message, the two bus subjects with
 * their payloads, the limits and the Korean refusals — so the gateway, the
 * room worker and the client share one definition.
 *
 * Chat is relayed, never stored: it does not go through the room's queue or
 * its snapshot, and a message only names its sender and what they chose to
 * say, never anything from the game state.
 */
import { z } from 'zod';
import { applyChatPolicy } from './text-policy.ts';

const P = 'joke.v1';
const roomId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

/** The quick phrases, by index (the wire carries the index, the client shows the text). */
export const CHAT_PHRASES = [
  '안녕하세요!',
  '빨리 좀 해주세요',
  '잘했어요',
  '아깝다!',
  '한 판 더!',
  '운이 좋네요',
  '잠시만요',
  '수고하셨어요',
] as const;

/** Emotes shown over the sender's seat for a moment. */
export const CHAT_EMOTES = {
  smile: '😄',
  cry: '😭',
  angry: '😠',
  wow: '😮',
  thumbs: '👍',
  clap: '👏',
} as const;
export type EmoteId = keyof typeof CHAT_EMOTES;

export const CHAT_LIMITS = {
  /** Longest free text after cleaning, in characters (code points). */
  maxTextChars: 60,
  /** Per user per room: sustained messages per second and burst (token bucket). */
  ratePerSecond: 0.5,
  rateBurst: 4,
  /**
   * Per room, across all senders (the worker's defaults; ROOM_CHAT_* set them): sustained lines per
   * second and burst, of which `roomPlayerReserve` lines only players may take, so a crowd of spectators
   * is refused before a player is.
   */
  roomRatePerSecond: 5,
  roomBurst: 10,
  roomPlayerReserve: 5,
} as const;

/** Korean reasons of chat refusals, by machine code. */
export const CHAT_ERRORS = {
  chatTooLong: `채팅은 ${CHAT_LIMITS.maxTextChars}자까지 보낼 수 있어요`,
  chatControl: '보낼 수 없는 제어 문자가 들어 있어요',
  /** Nothing visible once invisible fillers (Hangul fillers, braille blank, tag characters…) are stripped. */
  chatInvisible: '보이지 않는 문자만으로는 보낼 수 없어요',
  /** A bracketed system word ("[시스템]", "【공지】"…): only the platform speaks as the system. */
  chatImpersonation: '시스템이나 운영자를 흉내 내는 메시지는 보낼 수 없어요',
  /** The room's chat budget (lines per second across all senders) is spent; spectators are refused first. */
  chatRoomBusy: '지금 이 방에 채팅이 너무 많아요. 잠시 후에 다시 보내 주세요',
  chatEmpty: '보낼 내용이 없어요',
  chatRateLimited: '채팅을 너무 자주 보내고 있어요. 잠시 후에 다시 보내 주세요',
  chatTextPrivateOnly: '자유 채팅은 비공개 방에서만 쓸 수 있어요. 빠른 문구와 이모티콘을 써 주세요',
  chatSpectator: '이 방에서는 관전자가 채팅할 수 없어요',
  chatNotInRoom: '먼저 방에 들어가 주세요',
} as const;
export type ChatErrorCode = keyof typeof CHAT_ERRORS;

/** What a sender chose: one of the three kinds. Text is checked by `cleanChatText`, not by the schema. */
export const ChatBody = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('phrase'),
    phrase: z
      .number()
      .int()
      .min(0)
      .max(CHAT_PHRASES.length - 1),
  }),
  z.object({ kind: z.literal('emote'), emote: z.enum(Object.keys(CHAT_EMOTES) as [EmoteId, ...EmoteId[]]) }),
  // The frame limit bounds the raw length; the character limit is judged after cleaning, with a Korean reason.
  z.object({ kind: z.literal('text'), text: z.string().max(1000) }),
]);
export type ChatBody = z.infer<typeof ChatBody>;

/** Client → gateway. */
export const ChatSend = z.object({ v: z.literal(1), t: z.literal('chat'), roomId, body: ChatBody });
export type ChatSend = z.infer<typeof ChatSend>;

/** Gateway → every viewer of the room (players and spectators alike). */
export const ChatMessage = z.object({
  v: z.literal(1),
  t: z.literal('chat'),
  roomId: z.string(),
  /** Sender's user id (a seat id when they play), so the client can mute them. */
  from: z.string(),
  name: z.string(),
  role: z.enum(['player', 'spectator']),
  body: ChatBody,
  at: z.number(),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

/** Who may say what in a room; set by whoever opens the room (the lobby), absent = the strict default. */
export const ChatPolicy = z.object({
  /** Free text (private rooms among friends); otherwise phrases and emotes only. */
  freeText: z.boolean(),
  /** Spectators may send; otherwise the room's chat is player-only (spectators still see it). */
  spectators: z.boolean(),
});
export type ChatPolicy = z.infer<typeof ChatPolicy>;
export const DEFAULT_CHAT_POLICY: ChatPolicy = { freeText: false, spectators: false };

/** Bus payload of `chatSubjects.room`: the gateway relays one cleaned message as the token's user. */
export const ChatRequest = z.object({
  v: z.literal(1),
  userId: z.string(),
  name: z.string().max(32),
  gatewayId: z.string(),
  body: ChatBody,
});
export type ChatRequest = z.infer<typeof ChatRequest>;
export const ChatReply = z.union([
  z.object({ ok: z.literal(true) }),
  z.object({ ok: z.literal(false), code: z.string(), reason: z.string() }),
]);
export type ChatReply = z.infer<typeof ChatReply>;

/** Bus payload of `chatSubjects.gateway`: one pre-encoded ChatMessage for every socket of the room there. */
export const ChatDelivery = z.object({ roomId: z.string(), frame: z.string() });
export type ChatDelivery = z.infer<typeof ChatDelivery>;

export const chatSubjects = {
  /** request → ChatReply. Payload ChatRequest. Served by the room's owner, which knows who watches. */
  room: (id: string) => `${P}.room.${id}.chat`,
  /** publish. ChatDelivery from the room's owner to each gateway hosting viewers of the room. */
  gateway: (gatewayId: string) => `${P}.gw.${gatewayId}.chat`,
} as const;

/**
 * Whitespace controls become spaces; then the shared text policy
 * (text-policy.ts, the nickname's character classes): controls, bidi and
 * zero-width characters are refused rather than silently dropped, so nobody
 * can smuggle a reversed or split message; invisible fillers are stripped and
 * a line of nothing but them is refused; combining-mark stacks are cut; a
 * bracketed system word ("[시스템]") is refused.
 */
const WHITESPACE_CONTROLS = /[\t\n\r\v\f]/g;
const WHY: Record<'control' | 'invisible' | 'impersonation', ChatErrorCode> = {
  control: 'chatControl',
  invisible: 'chatInvisible',
  impersonation: 'chatImpersonation',
};

export type CleanText = { ok: true; text: string } | { ok: false; code: ChatErrorCode };

export function cleanChatText(raw: string): CleanText {
  const verdict = applyChatPolicy(raw.replace(WHITESPACE_CONTROLS, ' '));
  if (!verdict.ok) return { ok: false, code: WHY[verdict.why] };
  const text = verdict.text.replace(/ {2,}/g, ' ').trim();
  if (text.length === 0) return { ok: false, code: 'chatEmpty' };
  if ([...text].length > CHAT_LIMITS.maxTextChars) return { ok: false, code: 'chatTooLong' };
  return { ok: true, text };
}

/** A body as it may be relayed (text cleaned), or the refusal. */
export function cleanChatBody(body: ChatBody): { ok: true; body: ChatBody } | { ok: false; code: ChatErrorCode } {
  if (body.kind !== 'text') return { ok: true, body };
  const c = cleanChatText(body.text);
  return c.ok ? { ok: true, body: { kind: 'text', text: c.text } } : c;
}

/** The text a client shows for a body. */
export function chatBodyText(body: ChatBody): string {
  if (body.kind === 'phrase') return CHAT_PHRASES[body.phrase] ?? '';
  if (body.kind === 'emote') return CHAT_EMOTES[body.emote];
  return body.text;
}
