/**
 * The one encoder of every server→client frame (`@joke/protocol/wire`); each writes exactly a message
 * its schema in client.ts (`ViewFrame`, `AckFrame`, `ErrorFrame`…) accepts, which the encoder property
 * test (test/client-wire.test.ts) checks over generated inputs. The room worker and the gateway build
 * frames only through these, so a frame's shape changes in one place with its schema.
 *
 * State: none. Failure modes: none at run time — the inputs are typed (an error code not declared in
 * ERRORS/CHAT_ERRORS, a refusal not in REFUSALS does not compile); `…Json` arguments must already be
 * JSON text (the callers encode them once per transition and share them between viewers).
 *
 * The per-action frames (view, ack, presence) are written as strings around pre-encoded JSON instead of
 * `JSON.stringify` of an object: the worker writes one view per viewer per action (docs/perf-decisions.md,
 * "View frames encoded once as bytes"), and the gateway one ack per action. The view's header comes first
 * and always in one order — the load-test bots read it by bytes (load-tests/src/frames.ts) — and `fixed`
 * follows the events and presence, so a frame carrying it never ends in `]}` (the bots' byte gate).
 * Kept out of the package's main entry: it uses Node's Buffer, and the browser never encodes frames.
 */
import type { z } from 'zod';
import { CHAT_ERRORS, type ChatErrorCode, type ChatMessage } from './chat.ts';
import {
  ERRORS,
  PROTOCOL_VERSION,
  type ErrorCode,
  type MatchedFrame,
  type QueueStatusFrame,
  type QueuedFrame,
} from './client.ts';
import type { RefusalCode } from './codes.ts';

/** Every code an `error` frame may carry: the gateway's own (ERRORS) and chat's refusals (CHAT_ERRORS). */
export type WireErrorCode = ErrorCode | ChatErrorCode;
export const isWireErrorCode = (code: string): code is WireErrorCode => code in ERRORS || code in CHAT_ERRORS;
/** The declared Korean text of an error code. */
export const wireErrorText = (code: WireErrorCode): string =>
  code in ERRORS ? ERRORS[code as ErrorCode] : CHAT_ERRORS[code as ChatErrorCode];

type Body<S extends z.ZodType> = Omit<z.infer<S>, 'v' | 't'>;
const v = PROTOCOL_VERSION;

export const encodeWelcome = (userId: string, name: string, serverTime: number): string =>
  JSON.stringify({ v, t: 'welcome', userId, name, serverTime });

/** Byte for byte what `JSON.stringify({ v, t: 'ack', roomId, actionId, seq })` writes, without the object. */
export const encodeAck = (roomId: string, actionId: string, seq: number): string =>
  `{"v":${v},"t":"ack","roomId":${JSON.stringify(roomId)},"actionId":${JSON.stringify(actionId)},"seq":${JSON.stringify(seq)}}`;

/** `code` absent only for the gateway's own refusal before the worker (`notJoined` reason). */
export const encodeRejected = (roomId: string, actionId: string, reason: string, code?: RefusalCode): string =>
  JSON.stringify(
    code === undefined
      ? { v, t: 'rejected', roomId, actionId, reason }
      : { v, t: 'rejected', roomId, actionId, code, reason },
  );

/** Where an error belongs: its room (and action, to be sent again), or the matchmaker's refusal. */
export interface ErrorPlace {
  roomId?: string;
  actionId?: string;
  refusal?: RefusalCode;
}

/** `message` defaults to the code's declared Korean text; a more precise Korean one may replace it. */
export const encodeError = (code: WireErrorCode, message: string = wireErrorText(code), place?: ErrorPlace): string =>
  JSON.stringify({ v, t: 'error', code, message, ...place });

export const encodeQueued = (q: Body<typeof QueuedFrame>): string =>
  JSON.stringify({ v, t: 'queued', game: q.game, mode: q.mode, players: q.players });

export const encodeMatched = (q: Body<typeof MatchedFrame>): string =>
  JSON.stringify({ v, t: 'matched', roomId: q.roomId, game: q.game, mode: q.mode });

export const encodeQueueStatus = (s: Body<typeof QueueStatusFrame>): string => {
  const { game, mode, players, waiting, botsAt, full } = s;
  return JSON.stringify(
    full === undefined
      ? { v, t: 'queueStatus', game, mode, players, waiting, botsAt }
      : { v, t: 'queueStatus', game, mode, players, waiting, botsAt, full },
  );
};

export const encodePong = (at: number, serverTime: number): string => JSON.stringify({ v, t: 'pong', at, serverTime });

export const encodeChat = (m: Omit<ChatMessage, 'v' | 't'>): string =>
  JSON.stringify({ v, t: 'chat', roomId: m.roomId, from: m.from, name: m.name, role: m.role, body: m.body, at: m.at });

/** `roomIdJson` and `presenceJson`: JSON text, encoded once per room and per presence change. */
export const encodePresence = (roomIdJson: string, presenceJson: string): string =>
  `{"v":${v},"t":"presence","roomId":${roomIdJson},"presence":${presenceJson}}`;

export type ViewRole = 'player' | 'spectator';

/** The view frame's members after `view`, as JSON text; null leaves the member out. */
export interface ViewTail {
  eventsJson: string;
  /** null: the viewer already holds the room's current presence list. */
  presenceJson: string | null;
  resultJson: string | null;
  /** null: the viewer already holds the game's fixed members. */
  fixedJson: string | null;
}

/** Everything before the view's first byte: the header the bots read by bytes. */
export const viewHead = (roomIdJson: string, seq: number, role: ViewRole): string =>
  `{"v":${v},"t":"view","roomId":${roomIdJson},"seq":${seq},"role":"${role}","view":`;

/** Everything after the view's last byte. */
export const viewTail = (t: ViewTail): string =>
  ',"events":' +
  t.eventsJson +
  (t.presenceJson === null ? '' : ',"presence":' + t.presenceJson) +
  (t.fixedJson === null ? '' : ',"fixed":' + t.fixedJson) +
  (t.resultJson === null ? '}' : `,"result":${t.resultJson}}`);

/** A whole view frame as text, the view given as one JSON object. */
export const encodeView = (roomIdJson: string, seq: number, role: ViewRole, viewJson: string, tail: ViewTail): string =>
  viewHead(roomIdJson, seq, role) + viewJson + viewTail(tail);

/**
 * A view frame as UTF-8 bytes, its view given in two pieces: `ownOpen`, the viewer's own members as an
 * open object (`{"hand":…` without its `}`), and `sharedBytes`, `,` + the members every viewer sees
 * alike + `}` as UTF-8, encoded once per state and copied into each viewer's frame.
 */
export function encodeViewBytes(
  roomIdJson: string,
  seq: number,
  role: ViewRole,
  ownOpen: string,
  sharedBytes: Uint8Array,
  tail: ViewTail,
): Uint8Array {
  const first = viewHead(roomIdJson, seq, role) + ownOpen;
  const rest = viewTail(tail);
  const n1 = Buffer.byteLength(first);
  const out = Buffer.allocUnsafe(n1 + sharedBytes.length + Buffer.byteLength(rest));
  out.write(first, 0);
  out.set(sharedBytes, n1);
  out.write(rest, n1 + sharedBytes.length);
  return out;
}
