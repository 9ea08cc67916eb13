/**
 * The receiving half of an RFC 6455 client, as bytes in and calls out: the
 * server's frames (never masked, no extensions: we offer none) parsed from
 * whatever TCP chunks they come in. A message that lies whole in one chunk is
 * handed on as a slice of that chunk, uncopied; only a frame cut by a chunk's
 * end is copied (into one buffer of its final size), and only the fragments of
 * a fragmented message are gathered. Pure: no socket, no timer, so the tests
 * can cut a stream at every byte.
 */
import { isUtf8 } from 'node:buffer';

export interface FrameSink {
  /** A whole text (or binary) message. `data` may be a slice of the caller's read buffer: valid only during the call. */
  message(data: Buffer, binary: boolean): void;
  /** Payload valid only during the call. */
  ping(payload: Buffer): void;
  pong(payload: Buffer): void;
  /** The server's close frame (1005: it carried no code). No frame is read after it. */
  close(code: number, reason: string): void;
  /** The stream broke the protocol: `code` is the close code to answer with. No frame is read after it. */
  fail(code: number, why: string): void;
}

/** Largest header of a server frame: 2 bytes + a 64-bit length (no mask key). */
const MAX_HEAD = 10;
export const PROTOCOL_ERROR = 1002;
export const INVALID_DATA = 1007;
export const TOO_BIG = 1009;

/**
 * The size of the frame starting at `at` (header + payload), or -1 when its
 * header is not all in buf[at, end). A 64-bit length beyond 2^53 reads as
 * Infinity, so it fails the size limit rather than wrapping.
 */
export function frameSize(buf: Buffer, at: number, end: number): number {
  if (end - at < 2) return -1;
  const len7 = buf[at + 1] & 0x7f;
  if (len7 < 126) return 2 + len7;
  if (len7 === 126) return end - at < 4 ? -1 : 4 + buf.readUInt16BE(at + 2);
  if (end - at < 10) return -1;
  const hi = buf.readUInt32BE(at + 2);
  return hi >= 0x200000 ? Infinity : 10 + hi * 0x1_0000_0000 + buf.readUInt32BE(at + 6);
}

export class FrameReader {
  /** An incomplete frame carried over from the last chunk, `heldLength` bytes of it so far. */
  private held: Buffer | null = null;
  private heldLength = 0;
  /** The fragments of a message whose last frame has not come yet (copies: chunks do not last). */
  private fragments: Buffer[] | null = null;
  private fragmentsLength = 0;
  private fragmentsBinary = false;
  private done = false;

  constructor(
    private readonly sink: FrameSink,
    private readonly maxPayload = 16 * 1024 * 1024,
  ) {}

  /** Stops reading (the socket was dropped): nothing more reaches the sink. */
  stop(): void {
    this.done = true;
    this.held = null;
    this.fragments = null;
  }

  /** Reads the frames in `chunk`; the chunk may be reused by the caller as soon as this returns. */
  push(chunk: Buffer): void {
    let at = 0;
    if (this.held) at = this.fillHeld(chunk);
    const end = chunk.length;
    while (at < end && !this.done) {
      const size = frameSize(chunk, at, end);
      if (size < 0 || at + size > end) return this.hold(chunk, at, size);
      this.frame(chunk, at, size);
      at += size;
    }
  }

  private hold(chunk: Buffer, at: number, size: number): void {
    if (size - MAX_HEAD > this.maxPayload) return this.failWith(TOO_BIG, 'frame too large');
    this.held = Buffer.allocUnsafe(size < 0 ? MAX_HEAD : size);
    this.heldLength = chunk.copy(this.held, 0, at);
  }

  /** Completes the held frame from the chunk's start; returns how many bytes of the chunk it took. */
  private fillHeld(chunk: Buffer): number {
    let held = this.held!;
    let taken = 0;
    let size = frameSize(held, 0, this.heldLength);
    if (size < 0) {
      // Only the header was cut: take up to a full header's bytes, then give back what lies past the frame.
      taken = chunk.copy(held, this.heldLength, 0, MAX_HEAD - this.heldLength);
      this.heldLength += taken;
      size = frameSize(held, 0, this.heldLength);
      if (size < 0) return taken;
      if (size < this.heldLength) {
        taken -= this.heldLength - size;
        this.heldLength = size;
      }
      if (size - MAX_HEAD > this.maxPayload) {
        this.failWith(TOO_BIG, 'frame too large');
        return chunk.length;
      }
      if (size > held.length) {
        const grown = Buffer.allocUnsafe(size);
        held.copy(grown, 0, 0, this.heldLength);
        this.held = held = grown;
      }
    }
    const more = chunk.copy(held, this.heldLength, taken, taken + size - this.heldLength);
    this.heldLength += more;
    taken += more;
    if (this.heldLength < size) return taken;
    this.held = null;
    this.frame(held, 0, size);
    return taken;
  }

  /** One whole frame at buf[at, at + size). */
  private frame(buf: Buffer, at: number, size: number): void {
    const b0 = buf[at];
    const b1 = buf[at + 1];
    const fin = (b0 & 0x80) !== 0;
    const opcode = b0 & 0x0f;
    if ((b0 & 0x70) !== 0) return this.failWith(PROTOCOL_ERROR, 'reserved bits set (no extension was agreed)');
    if ((b1 & 0x80) !== 0) return this.failWith(PROTOCOL_ERROR, 'server frame is masked');
    const len7 = b1 & 0x7f;
    const start = at + (len7 < 126 ? 2 : len7 === 126 ? 4 : 10);
    if (size - (start - at) > this.maxPayload) return this.failWith(TOO_BIG, 'frame too large');
    const payload = buf.subarray(start, at + size);
    if (opcode >= 8) return this.control(opcode, fin, payload);
    if (opcode === 0) return this.continuation(fin, payload);
    if (opcode !== 1 && opcode !== 2) return this.failWith(PROTOCOL_ERROR, `unknown opcode ${opcode}`);
    if (this.fragments) return this.failWith(PROTOCOL_ERROR, 'new message inside a fragmented one');
    if (fin) return this.deliver(payload, opcode === 2);
    this.fragments = [Buffer.from(payload)];
    this.fragmentsLength = payload.length;
    this.fragmentsBinary = opcode === 2;
  }

  private continuation(fin: boolean, payload: Buffer): void {
    const parts = this.fragments;
    if (!parts) return this.failWith(PROTOCOL_ERROR, 'continuation without a message');
    this.fragmentsLength += payload.length;
    if (this.fragmentsLength > this.maxPayload) return this.failWith(TOO_BIG, 'message too large');
    parts.push(Buffer.from(payload));
    if (!fin) return;
    this.fragments = null;
    this.deliver(Buffer.concat(parts, this.fragmentsLength), this.fragmentsBinary);
  }

  private deliver(data: Buffer, binary: boolean): void {
    // As ws does: a text message must be UTF-8 (a gateway that garbles bytes shows here, not as a silent U+FFFD).
    if (!binary && !isUtf8(data)) return this.failWith(INVALID_DATA, 'text message is not UTF-8');
    this.sink.message(data, binary);
  }

  private control(opcode: number, fin: boolean, payload: Buffer): void {
    if (!fin || payload.length > 125) return this.failWith(PROTOCOL_ERROR, 'fragmented or long control frame');
    if (opcode === 9) return this.sink.ping(payload);
    if (opcode === 10) return this.sink.pong(payload);
    if (opcode !== 8) return this.failWith(PROTOCOL_ERROR, `unknown opcode ${opcode}`);
    if (payload.length === 1) return this.failWith(PROTOCOL_ERROR, 'close frame of one byte');
    const code = payload.length === 0 ? 1005 : payload.readUInt16BE(0);
    if (payload.length > 0 && !validCloseCode(code)) return this.failWith(PROTOCOL_ERROR, `close code ${code}`);
    const reason = payload.subarray(2);
    if (!isUtf8(reason)) return this.failWith(INVALID_DATA, 'close reason is not UTF-8');
    this.stop();
    this.sink.close(code, reason.toString());
  }

  private failWith(code: number, why: string): void {
    this.stop();
    this.sink.fail(code, why);
  }
}

/** Codes a peer may send (RFC 6455 7.4): 1004–1006 and 1015 are reserved for local use. */
export function validCloseCode(code: number): boolean {
  return (
    (code >= 1000 && code <= 1014 && code !== 1004 && code !== 1005 && code !== 1006) || (code >= 3000 && code <= 4999)
  );
}
