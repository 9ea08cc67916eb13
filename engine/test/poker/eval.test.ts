import { describe, expect, it } from 'vitest';
import pokersolver from 'pokersolver';
import phe from 'phe';
import { poker as api } from '../../src/index.ts';
import { Rng } from '../../src/core/rng.ts';
import { CARDS52, cardText } from '../../src/games/poker/cards.ts';
import { evalIntl7, evalKorean7 } from '../../src/games/poker/eval/high.ts';
import { scoreOf, omahaScore } from '../../src/games/poker/eval/hands.ts';
import { indianName, indianScore } from '../../src/games/poker/eval/indian.ts';
import { CARDS20, cardLabel } from '../../src/games/poker/cards.ts';
import type { Card } from '../../src/games/poker/types.ts';

const { Hand } = pokersolver;
const P = api.parseCards;
const ko = (t: string) => api.rankHand('korean', t);
const intl = (t: string) => api.rankHand('international', t);
const ids = (cards: Card[]) => cards.map(cardText).join(' ');

function deal(rng: Rng, n: number): Card[] {
  return rng.shuffle(CARDS52.slice()).slice(0, n);
}

describe('public evaluator API', () => {
  it('parseCards reads ranks 2–9,T,J,Q,K,A and suits s,h,d,c', () => {
    const cards = P('As Td 9h 2c');
    expect(cards.map((c) => [c.rank, c.suit])).toEqual([
      [14, 'S'],
      [10, 'D'],
      [9, 'H'],
      [2, 'C'],
    ]);
    expect(new Set(CARDS52.map((c) => c.id)).size).toBe(52);
    expect(() => P('1s')).toThrow();
    expect(() => P('Ax')).toThrow();
  });

  it('rankHand returns category, Korean name, the five best cards and a comparable score', () => {
    const r = intl('As Ks Qs Js Ts 2d 3h');
    expect(r.category).toBe('straightFlush');
    expect(r.name).toBe('로열 스트레이트 플러시');
    expect(ids(r.best)).toBe('As Ks Qs Js Ts');
    expect(ko('As Ks Qs Js Ts 2d 3h').category).toBe('royalStraightFlush');
    expect(intl('2c 3d 4h 5s 7c 9d Jh').name).toBe('하이카드');
    expect(ko('2c 3d 4h 5s 7c 9d Jh').name).toBe('탑');
    expect(intl('Kd Kh 7c 7s 2d').score).toBeGreaterThan(intl('Kd Kh 6c 6s Ad').score);
    expect(() => api.rankHand('international', 'As Ks')).toThrow();
    expect(() => api.rankHand('international', 'As As Ks Qs Js')).toThrow();
  });

  it('showdown returns every tied winner and each hand', () => {
    const r = api.showdown({ mode: 'holdem', board: 'Ks Kd 7c 4h 2s', hands: ['Ac 3d', 'Qh Jh'] });
    expect(r.winners).toEqual([0]);
    expect(r.hands.map((h) => h.category)).toEqual(['pair', 'pair']);
    const split = api.showdown({ mode: 'holdem', board: '9s 9d 8c 8h As', hands: ['Kc 3d', 'Qh Jh'] });
    expect(split.winners).toEqual([0, 1]);
    expect(api.showdown({ mode: 'fiveDraw', hands: ['As Ad 2c 3d 4h', 'Ks Kd Kc 3c 4c'] }).winners).toEqual([1]);
    expect(
      api.showdown({ mode: 'sevenPoker', hands: ['7s 7c 2d 4h 9c Jd Qh', '7d 7h 3d 5h 9d Jc Qc'] }).winners,
    ).toEqual([0]);
  });

  it('bestLow and compareBadugi', () => {
    expect(ids(api.bestLow('As 2d 3h 4c 5s 9d Kh')!)).toBe('9d 4c 3h 2d As');
    expect(ids(api.bestLow('As 2d 3h 4c 5s 9d Kh', { hiLoLow: 'aceToFive' })!)).toBe('5s 4c 3h 2d As');
    expect(api.bestLow('As 2d 3h 4c 5s 9d Kh', { hiLoQualifier: 'eight' })).toBeNull();
    expect(api.bestLow('As Ad 2c 2d 3h 3s Kd')).toBeNull();
    expect(api.compareBadugi('As 2d 3h 3c', '2s 3d 7h 8c')).toBe(1);
    expect(api.compareBadugi('2s 3d 7h 8c', '2h 4c 7d 8s')).toBe(-1);
    expect(api.compareBadugi('2s 3d 7h 8c', '2h 3c 7s 8d')).toBe(0);
  });
});

describe('국제 족보 (§6.1)', () => {
  it('§6.1 — 휠은 가장 낮은 스트레이트(5 탑), K-A-2-3-4 순환은 불인정', () => {
    expect(intl('As 2d 3h 4c 5s').category).toBe('straight');
    expect(intl('As 2d 3h 4c 5s').score).toBeLessThan(intl('2d 3h 4c 5s 6d').score);
    expect(intl('Ks As 2d 3h 4c').category).toBe('highCard');
    expect(intl('Ah 2h 3h 4h 5h').score).toBeLessThan(intl('2h 3h 4h 5h 6h').score);
    expect(intl('Ts Js Qs Ks As').score).toBeGreaterThan(intl('9s Ts Js Qs Ks').score);
  });

  it('§6.1 — 같은 족보는 키커로 비교, 5장이 같으면 동점(무늬 무시)', () => {
    expect(intl('Ks Kd 7c 4h 2s Ac 3d').score).toBeGreaterThan(intl('Ks Kd 7c 4h 2s Qh Jh').score);
    expect(intl('Ks Kd Kc 4h 4s').score).toBeGreaterThan(intl('Qs Qd Qc Ah As').score);
    expect(intl('9s 9d 8c 8h As Kc 3d').score).toBe(intl('9s 9d 8c 8h As Qh Jh').score);
    expect(intl('Ah Kh 9h 7h 2h').score).toBe(intl('As Ks 9s 7s 2s').score);
    expect(intl('Ah Ad Ac As 2h').score).toBeGreaterThan(intl('Kh Kd Kc Ks Ah').score);
  });

  it('§6.1 — pokersolver·phe와 10,000개 무작위 7장 핸드에서 승패가 같음', () => {
    const rng = Rng.fromSeed('cross-check');
    for (let t = 0; t < 10_000; t++) {
      const d = rng.shuffle(CARDS52.slice());
      const a = d.slice(0, 7);
      const b = d.slice(7, 14);
      const sa = evalIntl7(...(a.map((c) => c.id) as [number, number, number, number, number, number, number]));
      const sb = evalIntl7(...(b.map((c) => c.id) as [number, number, number, number, number, number, number]));
      const ha = Hand.solve(a.map(cardText));
      const hb = Hand.solve(b.map(cardText));
      const w = Hand.winners([ha, hb]);
      const theirs = w.length === 2 ? 0 : w[0] === ha ? 1 : -1;
      const ours = Math.sign(sa - sb);
      if (ours !== theirs) throw new Error(`${ids(a)} vs ${ids(b)}: ours ${ours}, pokersolver ${theirs}`);
      // phe: smaller is stronger.
      const pheSays = Math.sign(phe.evaluateCards(b.map(cardText)) - phe.evaluateCards(a.map(cardText)));
      if (ours !== pheSays) throw new Error(`${ids(a)} vs ${ids(b)}: ours ${ours}, phe ${pheSays}`);
      // Same category names too (pokersolver's "Royal Flush" is a straight flush).
      const cat = api.rankHand('international', a).category;
      const map: Record<string, string> = {
        'High Card': 'highCard',
        Pair: 'pair',
        'Two Pair': 'twoPair',
        'Three of a Kind': 'trips',
        Straight: 'straight',
        Flush: 'flush',
        'Full House': 'fullHouse',
        'Four of a Kind': 'quads',
        'Straight Flush': 'straightFlush',
        'Royal Flush': 'straightFlush',
      };
      expect(cat).toBe(map[ha.name]);
    }
  });

  it('§6.1 — 7장 평가는 21개 5장 조합 중 최고와 같음(국제·한국식 모두)', () => {
    const rng = Rng.fromSeed('subsets');
    const five: number[][] = [];
    for (let a = 0; a < 7; a++)
      for (let b = a + 1; b < 7; b++) {
        const keep = [0, 1, 2, 3, 4, 5, 6].filter((i) => i !== a && i !== b);
        five.push(keep);
      }
    for (let t = 0; t < 5000; t++) {
      const h = deal(rng, 7);
      const codes = h.map((c) => c.id) as [number, number, number, number, number, number, number];
      const bestI = Math.max(
        ...five.map((k) =>
          scoreOf(
            false,
            k.map((i) => h[i]),
          ),
        ),
      );
      const bestK = Math.max(
        ...five.map((k) =>
          scoreOf(
            true,
            k.map((i) => h[i]),
          ),
        ),
      );
      expect(evalIntl7(...codes)).toBe(bestI);
      expect(evalKorean7(...codes)).toBe(bestK);
    }
  });
});

describe('오마하 (§5.4.2)', () => {
  it('§10 — 오마하: 개인 ♠ 1장 + 공용 ♠ 4장은 플러시가 아님', () => {
    const board = P('2s 5s 7s 9s Jh');
    expect(api.showdown({ mode: 'omaha', board, hands: ['As Ah Kd Qd'] }).hands[0].category).toBe('pair');
    const two = api.showdown({ mode: 'omaha', board, hands: ['As Ah Ks Qd'] }).hands[0];
    expect(two.category).toBe('flush');
    expect(ids(two.best)).toBe('As Ks 9s 7s 5s');
    // Hold'em with the same cards would be a flush.
    expect(api.showdown({ mode: 'holdem', board, hands: ['As Kd'] }).hands[0].category).toBe('flush');
  });

  it('§5.4.2 — 정확히 개인 2장 + 공용 3장: 60개 조합을 모두 본 결과와 같음', () => {
    const rng = Rng.fromSeed('omaha');
    for (let t = 0; t < 2000; t++) {
      const d = deal(rng, 9);
      const hole = d.slice(0, 4);
      const board = d.slice(4);
      let best = -1;
      for (let i = 0; i < 4; i++)
        for (let j = i + 1; j < 4; j++)
          for (let a = 0; a < 5; a++)
            for (let b = a + 1; b < 5; b++)
              for (let c = b + 1; c < 5; c++)
                best = Math.max(best, scoreOf(false, [hole[i], hole[j], board[a], board[b], board[c]]));
      expect(omahaScore(hole, board)).toBe(best);
    }
  });
});

describe('한국식 족보 (§6.2)', () => {
  it('§10 — 7포커 족보: 마운틴 > 백 스트레이트 > K탑 스트레이트, 백 스티플 > K탑 스티플 > 포카드', () => {
    const mountain = ko('Ac Kd Qh Js Td');
    const back = ko('As 2d 3h 4c 5s');
    const kTop = ko('Ks Qd Jh Tc 9s');
    expect([mountain.category, back.category, kTop.category]).toEqual(['mountain', 'backStraight', 'straight']);
    expect(mountain.score).toBeGreaterThan(back.score);
    expect(back.score).toBeGreaterThan(kTop.score);
    const backSf = ko('Ac 2c 3c 4c 5c');
    const kSf = ko('Ks Qs Js Ts 9s');
    const quads = ko('As Ad Ah Ac Ks');
    expect([backSf.category, kSf.category, quads.category]).toEqual(['backStraightFlush', 'straightFlush', 'quads']);
    expect(backSf.score).toBeGreaterThan(kSf.score);
    expect(kSf.score).toBeGreaterThan(quads.score);
    expect(ko('As Ks Qs Js Ts').score).toBeGreaterThan(backSf.score);
    // A-2-3-4-5-6-7 in Korean: the back straight beats the 7-high straight it also contains.
    expect(ko('As 2d 3h 4c 5s 6d 7h').category).toBe('backStraight');
    // International ranks the wheel lowest.
    expect(intl('As 2d 3h 4c 5s 6d 7h').best.map((c) => c.rank)).toEqual([7, 6, 5, 4, 3]);
  });

  it('§10 — 7포커 무늬 동점: 7♠7♣ vs 7◆7♥ → 앞쪽 승, 투페어 K-5 vs K-9 → 뒤쪽 승(키커 무시)', () => {
    expect(ko('7s 7c 2d 4h 9c').score).toBeGreaterThan(ko('7d 7h Ad Kh Qc').score);
    expect(ko('Ks Kc 5d 5h Ac').score).toBeLessThan(ko('Kd Kh 9d 9c 2h').score);
    // Equal pairs, kickers ignored: the better suit in the higher pair decides.
    expect(ko('Ks Kc 9h 9s 2d').score).toBeGreaterThan(ko('Kd Kh 9d 9c Ac').score);
  });

  it('§6.2 — 같은 족보의 무늬 결정: 플러시 무늬, 스트레이트 최고 카드 무늬, 탑 최고 카드 무늬', () => {
    expect(ko('Ad Kd 9d 7d 2d').score).toBeGreaterThan(ko('Ah Kh 9h 7h 2h').score);
    expect(ko('Ks Qd Jh Tc 9s').score).toBeGreaterThan(ko('Kd Qs Js Ts 9d').score);
    expect(ko('Ac Kd Qh Js Td').score).toBeLessThan(ko('As Kc Qd Jh Tc').score);
    expect(ko('As Kd 9h 7c 5s').score).toBeGreaterThan(ko('Ad Ks 9s 7s 5c').score);
    expect(ko('Ks Kd Kc 2d 2h').score).toBeGreaterThan(ko('Qs Qd Qc As Ah').score);
  });

  it('§6.2 — 7장에서 스리페어면 위 두 페어가 선택됨', () => {
    const r = ko('Ks Kd 9h 9c 5s 5d 2c');
    expect(r.category).toBe('twoPair');
    expect(r.best.map((c) => c.rank).slice(0, 4)).toEqual([13, 13, 9, 9]);
  });
});

describe('하이로우 로우 (§6.3)', () => {
  it('§10 — 하이로우 korean: A-2-3-4-5-9-K → 로우는 A-2-3-4-9, aceToFive면 A-2-3-4-5', () => {
    expect(api.bestLow('As 2d 3h 4c 5s 9d Kh')!.map((c) => c.rank)).toEqual([9, 4, 3, 2, 14]);
    expect(api.bestLow('As 2d 3h 4c 5s 9d Kh', { hiLoLow: 'aceToFive' })!.map((c) => c.rank)).toEqual([5, 4, 3, 2, 14]);
  });

  it('§6.3 — korean 최고 로우는 A-2-3-4-6, 플러시 5장은 불인정', () => {
    expect(api.bestLow('As 2d 3h 4c 6s Kd Kh')!.map((c) => c.rank)).toEqual([6, 4, 3, 2, 14]);
    expect(api.bestLow('Ah 2h 3h 4h 6h')).toBeNull();
    expect(api.bestLow('Ah 2h 3h 4h 6h', { hiLoLow: 'aceToFive' })!.map((c) => c.rank)).toEqual([6, 4, 3, 2, 14]);
    expect(api.bestLow('2s 3d 4h 5c 6s 8d')!.map((c) => c.rank)).toEqual([8, 5, 4, 3, 2]);
    expect(api.bestLow('Ks Qd Jh 9c 8s', { hiLoQualifier: 'eight' })).toBeNull();
    expect(api.bestLow('Ks Qd Jh 9c 8s')!.map((c) => c.rank)).toEqual([13, 12, 11, 9, 8]);
  });

  it('clarification 14 — 로우에서 A는 1: A-2-3-4-5만 A가 든 스트레이트이고 10-J-Q-K-A는 스트레이트가 아님', () => {
    expect(api.bestLow('As 2d 3h 4c 5s')).toBeNull();
    expect(api.bestLow('Ts Jd Qh Kc As')!.map((c) => c.rank)).toEqual([13, 12, 11, 10, 14]);
  });

  it('clarification 15 — 로우가 같으면 가장 높은 로우 카드의 무늬로 결정(korean, aceToFive 모두)', async () => {
    const { lowScore } = await import('../../src/games/poker/eval/low.ts');
    for (const style of ['korean', 'aceToFive'] as const) {
      const a = lowScore(
        P('7s 4d 3h 2c As').map((c) => c.id),
        style,
        'none',
      );
      const b = lowScore(
        P('7d 4s 3s 2s Ad').map((c) => c.id),
        style,
        'none',
      );
      expect(a).toBeGreaterThan(b);
      expect(a).not.toBe(b);
    }
  });
});

describe('바둑이 족보 (§6.4)', () => {
  it('§10 — 바둑이: A♠2♦3♥3♣(3 베이스) < 2♠3♦7♥8♣(8 메이드), 2♥4♣7♦8♠ vs 2♠3♦7♥8♣ → 뒤쪽 승, 같은 숫자면 분할', () => {
    expect(api.compareBadugi('As 2d 3h 3c', '2s 3d 7h 8c')).toBe(1);
    expect(api.compareBadugi('2h 4c 7d 8s', '2s 3d 7h 8c')).toBe(1);
    expect(api.compareBadugi('2h 3c 7d 8s', '2s 3d 7h 8c')).toBe(0);
  });

  it('§6.4 — 등급과 이름: 골프·세컨드·써드, 베이스, 투베이스, 노베이스', async () => {
    const { badugiHand, badugiName } = await import('../../src/games/poker/eval/badugi.ts');
    const name = (t: string) => badugiName(badugiHand(P(t).map((c) => c.id)));
    expect(name('As 2d 3h 4c')).toBe('골프');
    expect(name('As 2d 3h 5c')).toBe('세컨드');
    expect(name('As 2d 4h 5c')).toBe('써드');
    expect(name('As 4c 5d 6h')).toBe('6 메이드');
    expect(name('As 4c 5d 5h')).toBe('5 베이스');
    expect(name('As 4s 5d 5h')).toBe('투베이스');
    expect(name('As 4s 5s 9s')).toBe('노베이스');
    expect(name('Ks Kd Kh Kc')).toBe('노베이스');
    // A made K beats any base; among bases the lowest wins; K is the highest card.
    expect(api.compareBadugi('Ks Qd Jh Tc', 'As 2s 3d 4h')).toBe(-1);
    expect(api.compareBadugi('As 2d 3h 3c', 'As 2d 4h 4c')).toBe(-1);
  });
});

describe('인디언 포커 판정 (§6.5)', () => {
  it('§6.5 — 1장: d20은 A(1)가 가장 낮고 d52는 A가 가장 높음, 무늬는 보지 않음', () => {
    const d20 = (rank: number, suit: string) => CARDS20.find((c) => c.rank === rank && c.suit === suit)!;
    expect(indianScore([d20(10, 'H')])).toBeGreaterThan(indianScore([d20(9, 'S')]));
    expect(indianScore([d20(1, 'S')])).toBeLessThan(indianScore([d20(2, 'H')]));
    expect(indianScore([d20(7, 'S')])).toBe(indianScore([d20(7, 'H')]));
    expect(indianScore(P('As'))).toBeGreaterThan(indianScore(P('Kd')));
  });

  it('issue 15 — the d20 deck\'s 1 is written "1" in hand names and card labels; the d52 ace stays A', () => {
    const d20 = (rank: number, suit: string) => CARDS20.find((c) => c.rank === rank && c.suit === suit)!;
    expect(indianName([d20(1, 'H')])).toBe('1');
    expect(indianName([d20(1, 'H'), d20(1, 'S')])).toBe('1 페어');
    expect(indianName([d20(10, 'S'), d20(1, 'H')])).toBe('10·1');
    expect(cardLabel(d20(1, 'H'))).toBe('♥1');
    expect(indianName(P('As'))).toBe('A');
    expect(cardLabel(P('Ah')[0])).toBe('♥A');
  });

  it('§6.5 — 2장: 페어 > 노페어, 페어끼리 숫자, 노페어는 높은 카드 → 낮은 카드', () => {
    expect(indianScore(P('2s 2d'))).toBeGreaterThan(indianScore(P('As Kd')));
    expect(indianScore(P('3s 3d'))).toBeGreaterThan(indianScore(P('2s 2d')));
    expect(indianScore(P('9s 5d'))).toBeGreaterThan(indianScore(P('9d 4s')));
    expect(indianScore(P('9s 2d'))).toBeGreaterThan(indianScore(P('8d 7s')));
  });
});
