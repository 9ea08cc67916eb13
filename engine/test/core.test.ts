import { describe, expect, it } from 'vitest';
import {
  Rng,
  seedCommitment,
  deriveSeed,
  nextInRing,
  seatsAfter,
  seatsFrom,
  Owned,
  patchAt,
  buildOptions,
  opt,
} from '../src/index.ts';

describe('core: seeded RNG', () => {
  it('is reproducible from the seed and resumable from its serialised state', () => {
    const a = Rng.fromSeed('abc');
    const first = [a.int(52), a.int(52), a.int(52)];
    const saved = JSON.parse(JSON.stringify(a.state()));
    const next = [a.int(1000), a.int(1000)];
    const again = Rng.fromSeed('abc');
    expect([again.int(52), again.int(52), again.int(52)]).toEqual(first);
    expect(Rng.fromSeed('abd').state()).not.toEqual(Rng.fromSeed('abc').state());
    const b = Rng.fromState(saved);
    expect([b.int(1000), b.int(1000)]).toEqual(next);
  });

  it('shuffles every permutation of 3 items with roughly equal frequency', () => {
    const rng = Rng.fromSeed('fair');
    const counts = new Map<string, number>();
    for (let i = 0; i < 60_000; i++) {
      const k = rng.shuffle([1, 2, 3]).join('');
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    expect(counts.size).toBe(6);
    for (const c of counts.values()) expect(Math.abs(c - 10_000)).toBeLessThan(500);
  });

  it('float stays in [0,1)', () => {
    const rng = Rng.fromSeed('f');
    for (let i = 0; i < 10_000; i++) {
      const x = rng.float();
      expect(x >= 0 && x < 1).toBe(true);
    }
  });
});

describe('core: seed commitment', () => {
  it('is the SHA-256 hex of the seed', () => {
    expect(seedCommitment('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
  it('derived seeds differ per label and do not equal the parent', () => {
    expect(deriveSeed('s', 'hand:1')).not.toBe(deriveSeed('s', 'hand:2'));
    expect(deriveSeed('s', 'hand:1')).not.toBe('s');
  });
});

describe('core: turn ring', () => {
  const seats = ['a', 'b', 'c', 'd'];
  const ring = (direction: 1 | -1, out: string[] = ['c']) => ({
    seats,
    direction,
    isIn: (p: string) => !out.includes(p),
  });
  it('skips seats that are out, in both directions', () => {
    expect(nextInRing(ring(1), 1)).toBe(3);
    expect(nextInRing(ring(-1), 3)).toBe(1);
    expect(nextInRing(ring(1), 0, 1)).toBe(3);
    expect(nextInRing(ring(-1), 0, 1)).toBe(1);
  });
  it('skips that go all the way round come back to the mover; with nobody else in, the mover or -1', () => {
    expect(nextInRing(ring(1, ['c', 'd']), 0, 1)).toBe(0);
    expect(nextInRing(ring(1, ['c', 'd']), 0, 3)).toBe(0);
    expect(nextInRing(ring(1, ['b', 'c', 'd']), 0)).toBe(0);
    expect(nextInRing(ring(1, ['a', 'b', 'c', 'd']), 0)).toBe(-1);
    // A mover who is out: the skips wrap over the others instead.
    expect(nextInRing(ring(1, ['a', 'c']), 0, 2)).toBe(1);
  });
  it('walks every seat from -1 and lists the seats after or from a seat', () => {
    expect(nextInRing(ring(1, ['a']), -1)).toBe(1);
    expect(seatsAfter(ring(1), 1)).toEqual([3, 0]);
    expect(seatsAfter(ring(-1), 1, 1)).toEqual([0]);
    expect(seatsFrom(ring(1), 3)).toEqual([3, 0, 1]);
    expect(seatsFrom(ring(1), 2)).toEqual([3, 0, 1]);
    expect(seatsAfter(ring(1, []), -1)).toEqual([0, 1, 2, 3]);
  });
});

describe('core: copy-on-write', () => {
  it('copies an object once per transition and never writes to the input', () => {
    const input = { hands: { a: 1 }, list: [1, 2] };
    for (const part of [input.hands, input.list, input]) Object.freeze(part);
    const owned = new Owned();
    const hands = owned.own(input.hands);
    expect(hands).not.toBe(input.hands);
    expect(owned.own(hands)).toBe(hands);
    hands.a = 2;
    const list = owned.own(input.list);
    expect(Array.isArray(list)).toBe(true);
    expect(input).toEqual({ hands: { a: 1 }, list: [1, 2] });
    const fresh = owned.adopt({ b: 1 });
    expect(owned.own(fresh)).toBe(fresh);
  });
  it('patchAt replaces one element by a patched copy', () => {
    const seats = [
      { id: 'a', n: 0 },
      { id: 'b', n: 0 },
    ];
    for (const part of [...seats, seats]) Object.freeze(part);
    const next = patchAt(seats, 1, { n: 3 });
    expect(next).toEqual([
      { id: 'a', n: 0 },
      { id: 'b', n: 3 },
    ]);
    expect(next[0]).toBe(seats[0]);
    expect(seats[1].n).toBe(0);
  });
});

describe('core: option builder', () => {
  const { schema, fields } = buildOptions(
    {
      mode: opt.choice(
        '모드',
        [
          ['a', '에이'],
          ['b', '비'],
        ] as const,
        'a',
      ),
      size: opt.choice(
        '장수',
        [
          [5, '5장'],
          [7, '7장'],
        ] as const,
        { byMode: { a: 7, b: 5 } },
      ),
      flag: opt.boolean('플래그', false),
    },
    (o, ctx) => {
      if (o.mode === 'b' && o.flag) ctx.addIssue({ code: 'custom', message: '비 모드에서는 켤 수 없어요' });
    },
  );
  it('fills defaults per mode', () => {
    expect(schema.parse({})).toEqual({ mode: 'a', size: 7, flag: false });
    expect(schema.parse({ mode: 'b' })).toEqual({ mode: 'b', size: 5, flag: false });
  });
  it('rejects unknown keys, bad values and cross-field violations with Korean messages', () => {
    expect(schema.safeParse({ size: 6 }).success).toBe(false);
    expect(schema.safeParse({ nope: 1 }).success).toBe(false);
    const r = schema.safeParse({ mode: 'b', flag: true });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0].message).toBe('비 모드에서는 켤 수 없어요');
  });
  it('describes every option for the create-room form', () => {
    expect(fields.map((f) => f.key)).toEqual(['mode', 'size', 'flag']);
    expect(fields[1].defaultByMode).toEqual({ a: 7, b: 5 });
    expect(fields[1].choices).toEqual([
      { value: 5, label: '5장' },
      { value: 7, label: '7장' },
    ]);
  });
});
