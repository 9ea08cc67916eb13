/**
 * The binary envelope of a Delivery (worker → one gateway). What the gateway
 * must know — room, seq, owner, and per frame its kind and viewer — is a small
 * header; the frames are the UTF-8 bytes of finished ServerMessages, which the
 * gateway hands to the socket unchanged. Nothing in a frame is escaped, parsed
 * or re-encoded on the way (docs/measurements/gateway.md has the measured comparison
 * with the JSON envelope this replaced).
 *
 *   u8  magic 0x4A ('J')   u8 version: 1 a Delivery, 2 an accepted command's reply carrying one
 *                                 (`CommandReply.delivery`: the action was accepted at this seq)
 *   u32 seq (big endian)
 *   u8  roomId length, roomId (UTF-8)
 *   u8  owner length, owner (UTF-8)
 *   u16 frame count
 *   per frame: u8 kind (1 view, 2 presence)
 *              u8 viewer length (255 = spectators), viewer (UTF-8)
 *              u32 frame length, frame bytes
 */
import type { Delivery, DeliveryFrame } from './bus.ts';
import { ProtocolError } from './codec.ts';

const MAGIC = 0x4a;
/** The second byte: what the envelope is. The layout is the same for both. */
export const DELIVERY = 1;
export const ACCEPTED_REPLY = 2;
type Version = typeof DELIVERY | typeof ACCEPTED_REPLY;
const SPECTATORS = 255;
const utf8 = new TextEncoder();
const text = new TextDecoder('utf-8', { fatal: true });

function shortBytes(s: string, what: string): Uint8Array {
  const b = utf8.encode(s);
  if (b.length >= SPECTATORS) throw new ProtocolError(`${what} longer than 254 bytes`);
  return b;
}

export function encodeDelivery(d: Delivery, version: Version = DELIVERY): Uint8Array {
  const room = shortBytes(d.roomId, 'roomId');
  const owner = shortBytes(d.owner, 'owner');
  const viewers: (Uint8Array | null)[] = [];
  let size = 2 + 4 + 1 + room.length + 1 + owner.length + 2;
  for (const f of d.frames) {
    const v = f.viewer === null ? null : shortBytes(f.viewer, 'viewer');
    viewers.push(v);
    size += 1 + 1 + (v ? v.length : 0) + 4 + f.bytes.length;
  }
  const out = new Uint8Array(size);
  const dv = new DataView(out.buffer, out.byteOffset, out.byteLength);
  let o = 0;
  out[o++] = MAGIC;
  out[o++] = version;
  dv.setUint32(o, d.seq);
  o += 4;
  out[o++] = room.length;
  out.set(room, o);
  o += room.length;
  out[o++] = owner.length;
  out.set(owner, o);
  o += owner.length;
  dv.setUint16(o, d.frames.length);
  o += 2;
  for (let i = 0; i < d.frames.length; i++) {
    const f = d.frames[i];
    const v = viewers[i];
    out[o++] = f.kind === 'view' ? 1 : 2;
    if (v) {
      out[o++] = v.length;
      out.set(v, o);
      o += v.length;
    } else out[o++] = SPECTATORS;
    dv.setUint32(o, f.bytes.length);
    o += 4;
    out.set(f.bytes, o);
    o += f.bytes.length;
  }
  return out;
}

function need(data: Uint8Array, o: number, n: number): void {
  if (o + n > data.length) throw new ProtocolError('delivery truncated');
}

/**
 * The header's short strings (room, owner, viewer ids) are ASCII in practice: read byte by byte instead
 * of a TextDecoder call each, which cost more than the rest of the header (6 per delivery at a 4-seat
 * table; this module also loads in browsers, so no Buffer). Anything else is decoded as UTF-8, checked.
 */
function shortText(data: Uint8Array, o: number, n: number): string {
  let s = '';
  for (let i = o; i < o + n; i++) {
    const c = data[i];
    if (c < 0x80) s += String.fromCharCode(c);
    else
      try {
        return text.decode(data.subarray(o, o + n));
      } catch {
        throw new ProtocolError('delivery header is not UTF-8');
      }
  }
  return s;
}

/**
 * Frames are views into `data` (no copy): use them before the buffer is reused. No closures: this runs
 * once per delivery, and under tsx every named closure costs a defineProperty as it is created.
 */
export function decodeDelivery(data: string | Uint8Array, version: Version = DELIVERY): Delivery {
  if (typeof data === 'string') throw new ProtocolError('delivery must be binary');
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  need(data, 0, 9);
  if (data[0] !== MAGIC || data[1] !== version) throw new ProtocolError('not a delivery');
  let o = 2;
  const seq = dv.getUint32(o);
  o += 4;
  let n = data[o++];
  need(data, o, n);
  const roomId = shortText(data, o, n);
  o += n;
  need(data, o, 1);
  n = data[o++];
  need(data, o, n);
  const owner = shortText(data, o, n);
  o += n;
  need(data, o, 2);
  const count = dv.getUint16(o);
  o += 2;
  const frames: DeliveryFrame[] = [];
  for (let i = 0; i < count; i++) {
    need(data, o, 2);
    const k = data[o++];
    if (k !== 1 && k !== 2) throw new ProtocolError('unknown frame kind');
    let viewer: string | null = null;
    n = data[o++];
    if (n !== SPECTATORS) {
      need(data, o, n);
      viewer = shortText(data, o, n);
      o += n;
    }
    need(data, o, 4);
    n = dv.getUint32(o);
    o += 4;
    need(data, o, n);
    frames.push({ kind: k === 1 ? 'view' : 'presence', viewer, bytes: data.subarray(o, o + n) });
    o += n;
  }
  if (o !== data.length) throw new ProtocolError('trailing bytes after delivery');
  return { roomId, seq, owner, frames };
}

/** Whether a command's reply is the binary envelope of an accepted action with its frames (else it is JSON). */
export function isAcceptedReply(data: string | Uint8Array): data is Uint8Array {
  return typeof data !== 'string' && data.length > 1 && data[0] === MAGIC && data[1] === ACCEPTED_REPLY;
}
