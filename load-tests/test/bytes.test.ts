/**
 * The byte helpers of the bots' frame path (src/bytes.ts) must give exactly
 * what the plain calls they replace give: the same first occurrence as
 * `Buffer.indexOf`, the same string as `Buffer.toString()`.
 */
import { describe, expect, it } from 'vitest';
import { games, Rng } from '@joke/engine';
import { findMarker, frameText, marker } from '../src/bytes.ts';

/** A small deterministic generator, so a failure repeats. */
function rand(seed: number): (n: number) => number {
  let x = seed;
  return (n) => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return (x >>> 8) % n;
  };
}

describe('findMarker', () => {
  it('starts from a rare byte of the marker', () => {
    expect(marker('"legal":{')).toMatchObject({ anchor: 3 });
    expect(marker('"finished":')).toMatchObject({ anchor: 6 });
  });

  it('finds the first occurrence from an offset, as indexOf does, in buffers full of near misses', () => {
    const r = rand(7);
    const alphabet = '"leg:{al}';
    for (let n = 0; n < 1000; n++) {
      const text = Array.from({ length: r(60) }, () => alphabet[r(alphabet.length)]).join('');
      const needle = Array.from({ length: 1 + r(5) }, () => alphabet[r(alphabet.length)]).join('');
      const buf = Buffer.from(text);
      const m = marker(needle);
      for (let from = 0; from <= buf.length + 1; from++)
        expect(findMarker(buf, m, from), `${needle} in ${text} from ${from}`).toBe(buf.indexOf(m.bytes, from));
    }
  });

  it('finds the one-card gate and `finished` where indexOf does in every frame of played games', () => {
    const game = games['one-card'];
    const players = ['u1', 'u2', 'u3', 'u4'].map((id, i) => ({ id, name: `봇00000${i}` }));
    const legal = marker('"legal":{');
    const finished = marker('"finished":');
    let state = game.setup({ seed: 'bytes', players, options: game.optionsSchema.parse({ mode: 'classic' }), now: 0 });
    const rng = Rng.fromSeed('bytes');
    for (let seq = 0; seq < 300 && game.result(state) === null; seq++) {
      for (const p of players) {
        const buf = Buffer.from(`{"view":${JSON.stringify(game.view(state, p.id))}}`);
        for (const m of [legal, finished]) expect(findMarker(buf, m, 8)).toBe(buf.indexOf(m.bytes, 8));
      }
      const actor = players.find((p) => game.bot(game.view(state, p.id), rng) !== null);
      const next = actor
        ? game.apply(state, actor.id, game.bot(game.view(state, actor.id), rng), 0)
        : game.onTimeout(state, game.deadline(state) ?? 0);
      if (!next.ok) break;
      state = next.state;
    }
  });
});

describe('frameText', () => {
  it('decodes as toString does: ASCII, Korean, other scripts and emoji, at the start, middle and end', () => {
    const r = rand(11);
    const pieces = ['a', '"', '{', '0', '~', '\u007f', 'é', '봇', '원카드', '😀', '\u0800', '\uffff', 'ß'];
    for (let n = 0; n < 5000; n++) {
      const text = Array.from({ length: r(40) }, () => pieces[r(pieces.length)]).join('');
      const buf = Buffer.from(text);
      expect(frameText(buf)).toBe(buf.toString());
      expect(frameText(buf)).toBe(text);
    }
    expect(frameText(Buffer.alloc(0))).toBe('');
  });

  it('decodes a slice of a larger buffer, not the bytes around it', () => {
    const big = Buffer.from('봇봇{"name":"봇1","x":[1,2]}봇봇');
    const start = Buffer.byteLength('봇봇');
    const slice = big.subarray(start, big.length - start);
    expect(frameText(slice)).toBe('{"name":"봇1","x":[1,2]}');
  });
});
