/**
 * The poker bot, from its own view only. Betting depends on the room's 봇 난이도:
 * 보통 and 어려움 use bot-strong.ts; 쉬움 is the original loose policy below.
 *
 * The loose policy rates what it can see of its
 * hand (and, at indian, everyone else's forehead against the cards still
 * unseen), folds weak hands some of the time, raises strong ones, and now and
 * then picks any legal action so every action type gets exercised.
 */
import type { Rng } from '../../core/rng.ts';
import { scoreOf, bestLowHand, omahaScore } from './eval/hands.ts';
import { badugiHand } from './eval/badugi.ts';
import type { Card, CardSlot, HandPlayerView, LegalAction, PokerAction, PokerView } from './types.ts';
import { strongBet, type BotLevel } from './bot-strong.ts';

function isCard(c: CardSlot | null | undefined): c is Card {
  return !!c && 'id' in c;
}

function cardsOf(slots: readonly CardSlot[] | null): Card[] {
  return (slots ?? []).filter(isCard);
}

/** 0 (hopeless) .. 1 (monster) from the bot's own view. */
export function strength(v: PokerView, me: HandPlayerView): number {
  const h = v.hand!;
  const mine = [...cardsOf(me.hole), ...me.up];
  switch (v.mode) {
    case 'holdem':
    case 'omaha': {
      if (h.board.length < 3) {
        const ranks = mine.map((c) => c.rank).sort((a, b) => b - a);
        if (new Set(ranks).size < ranks.length) return 0.6 + (ranks[0] - 2) / 30;
        return (ranks[0] - 2) / 24 + (ranks[1] - 2) / 48;
      }
      const score = v.mode === 'omaha' ? omahaScore(mine, h.board) : scoreOf(false, [...mine, ...h.board]);
      return Math.min(1, (score >>> 20) / 5 + 0.1);
    }
    case 'fiveDraw':
      return Math.min(1, (scoreOf(false, mine) >>> 20) / 4 + 0.1);
    case 'sevenPoker':
    case 'sevenHiLo':
      return Math.min(1, (scoreOf(true, mine) >>> 22) / 6 + 0.15);
    case 'badugi': {
      if (mine.length !== 4) return 0.3;
      const b = badugiHand(mine.map((c) => c.id));
      return b.size === 4 ? 1 - (b.values[0] - 4) / 12 : b.size === 3 ? 0.35 : 0.1;
    }
    case 'indian': {
      // Count what is still unseen (deck memory from the used pile) that beats the best forehead I see.
      const others = h.players
        .filter((p) => p.id !== me.id && !p.folded)
        .map((p) => p.forehead)
        .filter(isCard);
      const best = Math.max(0, ...others.map((c) => c.rank));
      const top = v.options.indianDeck === 'd52' ? 14 : 10;
      const low = v.options.indianDeck === 'd52' ? 2 : 1;
      const seen = [...v.indianUsed, ...others, ...cardsOf(me.hole)];
      let unseen = 0;
      let beat = 0;
      for (let r = low; r <= top; r++) {
        const copies = (v.options.indianDeck === 'd52' ? 4 : 2) - seen.filter((c) => c.rank === r).length;
        unseen += copies;
        if (r > best) beat += copies;
      }
      return unseen > 0 ? beat / unseen : 0.5;
    }
  }
}

function pick<T>(rng: Rng, xs: readonly T[]): T {
  return xs[rng.int(xs.length)];
}

function betAction(v: PokerView, me: HandPlayerView, rng: Rng): PokerAction {
  const legal = v.legalActions;
  const has = (t: LegalAction['type']) => legal.find((a) => a.type === t);
  const s = strength(v, me);
  const r = rng.float();
  const asAction = (a: LegalAction): PokerAction => {
    if (a.type === 'nl.raise') {
      const span = a.max - a.min;
      return { type: 'nl.raise', to: a.min + (span > 0 ? rng.int(Math.min(span, 4 * v.baseUnit) + 1) : 0) };
    }
    return { type: a.type } as PokerAction;
  };
  if (r < 0.1) return asAction(pick(rng, legal));
  const free = has('k.check') ?? has('nl.check');
  const foldA = has('k.die') ?? has('nl.fold')!;
  if (s < 0.3 && !free && r < 0.55) return asAction(foldA);
  if (s > 0.65 && r < 0.8) {
    const raises = legal.filter((a) =>
      ['k.ping', 'k.ddadang', 'k.quarter', 'k.half', 'k.full', 'nl.raise', 'nl.allIn'].includes(a.type),
    );
    const modest = raises.filter((a) => a.type !== 'nl.allIn' || r < 0.15);
    if (modest.length) return asAction(pick(rng, modest));
  }
  if (free) return r < 0.2 && has('k.ping') ? { type: 'k.ping' } : asAction(free);
  const call = has('k.call') ?? has('nl.call');
  return asAction(call ?? foldA);
}

function chooseAction(me: HandPlayerView, rng: Rng): PokerAction {
  const cards = cardsOf(me.choice);
  const byRank = [...cards].sort((a, b) => a.rank - b.rank || a.id - b.id);
  const paired = new Set(cards.filter((c) => cards.some((d) => d !== c && d.rank === c.rank)).map((c) => c.id));
  const discard = byRank.find((c) => !paired.has(c.id)) ?? byRank[0];
  const rest = byRank.filter((c) => c.id !== discard.id);
  const open = rng.float() < 0.7 ? rest[0] : pick(rng, rest);
  return { type: 'choose', discardId: discard.id, openId: open.id };
}

function drawAction(v: PokerView, me: HandPlayerView, rng: Rng): PokerAction {
  const hole = cardsOf(me.hole);
  const limit = v.legalActions.find((a) => a.type === 'draw') as Extract<LegalAction, { type: 'draw' }>;
  let out: Card[];
  if (v.mode === 'badugi') {
    const b = badugiHand(hole.map((c) => c.id));
    out = hole.filter((_, i) => !b.picked.includes(i));
    // Break a high made hand now and then.
    if (out.length === 0 && b.values[0] >= 10 && rng.float() < 0.5) out = [hole[b.picked[0]]];
    if (rng.float() < 0.05) out = hole.slice();
  } else {
    const paired = hole.filter((c) => hole.some((d) => d !== c && d.rank === c.rank));
    out = hole.filter((c) => !paired.includes(c)).sort((a, b) => a.rank - b.rank);
    // Without a pair, keep the ace (which also unlocks the fourth card under `three`).
    if (paired.length === 0) out = out.filter((c) => c.rank !== 14);
    if (rng.float() < 0.08) out = hole.slice();
    const keepsAce = hole.some((c) => c.rank === 14 && !out.includes(c));
    out = out.slice(0, keepsAce ? (limit.maxWithAce ?? limit.max) : limit.max);
  }
  return { type: 'draw', cardIds: out.map((c) => c.id) };
}

function declareAction(v: PokerView, me: HandPlayerView, rng: Rng): PokerAction {
  const cards = [...cardsOf(me.hole), ...me.up];
  const high = scoreOf(true, cards) >>> 22;
  const low = bestLowHand(cards, v.options.hiLoLow, v.options.hiLoQualifier);
  const r = rng.float();
  if (r < 0.08) return { type: 'declare', side: 'swing' };
  if (low && high >= 4 && r < 0.3) return { type: 'declare', side: 'swing' };
  if (low && high <= 2 && r < 0.85) return { type: 'declare', side: 'low' };
  return { type: 'declare', side: 'high' };
}

export function bot(v: PokerView, rng: Rng): PokerAction | null {
  if (v.viewer === null || v.legalActions.length === 0) return null;
  const first = v.legalActions[0];
  if (first.type === 'rebuy') return { type: 'rebuy', accept: rng.float() < 0.75 };
  if (first.type === 'ready') return { type: 'ready' };
  const me = v.hand?.players.find((p) => p.id === v.viewer);
  if (!me) return null;
  switch (first.type) {
    case 'choose':
      return chooseAction(me, rng);
    case 'draw':
      return drawAction(v, me, rng);
    case 'declare':
      return declareAction(v, me, rng);
    default: {
      // 쉬움 keeps the loose policy above; 보통 and 어려움 bet by hand strength, pot odds and position.
      const level: BotLevel = v.options.botLevel ?? 'normal';
      return level === 'easy' ? betAction(v, me, rng) : strongBet(v, me, rng, level, strength(v, me));
    }
  }
}
