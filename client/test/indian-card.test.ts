/**
 * The 인디언 20-card deck's lowest card is the number 1 (issue 15): its face
 * must read "1" with its own texture, while poker's ace (rank 14) stays "A".
 */
import { describe, expect, it } from 'vitest';
import { CARDS20, CARDS52 } from '@joke/engine/client';
import { faceKey, indexLabel } from '../src/cards/model.ts';
import { artCard } from '../src/games/poker/model.ts';

describe('인디언 1 on the card face', () => {
  it('draws the d20 1 as "1" and the ace as "A", on different textures', () => {
    const one = artCard(CARDS20.find((c) => c.rank === 1 && c.suit === 'H')!);
    const ace = artCard(CARDS52.find((c) => c.rank === 14 && c.suit === 'H')!);
    expect(indexLabel(one)).toBe('1');
    expect(indexLabel(ace)).toBe('A');
    expect(faceKey(one)).not.toBe(faceKey(ace));
    expect(CARDS20.filter((c) => c.rank !== 1).every((c) => indexLabel(artCard(c)) === String(c.rank))).toBe(true);
  });
});
