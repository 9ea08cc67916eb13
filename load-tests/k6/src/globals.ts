/**
 * What the engine's bundled code needs from the runtime and k6's JavaScript runtime (Sobek) lacks:
 * `TextEncoder`, used by @noble/hashes to turn a seed string into bytes for `Rng.fromSeed`. Imported
 * first by every entry script, so it is defined before any engine module runs. Only `encode` (UTF-8)
 * is provided; nothing here decodes.
 */
class Utf8Encoder {
  readonly encoding = 'utf-8';
  encode(text = ''): Uint8Array {
    const out: number[] = [];
    for (const ch of text) {
      const c = ch.codePointAt(0)!;
      if (c < 0x80) out.push(c);
      else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
      else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
      else {
        out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
      }
    }
    return new Uint8Array(out);
  }
}

const g = globalThis as { TextEncoder?: unknown };
if (typeof g.TextEncoder === 'undefined') g.TextEncoder = Utf8Encoder;
export {};
