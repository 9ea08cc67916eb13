/**
 * Reading a bot's frames without parsing most of them. At a 4-player table
 * every action sends a view frame to each of the 4 players, but only the
 * player whose turn comes next (now and then one who may call 원카드) can act
 * on it: the others need just the header — room and seq — to time the action
 * and follow the table. The room worker writes that header first and always
 * in one order (services/room-worker/src/frames.ts):
 *
 *   {"v":1,"t":"view","roomId":"…","seq":N,"role":"player","view":{…},"events":[…](,"presence":[…])(,"result":…)}
 *
 * so it is read from the leading bytes. Whether the body must be parsed is
 * decided from bytes too, always erring towards parsing: a game without a
 * gate, a view that may let this bot act (its gate says so), a view that may
 * end the game, or any byte that does not match the expected shape.
 */
import { PROTOCOL_VERSION } from '@joke/protocol';
import { findMarker, marker, type Marker } from './bytes.ts';

export { frameText } from './bytes.ts';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;
const LETTER_F = 0x66;
const LETTER_T = 0x74;
const VIEW_HEAD = Buffer.from(`{"v":${PROTOCOL_VERSION},"t":"view","roomId":"`);
const SEQ_KEY = Buffer.from('","seq":');
const PLAYER_VIEW = Buffer.from(',"role":"player","view":');
/** Room ids are [A-Za-z0-9_-]{1,64} (services/protocol/src/client.ts): longer means not a header we know. */
const MAX_ROOM_ID = 64;

export interface ViewHeader {
  /** The room id's bytes: [roomAt, roomEnd). Kept as offsets, so a frame for this bot's room costs no string. */
  roomAt: number;
  roomEnd: number;
  seq: number;
  /** Offset of the view object's first byte. */
  viewAt: number;
}

function bytesAt(buf: Buffer, at: number, want: Buffer): boolean {
  if (at + want.length > buf.length) return false;
  for (let i = 0; i < want.length; i++) if (buf[at + i] !== want[i]) return false;
  return true;
}

/**
 * Fills `out` from a player view frame's header and returns true, or returns
 * false for anything else (other kinds, spectator views, an unexpected shape):
 * those are parsed in full, as every frame was before.
 */
export function readViewHeader(buf: Buffer, out: ViewHeader): boolean {
  if (!bytesAt(buf, 0, VIEW_HEAD)) return false;
  const roomAt = VIEW_HEAD.length;
  let i = roomAt;
  for (; i < buf.length && i - roomAt <= MAX_ROOM_ID; i++) {
    const c = buf[i];
    if (c === QUOTE) break;
    if (c === BACKSLASH || c < 0x20 || c > 0x7e) return false;
  }
  if (i === roomAt || i - roomAt > MAX_ROOM_ID || !bytesAt(buf, i, SEQ_KEY)) return false;
  const roomEnd = i;
  i += SEQ_KEY.length;
  const seqAt = i;
  let seq = 0;
  // Up to 15 digits stay exact in a double.
  for (; i < buf.length && i - seqAt < 15 && buf[i] >= 0x30 && buf[i] <= 0x39; i++) seq = seq * 10 + buf[i] - 0x30;
  if (i === seqAt || !bytesAt(buf, i, PLAYER_VIEW)) return false;
  out.roomAt = roomAt;
  out.roomEnd = roomEnd;
  out.seq = seq;
  out.viewAt = i + PLAYER_VIEW.length;
  return true;
}

/** The room id of a header read from `buf` (its bytes are printable ASCII: latin1 reads them as they are). */
export function headerRoom(buf: Buffer, h: ViewHeader): string {
  return buf.toString('latin1', h.roomAt, h.roomEnd);
}

/** headerRoom(buf, h) === roomId, without making the string. */
export function isHeaderRoom(buf: Buffer, h: ViewHeader, roomId: string | null): boolean {
  if (roomId === null || roomId.length !== h.roomEnd - h.roomAt) return false;
  for (let i = 0; i < roomId.length; i++) if (buf[h.roomAt + i] !== roomId.charCodeAt(i)) return false;
  return true;
}

/**
 * A game's cheap answer to "could the bot policy act on this view?", read from
 * boolean members at the start of one object of the view (for one-card, the
 * viewer's `legal` flags): the policy may act only when one of `keys` is true.
 * That must hold for every view; the swarm re-checks it on a sample of the
 * views it skipped (bot.ts, `checkEvery`), and test/frames.test.ts on real games.
 */
export interface ViewGate {
  /** The bytes that open the object, e.g. `"legal":{` (bytes.ts: found by a rare byte of them). */
  marker: Marker;
  /** Members that must all be read as booleans before the first nested value, else the view is parsed. */
  keys: readonly Buffer[];
}

/**
 * one-card's bot (engine/src/games/one-card/bot.ts) returns null before it
 * looks at anything else unless it may declare/catch 원카드 or has a move of its
 * own: these are exactly those flags of the viewer's `legal` object.
 */
const ONE_CARD_FLAGS = [
  'canPlay',
  'canDraw',
  'canPass',
  'canDeclareOneCard',
  'canChallenge',
  'canAcceptWild4',
  'mustChooseColor',
];

export const VIEW_GATES: Record<string, ViewGate> = {
  'one-card': { marker: marker('"legal":{'), keys: ONE_CARD_FLAGS.map((k) => Buffer.from(k)) },
};

export type GateAnswer = 'mayAct' | 'nothingToDo' | 'unread';

function keyIndex(buf: Buffer, at: number, end: number, keys: readonly Buffer[]): number {
  const len = end - at;
  for (let k = 0; k < keys.length; k++) if (keys[k].length === len && bytesAt(buf, at, keys[k])) return k;
  return -1;
}

/**
 * Walks the members of the object opened by `gate.marker` up to its first
 * nested array/object, in bytes (no string, no parse): 'mayAct' if one of the
 * gate's keys is true, 'nothingToDo' if all of them were read and false,
 * 'unread' if the bytes are not what the gate expects.
 */
export function askGate(buf: Buffer, from: number, gate: ViewGate): GateAnswer {
  let i = findMarker(buf, gate.marker, from);
  if (i < 0) return 'unread';
  i += gate.marker.bytes.length;
  let seen = 0;
  const n = buf.length;
  while (i < n && buf[i] === QUOTE) {
    const keyAt = i + 1;
    const keyEnd = buf.indexOf(QUOTE, keyAt);
    if (keyEnd < 0 || buf[keyEnd + 1] !== COLON) return 'unread';
    const k = keyIndex(buf, keyAt, keyEnd, gate.keys);
    i = keyEnd + 2;
    const c = buf[i];
    if (c === LETTER_T || c === LETTER_F) {
      if (k >= 0) {
        if (c === LETTER_T) return 'mayAct';
        seen |= 1 << k;
      }
      i += c === LETTER_T ? 4 : 5;
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE || c === QUOTE) break;
    else while (i < n && buf[i] !== COMMA && buf[i] !== CLOSE_BRACE) i++; // a number or null
    if (k >= 0 && c !== LETTER_F) return 'unread';
    if (buf[i] !== COMMA) break;
    i++;
  }
  return seen === (1 << gate.keys.length) - 1 ? 'nothingToDo' : 'unread';
}

const FINISHED = marker('"finished":');

/**
 * Might this frame end the game? Yes unless the frame's last member is an
 * array (the events or the presence list come last unless `fixed` or a
 * `result` follows them) and the
 * view's own `finished` is false. That member is found as the first
 * `"finished":` after the view opens: the worker writes a view as the
 * viewer's own members (one-card: viewer, phase, hand, legal…, none of them
 * holding a `finished` key) followed by the members all viewers share, which
 * start with the GameViewBase ones (engine/src/core/types.ts), `finished`
 * among them, so the search stops a few hundred bytes in rather than scanning
 * the whole frame. A game given a gate must keep that order
 * (test/frames.test.ts checks it on finished games, with the worker's encoder).
 */
export function mayFinish(buf: Buffer, viewAt: number): boolean {
  const n = buf.length;
  if (n < 2 || buf[n - 1] !== CLOSE_BRACE || buf[n - 2] !== CLOSE_BRACKET) return true;
  const at = findMarker(buf, FINISHED, viewAt);
  return at < 0 || buf[at + FINISHED.bytes.length] !== LETTER_F;
}
