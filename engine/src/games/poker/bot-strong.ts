/**
 * The betting policy of the 보통 and 어려움 poker bots. It decides from its
 * own view like a careful human: how strong is my hand (pre-flop hand group
 * in hold'em, Monte-Carlo equity after it, a heuristic where no simulation
 * applies), what does the pot offer (pot odds), where do I sit (late
 * position plays more hands), and then picks a size the table's betting
 * knows — Korean sizes (삥, 따당, 쿼터, 하프, 풀) by their share of the pot in
 * Korean modes, fractions of the pot in no-limit and pot-limit. A little
 * randomness (occasional bluffs and slow-plays, jitter on the estimate) keeps
 * it from being read. 쉬움 keeps the old loose policy (bot.ts).
 */
import type { Rng } from '../../core/rng.ts';
import { canSimulate, cardsOf, equity, handGroup } from './equity.ts';
import type { HandPlayerView, LegalAction, PokerAction, PokerView } from './types.ts';

export type BotLevel = 'easy' | 'normal' | 'hard';

interface Style {
  trials: number;
  /** ± jitter on the estimated equity. */
  noise: number;
  bluff: number;
  slowPlay: number;
  /** Extra equity demanded over the pot odds before calling. */
  callMargin: number;
}

const STYLES: Record<Exclude<BotLevel, 'easy'>, Style> = {
  normal: { trials: 250, noise: 0.06, bluff: 0.07, slowPlay: 0.12, callMargin: 0.02 },
  hard: { trials: 700, noise: 0.025, bluff: 0.05, slowPlay: 0.1, callMargin: 0.04 },
};

const KOREAN_RAISES = ['k.ping', 'k.ddadang', 'k.quarter', 'k.half', 'k.full'] as const;

function potOf(v: PokerView): number {
  const h = v.hand!;
  return h.pots.reduce((a, p) => a + p.amount, 0) + h.players.reduce((a, p) => a + p.committedRound, 0);
}

/** 0 = first to act after the blinds/boss … 1 = last (the button): later seats see more before deciding. */
function lateness(v: PokerView, me: HandPlayerView): number {
  const h = v.hand!;
  const live = h.players.filter((p) => !p.folded).sort((a, b) => a.seat - b.seat);
  const n = live.length;
  if (n <= 1) return 1;
  const from = (h.dealerSeat + 1) % Math.max(1, v.seats.length);
  const order = live.map((p) => (p.seat - from + v.seats.length) % v.seats.length).sort((a, b) => a - b);
  const mine = (me.seat - from + v.seats.length) % v.seats.length;
  return order.indexOf(mine) / (n - 1);
}

/** Pre-flop hold'em: a group-based equity stand-in, loosened by position and by fewer opponents. */
function preflopValue(me: HandPlayerView, late: number, opponents: number): number {
  const [a, b] = cardsOf(me.hole);
  const g = handGroup(a, b);
  // Group 1 ≈ 0.85 … group 8 ≈ 0.2 against one caller; each extra opponent shaves it.
  const base = 0.93 - g * 0.09 + late * 0.06;
  return Math.max(0.05, base - (opponents - 1) * 0.05);
}

/** Heuristic equity for modes the simulation does not cover (draw games, 바둑이, 인디언). */
function heuristic(strength: number, opponents: number): number {
  return Math.pow(Math.max(0.01, Math.min(0.99, strength)), Math.max(1, opponents) * 0.8);
}

export function handValue(v: PokerView, me: HandPlayerView, level: Style, rng: Rng, strength: number): number {
  const h = v.hand!;
  const opponents = h.players.filter((p) => p.id !== me.id && !p.folded).length;
  let e: number;
  if (v.mode === 'holdem' && h.board.length === 0) e = preflopValue(me, lateness(v, me), opponents);
  else if (canSimulate(v.mode)) e = equity(v, me, level.trials, rng);
  else e = heuristic(strength, opponents);
  return Math.max(0, Math.min(1, e + (rng.float() * 2 - 1) * level.noise));
}

/** A raise worth about `fraction` of the pot in whatever sizes this betting offers. */
function sizedRaise(v: PokerView, legal: LegalAction[], fraction: number, pot: number): PokerAction | null {
  const korean = legal.filter((a) => (KOREAN_RAISES as readonly string[]).includes(a.type)) as Extract<
    LegalAction,
    { amount: number }
  >[];
  if (korean.length > 0) {
    // The Korean size whose cost is closest to the wanted share of the pot.
    const want = fraction * Math.max(pot, v.baseUnit);
    let best = korean[0];
    for (const a of korean) if (Math.abs(a.amount - want) < Math.abs(best.amount - want)) best = a;
    return { type: best.type } as PokerAction;
  }
  const raise = legal.find((a) => a.type === 'nl.raise') as Extract<LegalAction, { type: 'nl.raise' }> | undefined;
  if (raise) {
    const to = Math.round(v.hand!.currentBet + fraction * Math.max(pot, v.baseUnit));
    return { type: 'nl.raise', to: Math.max(raise.min, Math.min(raise.max, to)) };
  }
  const allIn = legal.find((a) => a.type === 'nl.allIn');
  return allIn && fraction >= 1 ? { type: 'nl.allIn' } : null;
}

export function strongBet(
  v: PokerView,
  me: HandPlayerView,
  rng: Rng,
  level: Exclude<BotLevel, 'easy'>,
  strength: number,
): PokerAction {
  const style = STYLES[level];
  const legal = v.legalActions;
  const find = (...types: LegalAction['type'][]) => legal.find((a) => types.includes(a.type));
  const check = find('k.check', 'nl.check');
  const call = find('k.call', 'nl.call') as Extract<LegalAction, { amount: number }> | undefined;
  const fold = find('k.die', 'nl.fold');
  const pot = potOf(v);
  const e = handValue(v, me, style, rng, strength);
  const r = rng.float();
  const stack = v.seats.find((s) => s.id === me.id)?.stack ?? 0;

  if (check) {
    // Nobody bet: bet for value with a strong hand (sometimes just check to trap), bluff now and then.
    if (e > 0.62 && r > style.slowPlay)
      return sizedRaise(v, legal, e > 0.8 ? 0.75 : 0.5, pot) ?? (check as PokerAction);
    if (e < 0.35 && r < style.bluff) return sizedRaise(v, legal, 0.5, pot) ?? (check as PokerAction);
    return { type: check.type } as PokerAction;
  }
  const toCall = call?.amount ?? 0;
  const odds = toCall / Math.max(1, pot + toCall);
  // A monster re-raises; a big bet against a short stack means all in is just a call.
  if (e > 0.78 && r > style.slowPlay) {
    const raise = sizedRaise(v, legal, e > 0.9 ? 1 : 0.7, pot);
    if (raise) return raise;
  }
  if (call && (e >= odds + style.callMargin || (toCall <= v.baseUnit && e > 0.2)))
    return { type: call.type } as PokerAction;
  if (call && r < style.bluff / 2 && toCall < stack * 0.15) return { type: call.type } as PokerAction;
  if (!call) {
    // Facing all-in with no call (e.g. only all-in offered): go with good hands only.
    const allIn = find('nl.allIn');
    if (allIn && e > 0.6) return { type: 'nl.allIn' };
  }
  return fold ? ({ type: fold.type } as PokerAction) : ({ type: legal[0].type } as PokerAction);
}
