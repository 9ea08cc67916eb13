/**
 * A sensible bot that sees only its own view: counters attacks when it can,
 * blocks with a 3, declares one-card (mostly together with the play), now and
 * then races to catch others, sheds expensive and special cards while keeping
 * one counter, names the suit/colour it holds most, and sometimes challenges a +4.
 */
import { SUITS, type Rng, type Suit } from '../../core/index.ts';
import { cardPoints, COLORS, isClassicAttack, isClassicSpecial } from './cards.ts';
import { lastCardReason } from './legal.ts';
import type { Card, Color, OneCardAction, OneCardView, PlayAction } from './types.ts';

/**
 * 봇 난이도: how reliably the bot calls its own 원카드 (alone or with the play),
 * how eagerly it catches others, and whether it plans its cards at all.
 */
const LEVELS = {
  easy: { declareIdle: false, declare: 0.35, declareWithPlay: 0.4, catchIdle: 0.05, catchOnMove: 0, plans: false },
  normal: { declareIdle: true, declare: 0.7, declareWithPlay: 0.85, catchIdle: 0.25, catchOnMove: 0.1, plans: true },
  hard: { declareIdle: true, declare: 1, declareWithPlay: 1, catchIdle: 0.6, catchOnMove: 0.3, plans: true },
} as const;
type Level = (typeof LEVELS)[keyof typeof LEVELS];

export function bot(v: OneCardView, rng: Rng): OneCardAction | null {
  if (v.finished || v.viewer === null || v.hand === null) return null;
  const lv: Level = LEVELS[v.options.botLevel ?? 'normal'];
  const L = v.legal;
  const myMove = L.canPlay || L.canDraw || L.canPass || L.canChallenge || L.canAcceptWild4 || L.mustChooseColor;
  if (L.canDeclareOneCard) {
    if (!L.oneCardIsCatch) {
      if ((!myMove && lv.declareIdle) || rng.float() < lv.declare) return { type: 'declareOneCard' };
    } else if (rng.float() < (myMove ? lv.catchOnMove : lv.catchIdle)) return { type: 'declareOneCard' };
  }
  if (!myMove) return null;
  const hand = v.hand;
  if (L.mustChooseColor) return { type: 'chooseColor', color: mostColor(hand) };

  if (L.canChallenge) {
    if (L.canPlay && rng.float() < 0.6) return playOf(v, v.legalCardIds[0], rng, lv);
    return rng.float() < 0.3 ? { type: 'challengeWild4' } : { type: 'acceptWild4' };
  }
  if (L.canPass) {
    if (L.canPlay && rng.float() < 0.85) return playOf(v, v.legalCardIds[0], rng, lv);
    return { type: 'pass' };
  }
  if (!L.canPlay) return { type: 'draw' };
  if (!lv.plans) return playOf(v, v.legalCardIds[rng.int(v.legalCardIds.length)], rng, lv);
  if (v.pendingAttack === 0 && L.canDraw && lv !== LEVELS.hard && rng.float() < 0.02) return { type: 'draw' };
  return playOf(v, choose(v, rng), rng, lv);
}

function isAttack(c: Card): boolean {
  return isClassicAttack(c) || c.kind === 'draw2' || c.kind === 'wild4';
}

function choose(v: OneCardView, rng: Rng): string {
  const hand = v.hand!;
  const legal = hand.filter((c) => v.legalCardIds.includes(c.id));
  const counters = hand.filter(isAttack).length;
  let best = legal[0];
  let bestScore = -Infinity;
  for (const c of legal) {
    let score = cardPoints(c) + rng.float() * 4;
    if (v.mode === 'classic' && isClassicSpecial(c)) score += 4;
    if (v.pendingAttack > 0)
      score += isAttack(c) ? 30 : 0; // pass the attack on rather than absorb it
    else if (isAttack(c) && counters === 1 && legal.length > 1) score -= 40; // keep one counter in hand
    if (score > bestScore) {
      best = c;
      bestScore = score;
    }
  }
  return best.id;
}

function playOf(v: OneCardView, id: string, rng: Rng, lv: Level): PlayAction {
  const hand = v.hand!;
  const first = hand.find((c) => c.id === id)!;
  const ids = [id];
  if (v.legal.multiPlay && first.kind === 'std' && v.phase.kind === 'turn') {
    for (const c of hand) if (c.id !== id && c.kind === 'std' && c.rank === first.rank) ids.push(c.id);
    // Emptying the hand is checked card by card (lastCardRule): keep one back if that fails.
    if (
      ids.length === hand.length &&
      ids.some((x) =>
        lastCardReason(
          v.options,
          hand.find((c) => c.id === x)!,
        ),
      )
    )
      ids.pop();
  }
  const rest = hand.filter((c) => !ids.includes(c.id));
  const a: PlayAction = { type: 'play', cardIds: ids };
  if (first.kind === 'std' && first.rank === 7) a.chooseSuit = mostSuit(rest, first.suit);
  if (first.kind === 'wild' || first.kind === 'wild4') a.chooseColor = mostColor(rest);
  if (rest.length === 1 && !v.options.autoDeclare && rng.float() < lv.declareWithPlay) a.declareOneCard = true;
  return a;
}

function mostSuit(hand: Card[], fallback: Suit): Suit {
  let best = fallback;
  let bestN = 0;
  for (const s of SUITS) {
    const n = hand.filter((c) => c.kind === 'std' && c.suit === s).length;
    if (n > bestN) {
      best = s;
      bestN = n;
    }
  }
  return best;
}

function mostColor(hand: Card[]): Color {
  let best: Color = 'R';
  let bestN = -1;
  for (const col of COLORS) {
    const n = hand.filter((c) => 'color' in c && c.color === col).length;
    if (n > bestN) {
      best = col;
      bestN = n;
    }
  }
  return best;
}
