/** docs/games/hula.md §5.3: the player names a joker's role when a group reads more than one way. */
import { describe, expect, it } from 'vitest';
import { hula } from '../../src/games/hula/index.ts';
import { runBot } from '../../src/core/rng.ts';
import { actionSchema } from '../../src/games/hula/actions.ts';
import { COMMON_REASONS } from '../../src/core/reject.ts';
import { classifyMeld, defaultForm, layOffOnto, meldForms } from '../../src/games/hula/melds.ts';
import type { Meld } from '../../src/games/hula/types.ts';
import { T0, cards, no, ok, position } from './helpers.ts';

const act = (seat: number) => ({ kind: 'act', seat, deadline: T0 + 15_000, via: 'stock', thankYouFrom: null }) as const;
const ranks = (m: Meld) => m.cards.map((c) => (c.suit === 'X' ? 'X' : c.id));

describe('훌라 joker roles (§5.3)', () => {
  it('§5.3 — joker + 5♠ + 6♠ may stand for 4♠ or 7♠: the meld action names it with form, the default stays 7♠', () => {
    expect(meldForms(cards('X1 S5 S6'))).toEqual([
      { kind: 'run', low: 4 },
      { kind: 'run', low: 5 },
    ]);
    expect(defaultForm(cards('X1 S5 S6'))).toEqual({ kind: 'run', low: 5 });
    const s = position({ mode: 'joker', hands: ['X1 S5 S6 D9 C2', 'C1 C3 C4 C6 C8 C9 C10'], phase: act(0) });
    const low = ok(s, 'p1', { type: 'meld', cardIds: ['X1', 'S5', 'S6'], form: { kind: 'run', low: 4 } }).state
      .melds[0];
    expect([low.kind, low.rank, ranks(low)]).toEqual(['run', 4, ['X', 'S5', 'S6']]);
    const high = ok(s, 'p1', { type: 'meld', cardIds: ['X1', 'S5', 'S6'] }).state.melds[0];
    expect([high.rank, ranks(high)]).toEqual([5, ['S5', 'S6', 'X']]);
    // The 4♠ reading takes a 3♠ (and a 7♠) afterwards; the 7♠ reading a 4♠ or an 8♠.
    expect(layOffOnto(low, cards('S3')[0])?.rank).toBe(3);
    expect(layOffOnto(high, cards('S8')[0])?.cards).toHaveLength(4);
    expect(no(s, 'p1', { type: 'meld', cardIds: ['X1', 'S5', 'S6'], form: { kind: 'run', low: 6 } })).toBe(
      '고른 조커 역할로는 이 카드들을 등록할 수 없어요',
    );
    expect(no(s, 'p1', { type: 'meld', cardIds: ['X1', 'S5', 'S6'], form: { kind: 'set' } })).toBe(
      '고른 조커 역할로는 이 카드들을 등록할 수 없어요',
    );
  });

  it('§5.3 — set vs run for joker + joker + 5♠: every reading is offered; the default is the set (§7 choice 8)', () => {
    expect(meldForms(cards('X1 X2 S5'))).toEqual([
      { kind: 'set' },
      { kind: 'run', low: 3 },
      { kind: 'run', low: 4 },
      { kind: 'run', low: 5 },
    ]);
    expect(classifyMeld(cards('X1 X2 S5'))!.kind).toBe('set');
    const s = position({ mode: 'joker', hands: ['X1 X2 S5 D9 C2', 'C1 C3 C4 C6 C8 C9 C10'], phase: act(0) });
    const mid = ok(s, 'p1', { type: 'meld', cardIds: ['X1', 'X2', 'S5'], form: { kind: 'run', low: 4 } }).state
      .melds[0];
    expect([mid.kind, mid.suit, mid.rank, ranks(mid)]).toEqual(['run', 'S', 4, ['X', 'S5', 'X']]);
    // A group without a joker has its one reading only; form must agree with it.
    expect(meldForms(cards('H5 D5 C5'))).toEqual([{ kind: 'set' }]);
    expect(meldForms(cards('S5 S6 S7'))).toEqual([{ kind: 'run', low: 5 }]);
  });

  it('§5.3 — laying a joker off on a lone 7: no end = a set of 7s, end low/high = a run with the joker as 6 / 8', () => {
    const seven: Meld = { id: 1, owner: 'p2', ...classifyMeld(cards('H7'))! };
    expect(layOffOnto(seven, cards('X1')[0])!.kind).toBe('set');
    const asSix = layOffOnto(seven, cards('X1')[0], 'low')!;
    expect([asSix.kind, asSix.suit, asSix.rank, ranks(asSix)]).toEqual(['run', 'H', 6, ['X', 'H7']]);
    expect(layOffOnto(asSix, cards('H5')[0])?.rank).toBe(5);
    const asEight = layOffOnto(seven, cards('X1')[0], 'high')!;
    expect([asEight.kind, asEight.rank, ranks(asEight)]).toEqual(['run', 7, ['H7', 'X']]);
    const s = position({
      mode: 'joker',
      hands: ['X1 D9 C2', 'C1 C3 C4 C6 C8 C9 C10'],
      melds: [{ owner: 1, cards: 'H7' }],
      registered: [true, true],
      phase: act(0),
    });
    const laid = ok(s, 'p1', { type: 'layOff', cardIds: ['X1'], meldId: 1, end: 'low' }).state.melds[0];
    expect([laid.kind, laid.rank]).toEqual(['run', 6]);
  });

  it('§8.2 — the form field is checked by the schema apply() parses with; bots send none and get the default reading', () => {
    const samples: unknown[] = [
      { type: 'meld', cardIds: ['S1'], form: { kind: 'set' } },
      { type: 'meld', cardIds: ['S1'], form: { kind: 'run', low: 13 } },
      { type: 'meld', cardIds: ['S1'], form: { kind: 'run', low: 14 } },
      { type: 'meld', cardIds: ['S1'], form: { kind: 'run', low: 0 } },
      { type: 'meld', cardIds: ['S1'], form: { kind: 'run' } },
      { type: 'meld', cardIds: ['S1'], form: { kind: 'set', low: 3 } },
      { type: 'meld', cardIds: ['S1'], form: { kind: 'pair' } },
      { type: 'meld', cardIds: ['S1'], form: null },
      { type: 'meld', cardIds: ['S1'], form: 'set' },
    ];
    expect(samples.map((x) => actionSchema.safeParse(x).success)).toEqual([
      true,
      true,
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    const s = position({ mode: 'joker', hands: ['X1 S5 S6 D9 C2', 'C1 C3 C4 C6 C8 C9 C10'], phase: act(0) });
    for (const x of samples) {
      const r = hula.apply(s, 'p1', x, T0 + 1000);
      expect(!r.ok && r.reason === COMMON_REASONS.malformed).toBe(!actionSchema.safeParse(x).success);
    }
    const a = runBot(hula, hula.view(s, 'p1'), 'seed-1');
    expect(a).not.toBeNull();
    if (a && a.type === 'meld') expect('form' in a).toBe(false);
  });
});
