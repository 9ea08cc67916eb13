/**
 * The structures of the request paths that must not chain one request's objects to the next ones
 * (slots.ts, patches/node-redis.ts): what a V8 scavenge would otherwise keep alive through
 * a dead old object is every later request.
 */
import { describe, expect, it } from 'vitest';
import { TokenSlots } from '../src/slots.ts';
import { redisReplyQueueUnlinks } from '@joke/patches';

describe('TokenSlots (the reply inbox by token)', () => {
  it('finds each value by its token, once taken it is gone, and its slot serves the next value', () => {
    const slots = new TokenSlots<string>();
    const a = slots.add('a');
    const b = slots.add('b');
    expect(slots.size).toBe(2);
    expect(slots.take(a)).toBe('a');
    expect(slots.take(a)).toBeUndefined();
    const c = slots.add('c');
    // The freed slot again, under a token the old one cannot pass for.
    expect(c.split('_')[0]).toBe(a.split('_')[0]);
    expect(c).not.toBe(a);
    expect(slots.take(a)).toBeUndefined();
    expect(slots.all()).toEqual(['c', 'b']);
    expect(slots.size).toBe(2);
    expect(slots.take(c)).toBe('c');
    expect(slots.size).toBe(1);
    expect(slots.take(b)).toBe('b');
    expect(slots.size).toBe(0);
  });

  it('answers nothing for a token it never issued, whatever its shape', () => {
    const slots = new TokenSlots<number>();
    slots.add(1);
    for (const forged of ['', '_', '0', '0_0', '0_2', 'zz_1', '-1_1', '1e3_1', 'constructor', '__proto__'])
      expect(slots.take(forged), forged).toBeUndefined();
    expect(slots.size).toBe(1);
  });

  it('clear empties it; tokens from before answer nothing after', () => {
    const slots = new TokenSlots<number>();
    const t = slots.add(7);
    slots.clear();
    expect(slots.size).toBe(0);
    expect(slots.take(t)).toBeUndefined();
    expect(slots.all()).toEqual([]);
  });
});

describe("node-redis's reply queue", () => {
  it('a shifted command lets go of the commands behind it (patches/node-redis.ts took on the installed client)', () => {
    expect(redisReplyQueueUnlinks()).toBe(true);
  });
});
