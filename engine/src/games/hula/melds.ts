/**
 * What may be registered and laid off (docs/games/hula.md §5.2–5.3). Pure
 * functions on cards, shared by the engine, the bot and the client's
 * [등록/붙이기] smart button.
 */
import { SUITS, type Suit } from '../../core/cards.ts';
import type { Card, Meld, MeldKind } from './types.ts';

export type MeldShape = Pick<Meld, 'kind' | 'cards' | 'rank' | 'suit'>;

/**
 * How to read a group with jokers when more than one reading fits (§5.2):
 * a set, or a run starting at rank `low` (A=1 … K=13; runs may wrap K→A).
 * `{ kind: 'run', low: 4 }` makes 🃏 5♠ 6♠ into 4♠5♠6♠, `low: 5` into 5♠6♠7♠.
 */
export type MeldForm = { kind: 'set' } | { kind: 'run'; low: number };

export const isJoker = (c: Card): boolean => c.suit === 'X';

/** Ranks are cyclic for runs: K(13) is followed by A(1). */
export const wrap = (r: number): number => ((((r - 1) % 13) + 13) % 13) + 1;

const SUIT_BIT: Record<string, number> = { S: 1, H: 2, D: 4, C: 8, X: 0 };
const suitOrder = (s: string): number => SUITS.indexOf(s as Suit);

/**
 * Classifies a group of cards as a new meld, or null. Jokers are wild. With
 * `form` the group must fit that reading; without it (bots, older clients)
 * the default reading applies: when a group could be either, a set wins
 * (§7 choice 8), and in a run jokers fill the gaps first and any extra joker
 * extends the high end.
 */
export function classifyMeld(cards: readonly Card[], form?: MeldForm): MeldShape | null {
  const n = cards.length;
  if (form !== undefined) {
    if (n < 3 || n > 13 || cards.every(isJoker)) return null;
    return form.kind === 'set' ? asSet(cards) : runFrom(cards, form.low);
  }
  if (n === 1) {
    const c = cards[0];
    return c.rank === 7 && !isJoker(c) ? { kind: 'seven', cards: [c], rank: 7, suit: c.suit as Suit } : null;
  }
  if (n < 3 || n > 13) return null;
  let naturals = 0;
  for (const c of cards) if (!isJoker(c)) naturals++;
  if (naturals === 0) return null;
  return asSet(cards) ?? asRun(cards);
}

function asSet(cards: readonly Card[]): MeldShape | null {
  if (cards.length > 4) return null;
  let rank = 0;
  let mask = 0;
  for (const c of cards) {
    if (isJoker(c)) continue;
    if (rank === 0) rank = c.rank;
    else if (c.rank !== rank) return null;
    const bit = SUIT_BIT[c.suit];
    if (mask & bit) return null;
    mask |= bit;
  }
  const ordered = cards
    .filter((c) => !isJoker(c))
    .sort((a, b) => suitOrder(a.suit) - suitOrder(b.suit))
    .concat(cards.filter(isJoker));
  return { kind: 'set', cards: ordered, rank, suit: null };
}

function asRun(cards: readonly Card[]): MeldShape | null {
  const n = cards.length;
  let suit: Suit | null = null;
  let mask = 0;
  const ranks: number[] = [];
  for (const c of cards) {
    if (isJoker(c)) continue;
    if (suit === null) suit = c.suit as Suit;
    else if (c.suit !== suit) return null;
    const bit = 1 << c.rank;
    if (mask & bit) return null;
    mask |= bit;
    ranks.push(c.rank);
  }
  if (suit === null) return null;
  ranks.sort((a, b) => a - b);
  let bestStart = 0;
  let bestSpan = 99;
  for (const s of ranks) {
    let span = 0;
    for (const r of ranks) span = Math.max(span, ((r - s + 13) % 13) + 1);
    if (span < bestSpan) {
      bestSpan = span;
      bestStart = s;
    }
  }
  if (bestSpan > n) return null;
  const slots: (Card | null)[] = new Array(n).fill(null);
  for (const c of cards) if (!isJoker(c)) slots[(c.rank - bestStart + 13) % 13] = c;
  let j = 0;
  const jokers = cards.filter(isJoker);
  for (let i = 0; i < n; i++) if (slots[i] === null) slots[i] = jokers[j++];
  return { kind: 'run', cards: slots as Card[], rank: bestStart, suit };
}

/** The run of `cards` whose lowest rank is `low`, or null if the naturals do not fit there. */
function runFrom(cards: readonly Card[], low: number): MeldShape | null {
  const n = cards.length;
  if (!Number.isInteger(low) || low < 1 || low > 13) return null;
  let suit: Suit | null = null;
  const slots: (Card | null)[] = new Array(n).fill(null);
  for (const c of cards) {
    if (isJoker(c)) continue;
    if (suit === null) suit = c.suit as Suit;
    else if (c.suit !== suit) return null;
    const at = (c.rank - low + 13) % 13;
    if (at >= n || slots[at] !== null) return null;
    slots[at] = c;
  }
  if (suit === null) return null;
  let j = 0;
  const jokers = cards.filter(isJoker);
  for (let i = 0; i < n; i++) if (slots[i] === null) slots[i] = jokers[j++];
  return { kind: 'run', cards: slots as Card[], rank: low, suit };
}

/**
 * Every reading of `cards` as a new meld (§5.2): the set, then each run by its
 * lowest rank. More than one means the joker's role is ambiguous and the
 * player names it with the meld action's `form`. Groups without a joker, and
 * full 13-card runs, have only their default reading.
 */
export function meldForms(cards: readonly Card[]): MeldForm[] {
  if (cards.length < 3 || !cards.some(isJoker) || cards.length >= 13) {
    const shape = classifyMeld(cards);
    if (!shape || shape.kind === 'seven') return [];
    return [shape.kind === 'set' ? { kind: 'set' } : { kind: 'run', low: shape.rank }];
  }
  const out: MeldForm[] = [];
  if (asSet(cards)) out.push({ kind: 'set' });
  for (let low = 1; low <= 13; low++) if (runFrom(cards, low)) out.push({ kind: 'run', low });
  return out;
}

/** The form the default reading picks (what a meld without `form` becomes), or null. */
export function defaultForm(cards: readonly Card[]): MeldForm | null {
  const shape = classifyMeld(cards);
  if (!shape || shape.kind === 'seven') return null;
  return shape.kind === 'set' ? { kind: 'set' } : { kind: 'run', low: shape.rank };
}

/**
 * The meld after laying `card` off on it, or null if it does not fit. A lone
 * 7 grows into a set of 7s (another 7 or a joker) or a run (same-suit 6 or 8).
 * `end` only matters where two places fit: a joker on a run (default: the high
 * end), a 12-card run, and a joker on a lone 7 — no `end` makes it a set of 7s,
 * `low`/`high` a run with the joker as the 6 / the 8.
 */
export function layOffOnto(meld: Meld, card: Card, end?: 'low' | 'high'): Meld | null {
  const joker = isJoker(card);
  if (meld.kind === 'seven') {
    const seven = meld.cards[0];
    if (joker && end === 'low') return grown(meld, 'run', [card, seven], 6, seven.suit as Suit);
    if (joker && end === 'high') return grown(meld, 'run', [seven, card], 7, seven.suit as Suit);
    if (joker || (card.rank === 7 && card.suit !== seven.suit)) return grown(meld, 'set', [seven, card], 7, null);
    if (card.suit !== seven.suit) return null;
    if (card.rank === 6) return grown(meld, 'run', [card, seven], 6, seven.suit as Suit);
    if (card.rank === 8) return grown(meld, 'run', [seven, card], 7, seven.suit as Suit);
    return null;
  }
  if (meld.kind === 'set') {
    if (meld.cards.length >= 4) return null;
    if (!joker) {
      if (card.rank !== meld.rank) return null;
      for (const c of meld.cards) if (c.suit === card.suit) return null;
    }
    return grown(meld, 'set', [...meld.cards, card], meld.rank, null);
  }
  const len = meld.cards.length;
  if (len >= 13) return null;
  const high = wrap(meld.rank + len);
  const low = wrap(meld.rank - 1);
  let atLow: boolean;
  if (joker) atLow = end === 'low';
  else {
    if (card.suit !== meld.suit) return null;
    if (card.rank === high && card.rank === low) atLow = end === 'low';
    else if (card.rank === high) atLow = false;
    else if (card.rank === low) atLow = true;
    else return null;
  }
  return atLow
    ? grown(meld, 'run', [card, ...meld.cards], low, meld.suit)
    : grown(meld, 'run', [...meld.cards, card], meld.rank, meld.suit);
}

function grown(meld: Meld, kind: MeldKind, cards: Card[], rank: number, suit: Suit | null): Meld {
  return { id: meld.id, owner: meld.owner, kind, cards, rank, suit };
}

/** Lays several cards off on one meld in the given order; null if any does not fit. */
export function layOffMany(meld: Meld, cards: readonly Card[], end?: 'low' | 'high'): Meld | null {
  let m: Meld | null = meld;
  for (const c of cards) {
    m = layOffOnto(m, c, end);
    if (!m) return null;
  }
  return m;
}

/** A 땡큐 meld: the discard plus at least two hand cards, no jokers, forming a set or a run (§5.4). */
export function thankYouMeld(top: Card, handCards: readonly Card[]): MeldShape | null {
  if (handCards.length < 2 || isJoker(top)) return null;
  for (const c of handCards) if (isJoker(c)) return null;
  const shape = classifyMeld([top, ...handCards]);
  return shape && shape.kind !== 'seven' ? shape : null;
}

/**
 * One valid choice of hand cards for a 땡큐 on `top`, or null: the longer of
 * the same-rank group and the same-suit chain through `top`.
 */
export function findThankYouCards(hand: readonly Card[], top: Card | null): Card[] | null {
  if (!top || isJoker(top)) return null;
  const sameRank: Card[] = [];
  const bySuitRank = new Map<number, Card>();
  for (const c of hand) {
    if (isJoker(c)) continue;
    if (c.rank === top.rank && c.suit !== top.suit) sameRank.push(c);
    if (c.suit === top.suit) bySuitRank.set(c.rank, c);
  }
  const chain: Card[] = [];
  for (let r = wrap(top.rank + 1); bySuitRank.has(r) && chain.length < 12; r = wrap(r + 1))
    chain.push(bySuitRank.get(r)!);
  for (let r = wrap(top.rank - 1); bySuitRank.has(r) && chain.length < 12; r = wrap(r - 1)) {
    const c = bySuitRank.get(r)!;
    if (chain.includes(c)) break;
    chain.push(c);
  }
  const best = chain.length >= sameRank.length ? chain : sameRank;
  return best.length >= 2 ? best : null;
}

/** Every meld in `melds` that `card` could be laid off on, in table order. */
export function layOffTargets(melds: readonly Meld[], card: Card): Meld[] {
  return melds.filter((m) => layOffOnto(m, card) !== null);
}

/**
 * Groups in `hand` that can be registered now, greedily: sets, then runs,
 * then groups completed by jokers, then lone 7s. Used by the bot.
 */
export function planMelds(hand: readonly Card[]): Card[][] {
  const left = new Set(hand);
  const out: Card[][] = [];
  const byRank = new Map<number, Card[]>();
  for (const c of hand) if (!isJoker(c)) byRank.set(c.rank, [...(byRank.get(c.rank) ?? []), c]);
  for (const group of byRank.values()) {
    if (group.length >= 3) {
      out.push(group);
      for (const c of group) left.delete(c);
    }
  }
  for (const suit of SUITS) {
    const bySuit = new Map<number, Card>();
    for (const c of left) if (c.suit === suit) bySuit.set(c.rank, c);
    for (const run of cyclicRuns(bySuit)) {
      if (run.length >= 3) {
        out.push(run);
        for (const c of run) left.delete(c);
      }
    }
  }
  const jokers = [...left].filter(isJoker);
  for (const joker of jokers) {
    const pair = findPairForJoker([...left].filter((c) => !isJoker(c)));
    if (!pair) break;
    out.push([...pair, joker]);
    left.delete(joker);
    for (const c of pair) left.delete(c);
  }
  for (const c of [...left]) {
    if (c.rank === 7 && !isJoker(c)) {
      out.push([c]);
      left.delete(c);
    }
  }
  return out;
}

function cyclicRuns(bySuit: Map<number, Card>): Card[][] {
  if (bySuit.size === 0) return [];
  if (bySuit.size === 13) return [[...Array(13)].map((_, i) => bySuit.get(i + 1)!)];
  let gap = 1;
  while (bySuit.has(gap)) gap++;
  const runs: Card[][] = [];
  let cur: Card[] = [];
  for (let i = 1; i <= 13; i++) {
    const r = wrap(gap + i);
    const c = bySuit.get(r);
    if (c) cur.push(c);
    else if (cur.length) {
      runs.push(cur);
      cur = [];
    }
  }
  if (cur.length) runs.push(cur);
  return runs;
}

/** Two naturals a joker turns into a meld: a same-rank pair, or same-suit cards one or two apart. */
function findPairForJoker(naturals: Card[]): Card[] | null {
  for (let i = 0; i < naturals.length; i++)
    for (let j = i + 1; j < naturals.length; j++) {
      const a = naturals[i];
      const b = naturals[j];
      if (a.rank === b.rank) return [a, b];
      if (a.suit === b.suit) {
        const d = Math.min((a.rank - b.rank + 13) % 13, (b.rank - a.rank + 13) % 13);
        if (d === 1 || d === 2) return [a, b];
      }
    }
  return null;
}
