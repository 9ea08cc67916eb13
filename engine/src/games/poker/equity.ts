/**
 * How good a bot's hand is, from its own view only: pre-flop hand groups for
 * hold'em (the Chen formula, a standard way to rank the 169 starting hands),
 * and Monte-Carlo equity everywhere the engine's evaluator can finish the
 * hand — hold'em, omaha and the 7-card games — by dealing the unseen cards at
 * random to the live opponents and the board and counting how often the bot
 * wins (ties split). Unseen means: not in the bot's hand, not on the board and
 * not face up in front of anyone; nothing hidden is ever read.
 */
import type { Rng } from '../../core/rng.ts';
import { CARDS52 } from './cards.ts';
import { omahaScore, scoreOf } from './eval/hands.ts';
import type { Card, CardSlot, HandPlayerView, PokerView } from './types.ts';

export function isCard(c: CardSlot | null | undefined): c is Card {
  return !!c && 'id' in c;
}

export function cardsOf(slots: readonly CardSlot[] | null): Card[] {
  return (slots ?? []).filter(isCard);
}

/** Chen formula points for two hole cards (higher is better; AA = 20, 72o ≈ -1). */
export function chenPoints(a: Card, b: Card): number {
  const [hi, lo] = a.rank >= b.rank ? [a, b] : [b, a];
  const base = (r: number) => (r === 14 ? 10 : r === 13 ? 8 : r === 12 ? 7 : r === 11 ? 6 : r / 2);
  if (hi.rank === lo.rank) return Math.max(5, base(hi.rank) * 2);
  let pts = base(hi.rank);
  if (hi.suit === lo.suit) pts += 2;
  const gap = hi.rank - lo.rank - 1;
  pts -= gap === 0 ? 0 : gap === 1 ? 1 : gap === 2 ? 2 : gap === 3 ? 4 : 5;
  if (gap <= 1 && hi.rank < 12) pts += 1;
  return Math.ceil(pts);
}

/** Hand group 1 (AA, KK, QQ, AKs…) to 8 (trash), from the Chen points. */
export function handGroup(a: Card, b: Card): number {
  const p = chenPoints(a, b);
  return p >= 12 ? 1 : p >= 10 ? 2 : p >= 9 ? 3 : p >= 8 ? 4 : p >= 7 ? 5 : p >= 6 ? 6 : p >= 5 ? 7 : 8;
}

interface Deal {
  score(cards: Card[], board: Card[]): number;
  /** Cards each player ends with in hand, and on the board. */
  handSize: number;
  boardSize: number;
}

const DEALS: Partial<Record<PokerView['mode'], Deal>> = {
  holdem: { score: (c, b) => scoreOf(false, [...c, ...b]), handSize: 2, boardSize: 5 },
  omaha: { score: (c, b) => omahaScore(c, b), handSize: 4, boardSize: 5 },
  sevenPoker: { score: (c) => scoreOf(true, c), handSize: 7, boardSize: 0 },
  // The high half only: a fair proxy for how often the hand takes a share.
  sevenHiLo: { score: (c) => scoreOf(true, c), handSize: 7, boardSize: 0 },
};

/** Whether `equity` can simulate this mode (else the caller falls back to a heuristic). */
export function canSimulate(mode: PokerView['mode']): boolean {
  return mode in DEALS;
}

/**
 * The bot's share of the pot if the hand were played out to showdown against
 * every opponent still in it, estimated over `trials` random deals of the unseen cards.
 */
export function equity(v: PokerView, me: HandPlayerView, trials: number, rng: Rng): number {
  const deal = DEALS[v.mode];
  const h = v.hand!;
  if (!deal) throw new Error(`no equity simulation for ${v.mode}`);
  const mine = [...cardsOf(me.hole), ...me.up];
  const opponents = h.players.filter((p) => p.id !== me.id && !p.folded);
  if (opponents.length === 0) return 1;
  const known = new Set<number>([...mine, ...h.board].map((c) => c.id));
  for (const p of opponents) for (const c of p.up) known.add(c.id);
  const unseen = CARDS52.filter((c) => !known.has(c.id));
  const need = deal.boardSize - h.board.length + (deal.handSize - mine.length);
  const oppNeed = opponents.map((p) => deal.handSize - p.up.length);
  const total = need + oppNeed.reduce((a, b) => a + b, 0);
  if (total > unseen.length) return 1 / (opponents.length + 1);
  const pool = unseen.slice();
  let won = 0;
  for (let t = 0; t < trials; t++) {
    // Partial Fisher–Yates: only the cards this trial deals are shuffled into place.
    for (let i = 0; i < total; i++) {
      const j = i + rng.int(pool.length - i);
      const x = pool[i];
      pool[i] = pool[j];
      pool[j] = x;
    }
    let k = 0;
    const board = h.board.slice();
    while (board.length < deal.boardSize) board.push(pool[k++]);
    const hand = mine.slice();
    while (hand.length < deal.handSize) hand.push(pool[k++]);
    const my = deal.score(hand, board);
    let best = -1;
    let ties = 0;
    for (let o = 0; o < opponents.length; o++) {
      const cards = opponents[o].up.slice();
      for (let n = 0; n < oppNeed[o]; n++) cards.push(pool[k++]);
      const s = deal.score(cards, board);
      if (s > best) {
        best = s;
        ties = 0;
      }
      if (s === best) ties++;
    }
    if (my > best) won += 1;
    else if (my === best) won += 1 / (ties + 1);
  }
  return won / trials;
}
