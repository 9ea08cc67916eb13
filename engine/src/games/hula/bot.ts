/**
 * A reasonable player working from its own view only (docs/games/hula.md
 * §8.7): declares a special hand, stops on a low hand, takes the discard when
 * it makes a meld, registers and lays off all it can, takes every 땡큐 it can,
 * and throws its highest loose card.
 */
import type { Rng } from '../../core/rng.ts';
import { classifyMeld, findThankYouCards, isJoker, layOffTargets, planMelds, wrap } from './melds.ts';
import { cardPoints } from './scoring.ts';
import type { Card, HulaAction, HulaView } from './types.ts';

/** Stops at or under this many points even where the table allows more (5인 has no limit). */
const STOP_AT = 10;

/**
 * 봇 난이도: how often the bot presses 땡큐 in a race, and whether it looks for
 * melds in the discard and keeps its hand's shape when it throws.
 */
const LEVELS = {
  easy: { race: 0.3, wantsDiscards: false, shapes: false },
  normal: { race: 0.8, wantsDiscards: true, shapes: true },
  hard: { race: 1, wantsDiscards: true, shapes: true },
} as const;

export function bot(v: HulaView, rng: Rng): HulaAction | null {
  const lv = LEVELS[v.options.botLevel ?? 'normal'];
  const me = v.me;
  const hand = v.hand;
  if (!me || !hand) return null;
  switch (v.phase.kind) {
    case 'roundEnd':
      return me.mustAct ? { type: 'ready' } : null;
    case 'thankYouAsk':
      if (v.phase.asked !== v.viewer) return null;
      return me.thankYouCardIds ? { type: 'thankYou', cardIds: me.thankYouCardIds } : { type: 'pass' };
    case 'thankYouRace':
      // A bot that cannot use the card passes at once, so people at the table do not wait out the window
      // for it; one that can does not always press at once, and the engine's window decides close calls.
      if (v.phase.discarder === v.viewer || v.phase.passed.includes(v.viewer!) || v.phase.claimants.includes(v.viewer!))
        return null;
      if (!me.thankYouCardIds) return { type: 'pass' };
      return rng.float() < lv.race ? { type: 'thankYou', cardIds: me.thankYouCardIds } : null;
    case 'draw':
      if (v.current !== v.viewer) return null;
      if (me.special) return { type: 'special' };
      if (me.canStop && stopLooksSafe(v, me.stopScore, me.stopLimit)) return { type: 'stop' };
      if (me.canDrawDiscard && v.discardTop && lv.wantsDiscards && wantsDiscard(v, hand, v.discardTop))
        return { type: 'draw', from: 'discard' };
      if (me.canDraw) return { type: 'draw', from: 'stock' };
      return me.canDrawDiscard ? { type: 'draw', from: 'discard' } : null;
    case 'act':
      if (v.current !== v.viewer) return null;
      if (me.special) return { type: 'special' };
      return act(v, hand, lv.shapes ? chooseDiscard(hand) : hand[rng.int(hand.length)]);
    default:
      return null;
  }
}

/**
 * A low hand is not enough: someone close to going out usually holds less.
 * Each opponent is guessed at about four points a card.
 */
function stopLooksSafe(v: HulaView, score: number, limit: number | null): boolean {
  if (score > Math.min(limit ?? STOP_AT, STOP_AT)) return false;
  const fewest = Math.min(...v.seats.filter((x) => x.inRound && x.id !== v.viewer).map((x) => x.handCount));
  return score < fewest * 4;
}

function registered(v: HulaView): boolean {
  return v.seats.find((x) => x.id === v.viewer)?.registered ?? false;
}

function wantsDiscard(v: HulaView, hand: Card[], top: Card): boolean {
  if (isJoker(top)) return registered(v) && layOffTargets(v.melds, top).length > 0;
  if (top.rank === 7) return true;
  if (findThankYouCards(hand, top)) return true;
  return registered(v) && layOffTargets(v.melds, top).length > 0;
}

function act(v: HulaView, hand: Card[], discard: Card): HulaAction {
  const groups = planMelds(hand);
  if (groups.length > 0 && classifyMeld(groups[0])) return { type: 'meld', cardIds: groups[0].map((c) => c.id) };
  if (registered(v)) {
    // Jokers first: a joker left in hand is 조커박.
    const order = [...hand].sort((a, b) => Number(isJoker(b)) - Number(isJoker(a)));
    for (const c of order) {
      const targets = layOffTargets(v.melds, c);
      if (targets.length > 0) return { type: 'layOff', cardIds: [c.id], meldId: targets[0].id };
    }
  }
  return { type: 'discard', cardId: discard.id };
}

/** Highest card that is not part of a pair or a near-run; jokers only when nothing else is left. */
export function chooseDiscard(hand: Card[]): Card {
  const naturals = hand.filter((c) => !isJoker(c));
  if (naturals.length === 0) return hand[0];
  const keeps = (c: Card): boolean =>
    naturals.some(
      (o) =>
        o !== c &&
        (o.rank === c.rank || (o.suit === c.suit && (o.rank === wrap(c.rank + 1) || o.rank === wrap(c.rank - 1)))),
    );
  const loose = naturals.filter((c) => !keeps(c));
  const pool = loose.length > 0 ? loose : naturals;
  let best = pool[0];
  for (const c of pool) if (cardPoints(c, true) > cardPoints(best, true)) best = c;
  return best;
}
