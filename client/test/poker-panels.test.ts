/**
 * The models of the 포커 side panels (spec poker.md §9): the 족보표 of the PC
 * layout per mode, and 인디언's used-card panel read from real engine views —
 * bots play every seat through whole hands (the clock runs out between hands),
 * and the panel must agree with the engine's used pile card for card, fill up
 * hand by hand and empty when the engine reshuffles (§5.4.7 `whenEmpty`), or
 * every hand with `everyHand`.
 */
import { describe, expect, it } from 'vitest';
import { poker, Rng, type PokerState, type PokerView } from '@joke/engine/client';
import { rankTable, usedColumns, type UsedColumn } from '../src/games/poker/panels.ts';

const players = ['p0', 'p1', 'p2'].map((id) => ({ id, name: id }));

function start(options: Record<string, unknown>, seed: string): PokerState {
  return poker.setup({ seed, players, options: poker.optionsSchema.parse(options), now: 1_000 });
}

/** Bots play every seat; the clock moves the table on between hands. Yields p0's view after every step. */
function* play(s: PokerState, seed: string, steps = 400): Generator<PokerView> {
  const rng = Rng.fromSeed(seed, 'panels');
  for (let step = 0; step < steps; step++) {
    yield poker.view(s, 'p0');
    let moved = false;
    for (const p of players) {
      const a = poker.bot(poker.view(s, p.id), rng);
      if (!a) continue;
      const r = poker.apply(s, p.id, a, 2_000 + step);
      if (r.ok) {
        s = r.state;
        moved = true;
        break;
      }
    }
    if (!moved) {
      const r = poker.onTimeout(s, poker.deadline(s) ?? 0);
      if (!r.ok) return;
      s = r.state;
    }
  }
}

const count = (cols: UsedColumn[], kind: string) =>
  cols.reduce((n, c) => n + c.boxes.filter((b) => b === kind).length, 0);

describe('poker §9 인디언: 사용된 카드 패널', () => {
  it('d20: numbers 1–10 with two boxes each, filled card for card from the used pile, emptied by the reshuffle', () => {
    let sawFull = false;
    let sawReset = false;
    let lastUsed = 0;
    for (const v of play(start({ mode: 'indian' }, 'panels-d20'), 'panels-d20', 600)) {
      const cols = usedColumns(v);
      expect(cols.map((c) => c.label)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
      expect(cols.every((c) => c.boxes.length === 2)).toBe(true);
      // Every used card fills one box of its number, and nothing else is marked used.
      expect(count(cols, 'used')).toBe(v.indianUsed.length);
      for (const c of cols)
        expect(c.boxes.filter((b) => b === 'used').length, `number ${c.label}`).toBe(
          v.indianUsed.filter((u) => u.rank === c.rank).length,
        );
      // The cards I see on the table this hand (never my own forehead while it is hidden) are marked apart.
      const seen = (v.hand?.players ?? []).flatMap((p) => [p.forehead, ...p.hole]).filter((c) => c && 'rank' in c);
      expect(count(cols, 'table')).toBe(seen.length);
      if (v.hand?.phase === 'betting') expect(seen.length).toBe(players.length - 1);
      if (v.indianUsed.length >= 15) sawFull = true;
      if (sawFull && v.indianUsed.length < lastUsed) {
        expect(count(cols, 'used')).toBe(0);
        sawReset = true;
        break;
      }
      lastUsed = v.indianUsed.length;
    }
    expect(sawFull, 'the panel filled up over several hands').toBe(true);
    expect(sawReset, 'the reshuffle emptied it').toBe(true);
  });

  it('everyHand: a fresh deck each hand leaves the used boxes empty', () => {
    let hands = new Set<number>();
    for (const v of play(start({ mode: 'indian', indianReshuffle: 'everyHand' }, 'panels-every'), 'panels-every')) {
      expect(count(usedColumns(v), 'used')).toBe(0);
      if (v.hand) hands = hands.add(v.hand.handNo);
      if (hands.size >= 3) break;
    }
    expect(hands.size).toBe(3);
  });

  it('d52: numbers 2–A with four boxes each', () => {
    const v = poker.view(start({ mode: 'indian', indianDeck: 'd52' }, 'panels-d52'), 'p0');
    const cols = usedColumns(v);
    expect(cols.map((c) => c.label).join(' ')).toBe('2 3 4 5 6 7 8 9 10 J Q K A');
    expect(cols.every((c) => c.boxes.length === 4)).toBe(true);
  });
});

describe('poker §9 PC: 족보표 for the mode being played', () => {
  const table = (mode: string, extra: Record<string, unknown> = {}) =>
    rankTable(poker.view(start({ mode, ...extra }, `ranks-${mode}`), 'p0'));

  it('홀덤·오마하·5카드 드로우: the nine international hands, best first (§6.1)', () => {
    for (const mode of ['holdem', 'omaha', 'fiveDraw']) {
      const t = table(mode);
      expect(t.rows.map((r) => r.name)).toEqual([
        '스트레이트 플러시',
        '포카드',
        '풀하우스',
        '플러시',
        '스트레이트',
        '트리플',
        '투페어',
        '원페어',
        '하이카드',
      ]);
      expect(t.low).toBeUndefined();
    }
  });

  it('7포커: the thirteen Korean hands with 마운틴 and 백 스트레이트 (§6.2)', () => {
    const names = table('sevenPoker').rows.map((r) => r.name);
    expect(names).toHaveLength(13);
    expect(names[0]).toBe('로열 스트레이트 플러시');
    expect(names.indexOf('마운틴')).toBeLessThan(names.indexOf('백 스트레이트'));
    expect(names.indexOf('플러시')).toBeLessThan(names.indexOf('마운틴'));
  });

  it('하이로우: the Korean high hands and the low of the table’s option (§6.3)', () => {
    const korean = table('sevenHiLo');
    expect(korean.rows).toHaveLength(13);
    expect(korean.low?.rows[0].example).toBe('A 2 3 4 6');
    const a5 = table('sevenHiLo', { hiLoLow: 'aceToFive', hiLoQualifier: 'eight' });
    expect(a5.low?.rows[0].example).toBe('A 2 3 4 5');
    expect(a5.low?.title).toContain('8 이하');
  });

  it('바둑이: its own low ranking, 골프 first and 노베이스 last (§6.4)', () => {
    const names = table('badugi').rows.map((r) => r.name);
    expect(names[0]).toBe('골프');
    expect(names.at(-1)).toBe('노베이스');
    expect(names.indexOf('메이드')).toBeLessThan(names.indexOf('베이스'));
  });
});
