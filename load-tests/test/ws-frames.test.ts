/**
 * The lean client's frame reader (src/ws-frames.ts) on streams of server
 * frames cut into chunks every way: at each single byte, and at every split
 * point into two. The chunk is a scratch buffer overwritten after each push,
 * as the socket's shared read buffer is, so a reader that kept a slice of it
 * would deliver garbage.
 */
import { describe, expect, it } from 'vitest';
import { FrameReader, type FrameSink } from '../src/ws-frames.ts';

/** A server frame: unmasked, FIN unless told, the shortest length form. */
function frame(opcode: number, payload: Buffer | string, { fin = true, rsv = 0, masked = false } = {}): Buffer {
  const p = typeof payload === 'string' ? Buffer.from(payload) : payload;
  const len = p.length;
  const head = len < 126 ? 2 : len < 0x10000 ? 4 : 10;
  const f = Buffer.alloc(head + len);
  f[0] = (fin ? 0x80 : 0) | rsv | opcode;
  f[1] = (masked ? 0x80 : 0) | (len < 126 ? len : len < 0x10000 ? 126 : 127);
  if (head === 4) f.writeUInt16BE(len, 2);
  if (head === 10) f.writeBigUInt64BE(BigInt(len), 2);
  p.copy(f, head);
  return f;
}

const close = (code: number, reason = '') => {
  const b = Buffer.alloc(2 + Buffer.byteLength(reason));
  b.writeUInt16BE(code, 0);
  b.write(reason, 2);
  return frame(8, b);
};

/** Text of a given UTF-8 byte length, with multi-byte characters that chunk cuts fall inside. */
const text = (bytes: number) => {
  const unit = '원카드-';
  const b = Buffer.from(unit.repeat(Math.ceil(bytes / Buffer.byteLength(unit)) + 1)).subarray(0, bytes);
  // Cut back to a whole character.
  let n = bytes;
  while (n > 0 && (b[n - 1] & 0xc0) === 0x80) n--;
  if (n > 0 && b[n - 1] >= 0xc0) n--;
  return b.subarray(0, n).toString() + 'x'.repeat(bytes - n);
};

type Seen = (string | [string, ...unknown[]])[];
function recorder(): { sink: FrameSink; seen: Seen } {
  const seen: Seen = [];
  return {
    seen,
    sink: {
      message: (d, binary) => seen.push(binary ? ['binary', Buffer.from(d).toString('hex')] : d.toString()),
      ping: (p) => seen.push(['ping', p.toString()]),
      pong: (p) => seen.push(['pong', p.toString()]),
      close: (code, reason) => seen.push(['close', code, reason]),
      fail: (code, why) => seen.push(['fail', code, why]),
    },
  };
}

/** Feeds `stream` in chunks ending at `cuts`, through one scratch buffer wiped after each push. */
function feed(stream: Buffer, cuts: number[]): Seen {
  const { sink, seen } = recorder();
  const reader = new FrameReader(sink, 1 << 20);
  const scratch = Buffer.alloc(stream.length);
  let from = 0;
  for (const to of [...cuts, stream.length]) {
    if (to <= from) continue;
    const chunk = scratch.subarray(0, to - from);
    stream.copy(chunk, 0, from, to);
    reader.push(chunk);
    chunk.fill(0xee);
    from = to;
  }
  return seen;
}

const small = [
  frame(1, ''),
  frame(1, text(5)),
  frame(2, Buffer.from([0, 1, 2, 255])),
  frame(1, text(125)),
  frame(1, text(126)),
  frame(9, 'hi'),
  frame(1, text(300)),
  // A fragmented message with a ping and a pong between its fragments, cut inside a character.
  frame(1, Buffer.from('원카').subarray(0, 4), { fin: false }),
  frame(9, 'mid'),
  frame(0, Buffer.concat([Buffer.from('원카').subarray(4), Buffer.from('드')]), { fin: false }),
  frame(10, 'p'),
  frame(0, '!'),
  close(1012, 'moving'),
];
const smallExpected: Seen = [
  '',
  text(5),
  ['binary', '000102ff'],
  text(125),
  text(126),
  ['ping', 'hi'],
  text(300),
  ['ping', 'mid'],
  ['pong', 'p'],
  '원카드!',
  ['close', 1012, 'moving'],
];

describe('FrameReader', () => {
  const stream = Buffer.concat(small);

  it('reads every frame kind and length form in one chunk', () => {
    expect(feed(stream, [])).toEqual(smallExpected);
  });

  it('reads the same at every split of the stream into two chunks', () => {
    for (let cut = 1; cut < stream.length; cut++) expect(feed(stream, [cut]), `cut at ${cut}`).toEqual(smallExpected);
  });

  it('reads the same one byte per chunk, 16- and 64-bit lengths included', () => {
    const big = Buffer.concat([frame(1, text(65535)), frame(1, text(65536)), frame(1, text(70001)), stream]);
    const want = [text(65535), text(65536), text(70001), ...smallExpected];
    expect(feed(big, [])).toEqual(want);
    expect(
      feed(
        big,
        Array.from({ length: big.length }, (_, i) => i + 1),
      ),
    ).toEqual(want);
    // Cuts around every header and at a few odd places inside the payloads.
    let at = 0;
    for (const f of [frame(1, text(65535)), frame(1, text(65536)), frame(1, text(70001))]) {
      for (let k = 1; k <= 12; k++) expect(feed(big, [at + k]), `cut at ${at + k}`).toEqual(want);
      expect(feed(big, [at + 5000, at + 5001, at + f.length - 1])).toEqual(want);
      at += f.length;
    }
  });

  it('stops at the close frame', () => {
    expect(feed(Buffer.concat([close(1000), frame(1, 'late')]), [])).toEqual([['close', 1000, '']]);
    expect(feed(frame(8, ''), [])).toEqual([['close', 1005, '']]);
  });

  it('fails the connection on what breaks the protocol, with the code to answer', () => {
    const cases: [Buffer, number][] = [
      [frame(1, 'x', { masked: true }), 1002],
      [frame(1, 'x', { rsv: 0x40 }), 1002],
      [frame(0, 'x'), 1002],
      [Buffer.concat([frame(1, 'a', { fin: false }), frame(1, 'b')]), 1002],
      [frame(9, 'x', { fin: false }), 1002],
      [frame(9, text(126)), 1002],
      [frame(3, 'x'), 1002],
      [frame(8, Buffer.from([3])), 1002],
      [close(1005), 1002],
      [frame(1, Buffer.from([0xc3, 0x28])), 1007],
      [Buffer.concat([frame(1, Buffer.from([0xc3]), { fin: false }), frame(0, Buffer.from([0x28]))]), 1007],
      [frame(1, text((1 << 20) + 1)), 1009],
    ];
    for (const [bytes, code] of cases) {
      for (const cuts of [[], [1], [3]]) {
        const seen = feed(Buffer.concat([bytes, frame(1, 'after')]), cuts);
        expect(seen.length, bytes.subarray(0, 4).toString('hex')).toBe(1);
        expect(seen[0]).toEqual(['fail', code, expect.any(String)]);
      }
    }
  });

  it('fails a 64-bit length beyond the limit from its header alone', () => {
    const head = Buffer.from([0x81, 127, 0, 0, 1, 0, 0, 0, 0, 0]);
    expect(feed(head, [])).toEqual([['fail', 1009, expect.any(String)]]);
    expect(feed(head, [4])).toEqual([['fail', 1009, expect.any(String)]]);
  });
});
