/**
 * Two byte-level helpers on the bots' per-frame path, each exactly equal to
 * the plain call it replaces and only cheaper on the frames the bots get.
 *
 * - `findMarker(buf, m, from)` = `buf.indexOf(m.bytes, from)`. Node's search
 *   walks the occurrences of the needle's first byte; for `"legal":{` that is
 *   every `"` of a JSON view (≈ 570 in a 2.9 KB one-card frame), and the search
 *   cost 2.6 µs per frame, four frames per action. Searching from a byte that
 *   JSON rarely holds (`g` of `"legal":{`) and checking the bytes before it
 *   finds the same first occurrence in ≈ 0.3 µs.
 * - `frameText(buf)` = `buf.toString()` for valid UTF-8. The bots' names are
 *   Korean (봇…) and sit near a view's start, in its `players`; V8 decodes the
 *   rest of the frame from the first non-ASCII byte on through its slow path
 *   (12 µs for a 2.9 KB frame). Bytes after the last non-ASCII byte are ASCII,
 *   which latin1 decodes to the same characters, fast; the two parts are
 *   joined. The split is never inside a multi-byte sequence (the byte after the
 *   split is ASCII), so the result is the same string.
 */

/** A byte string to search for, and where to start looking from in it. */
export interface Marker {
  bytes: Buffer;
  /** Offset of the byte the search starts from; `tail` = bytes from there. */
  anchor: number;
  tail: Buffer;
}

/**
 * Bytes ranked by how often they occur in the JSON of a view, most often first
 * (counted in a one-card frame): the anchor is the marker's byte that comes
 * latest in this list, or is not in it at all.
 */
const COMMON = Buffer.from('":,aetndsiurlco0f1{}2k354C7ymp[]w8DhbgS6');

export function marker(text: string): Marker {
  const bytes = Buffer.from(text);
  let anchor = 0;
  let rank = -1;
  for (let i = 0; i < bytes.length; i++) {
    const r = COMMON.indexOf(bytes[i]);
    const score = r < 0 ? COMMON.length : r;
    if (score > rank) {
      rank = score;
      anchor = i;
    }
  }
  return { bytes, anchor, tail: bytes.subarray(anchor) };
}

/** The first offset ≥ `from` (≥ 0) where `m.bytes` occurs in `buf`, or -1: the same as `buf.indexOf(m.bytes, from)`. */
export function findMarker(buf: Buffer, m: Marker, from: number): number {
  const { bytes, anchor, tail } = m;
  let at = Math.max(from, 0) + anchor;
  for (;;) {
    const i = buf.indexOf(tail, at);
    if (i < 0) return -1;
    const start = i - anchor;
    let k = 0;
    while (k < anchor && buf[start + k] === bytes[k]) k++;
    if (k === anchor) return start;
    at = i + 1;
  }
}

/**
 * `buf.toString()` (UTF-8) of a valid UTF-8 buffer, with its ASCII tail decoded as latin1. Both
 * clients hand the bots valid UTF-8 only (ws-frames.ts and ws check every text message).
 */
export function frameText(buf: Buffer): string {
  let end = buf.length;
  while (end > 0 && buf[end - 1] < 0x80) end--;
  if (end === 0) return buf.toString('latin1');
  if (end === buf.length) return buf.toString('utf8');
  return buf.toString('utf8', 0, end) + buf.toString('latin1', end);
}
