/**
 * 인디언 포커 (§5.4.7): the forehead card everyone but its owner sees, the
 * optional hand card, the fold penalty for folding the deck's top card, and
 * the deck that (with `whenEmpty`) lives across hands so cards can be counted.
 */
import type { PlayerId } from '../../core/types.ts';
import { deriveSeed } from '../../core/commit.ts';
import { Rng } from '../../core/rng.ts';
import { type Ctx, live, P, S } from './draft.ts';
import { deck20, deck52 } from './cards.ts';
import type { Card, PokerState } from './types.ts';

/** Highest rank of the indian deck: 10 in d20, the ace (14) in d52. */
export function indianTopRank(s: PokerState): number {
  return s.options.indianDeck === 'd52' ? 14 : 10;
}

/**
 * At hand start: last hand's cards join the public used pile; the deck is
 * (re)built and shuffled with this hand's RNG when it cannot serve the hand
 * (`whenEmpty`) or every hand (`everyHand`).
 */
export function prepareIndianDeck(ctx: Ctx, rng: Rng, players: number): void {
  const s = ctx.s;
  const h = s.hand!;
  const need = players * s.options.indianCards;
  const everyHand = s.options.indianReshuffle === 'everyHand';
  if (s.indianDeck === null || everyHand || s.indianDeck.length < need) {
    const all =
      s.indianDeck === null
        ? s.options.indianDeck === 'd52'
          ? deck52()
          : deck20()
        : [...s.indianDeck, ...s.indianUsed];
    if (s.indianDeckHand !== null && !everyHand) {
      // The previous deck is used up: its shuffle can now be checked by anyone.
      s.retiredDeckSeed = { handNo: s.indianDeckHand, seed: deriveSeed(s.seed, `hand:${s.indianDeckHand}`) };
      ctx.ev.push({ type: 'deckRetired', ...s.retiredDeckSeed });
    }
    s.indianDeck = rng.shuffle(all);
    s.indianUsed = [];
    s.indianDeckHand = everyHand ? null : h.handNo;
    h.shuffledIndianDeck = !everyHand;
    ctx.ev.push({ type: 'reshuffle', cards: all.length });
  }
}

/** Moves the finished hand's indian cards to the public used pile (called when the next hand starts). */
export function collectIndianCards(s: PokerState): void {
  const h = s.hand;
  if (!h || s.options.mode !== 'indian') return;
  const used: Card[] = [];
  for (const id of h.seatOrder) {
    const p = h.players[id];
    if (p.forehead) used.push(p.forehead);
    used.push(...p.hole);
  }
  s.indianUsed = [...s.indianUsed, ...used];
}

export function takeIndian(s: PokerState, n: number): Card[] {
  const cards = s.indianDeck!.slice(0, n);
  s.indianDeck = s.indianDeck!.slice(n);
  return cards;
}

export function dealForeheads(ctx: Ctx): void {
  const h = ctx.s.hand!;
  for (const { id } of live(h)) {
    const p = P(ctx, id);
    p.forehead = takeIndian(ctx.s, 1)[0];
    // The face is public to the other players only, so the event carries none (views filter per viewer).
    ctx.ev.push({ type: 'dealt', to: p.id, count: 1, forehead: true });
  }
}

export function dealIndianHole(ctx: Ctx): void {
  const h = ctx.s.hand!;
  for (const { id } of live(h)) {
    const p = P(ctx, id);
    p.hole = [...p.hole, takeIndian(ctx.s, 1)[0]];
    ctx.ev.push({ type: 'dealt', to: p.id, count: 1 });
  }
}

/** §5.4.7: folding with the deck's top card on the forehead costs 10 × baseUnit (or the whole stack). */
export function chargeFoldPenalty(ctx: Ctx, id: PlayerId): void {
  const s = ctx.s;
  if (s.options.mode !== 'indian' || !s.options.indianFoldPenalty) return;
  const h = s.hand!;
  const p = h.players[id];
  if (!p.forehead || p.forehead.rank !== indianTopRank(s)) return;
  const amount = Math.min(10 * s.baseUnit, S(ctx, id).stack);
  if (amount <= 0) return;
  S(ctx, id).stack -= amount;
  h.penalties = [...h.penalties, { from: id, amount }];
  ctx.ev.push({ type: 'penalty', player: id, amount });
}
