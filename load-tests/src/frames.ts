/**
 * Reading a bot's frames without parsing most of them. At a 4-player table
 * every action sends a view frame to each of the 4 players, but only the
 * player whose turn comes next (now and then one who may call 원카드) can act
 * on it: the others need just the header — room and seq — to time the action
 * and follow the table. The room worker writes that header first and always
 * in one order (services/room-worker/src/frames.ts):
 *
 *   {"v":1,"t":"view","roomId":"…","seq":N,"role":"player","view":{…},"events":[…],"presence":[…](,"result":…)}
 *
 * so it is read from the leading bytes. Whether the body must be parsed is
 * decided from bytes too, always erring towards parsing: a game without a
 * gate, a view that may let this bot act (its gate says so), a view that may
 * end the game, or any byte that does not match the expected shape.
 */
import { PROTOCOL_VERSION } from '@joke/protocol';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const VIEW_HEAD = Buffer.from(`{"v":${PROTOCOL_VERSION},"t":"view","roomId":"`);
const SEQ_KEY = Buffer.from('","seq":');
const PLAYER_VIEW = Buffer.from(',"role":"player","view":');
/** Room ids are [A-Za-z0-9_-]{1,64} (services/protocol/src/client.ts): longer means not a header we know. */
const MAX_ROOM_ID = 64;

export interface ViewHeader {
  roomId: string;
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
  out.roomId = buf.toString('latin1', roomAt, roomEnd);
  out.seq = seq;
  out.viewAt = i + PLAYER_VIEW.length;
  return true;
}

/**
 * A game's cheap answer to "could the bot policy act on this view?", read from
 * the scalar members at the start of one object of the view (for one-card, the
 * viewer's `legal` flags). It must answer true whenever `game.bot(view)` could
 * return an action; the swarm re-checks that claim on a sample of the views it
 * skipped (bot.ts, `checkEvery`).
 */
export interface ViewGate {
  /** The bytes that open the object, e.g. `"legal":{`. */
  marker: Buffer;
  /** Members that must all be read as booleans, else the view is parsed in full. */
  keys: readonly string[];
  mayAct(flags: Record<string, unknown>): boolean;
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
] as const;

export const VIEW_GATES: Record<string, ViewGate> = {
  'one-card': {
    marker: Buffer.from('"legal":{'),
    keys: ONE_CARD_FLAGS,
    mayAct: (f) => ONE_CARD_FLAGS.some((k) => f[k] === true),
  },
};

/**
 * The leading scalar members of the object opened by `gate.marker` (up to its
 * first nested array/object), or null when they cannot be read as expected.
 */
export function readFlags(buf: Buffer, from: number, gate: ViewGate): Record<string, unknown> | null {
  const at = buf.indexOf(gate.marker, from);
  if (at < 0) return null;
  const open = at + gate.marker.length - 1;
  let lastComma = -1;
  let end = -1;
  for (let i = open + 1; i < buf.length; i++) {
    const c = buf[i];
    if (c === 0x2c) lastComma = i;
    else if (c === 0x7d) {
      end = i + 1;
      break;
    } else if (c === 0x5b || c === 0x7b) {
      end = lastComma;
      break;
    }
  }
  if (end < 0) return null;
  let flags: Record<string, unknown>;
  try {
    flags = JSON.parse(buf.toString('latin1', open, end) + (buf[end - 1] === 0x7d ? '' : '}'));
  } catch {
    return null;
  }
  for (const k of gate.keys) if (typeof flags[k] !== 'boolean') return null;
  return flags;
}

const FINISHED_TRUE = Buffer.from('"finished":true');
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;

/**
 * Might this frame end the game? Yes when `"finished":true` occurs anywhere
 * (inside JSON text it can only be a member), or when the frame's last member
 * is not an array: the presence list comes last unless a `result` follows it.
 */
export function mayFinish(buf: Buffer, from: number): boolean {
  const n = buf.length;
  if (n < 2 || buf[n - 1] !== CLOSE_BRACE || buf[n - 2] !== CLOSE_BRACKET) return true;
  return buf.indexOf(FINISHED_TRUE, from) >= 0;
}
