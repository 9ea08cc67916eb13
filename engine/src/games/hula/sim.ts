/**
 * Simulator adapter (docs/games/hula.md §8, §10): where every card lies, what
 * each viewer must not identify, the invariants checked at every step, and
 * input that must always be rejected. Room points are conserved: what losers
 * pay equals what winners receive plus the fee.
 */
import type { Rng } from '../../core/rng.ts';
import type { PlayerId } from '../../core/types.ts';
import type { IllegalProbe, SimAdapter } from '../../sim/adapter.ts';
import { hula } from './index.ts';
import { classifyMeld, isJoker, wrap } from './melds.ts';
import { HAND_LIMIT } from './setup.ts';
import type { Card, HulaState, HulaView, Meld } from './types.ts';

const FACE_SUITS = new Set(['S', 'H', 'D', 'C', 'X']);

function allCards(s: HulaState): Card[] {
  const out: Card[] = [];
  for (const h of s.hands) out.push(...h);
  for (let i = s.stockTop; i < s.stock.length; i++) out.push(s.stock[i]);
  out.push(...s.discard);
  for (const m of s.melds) out.push(...m.cards);
  return out;
}

function hiddenFrom(s: HulaState, viewer: PlayerId | null): Card[] {
  const out = s.stock.slice(s.stockTop);
  // Settlement shows every hand; only the stock stays face down.
  if (s.phase.kind === 'roundEnd' || s.phase.kind === 'finished') return out;
  s.seats.forEach((x, i) => {
    if (x.id !== viewer) out.push(...s.hands[i]);
  });
  return out;
}

function faceOf(node: unknown): string | null {
  const c = node as Partial<Card>;
  if (typeof c.id !== 'string' || typeof c.suit !== 'string' || typeof c.rank !== 'number') return null;
  return FACE_SUITS.has(c.suit) ? `${c.suit}${c.rank}` : null;
}

/** A meld on the table is what its kind says it is. */
function meldProblem(m: Meld): string | null {
  if (m.kind === 'seven') return m.cards.length === 1 && m.cards[0].rank === 7 ? null : 'bad lone 7';
  if (m.kind === 'set') {
    const nat = m.cards.filter((c) => !isJoker(c));
    if (m.cards.length < 2 || m.cards.length > 4) return 'set size';
    if (nat.some((c) => c.rank !== m.rank)) return 'set rank';
    if (new Set(nat.map((c) => c.suit)).size !== nat.length) return 'set suits';
    if (m.cards.length >= 3 && nat.length === m.cards.length && !classifyMeld(m.cards)) return 'set invalid';
    return null;
  }
  if (m.cards.length < 2 || m.cards.length > 13) return 'run size';
  for (let i = 0; i < m.cards.length; i++) {
    const c = m.cards[i];
    if (isJoker(c)) continue;
    if (c.suit !== m.suit || c.rank !== wrap(m.rank + i)) return `run position ${i}`;
  }
  return null;
}

function invariants(s: HulaState, views: Map<PlayerId | null, HulaView>): string[] {
  const out: string[] = [];
  const p = s.phase;
  s.seats.forEach((x, i) => {
    const hand = s.hands[i];
    if (hand.length > HAND_LIMIT) out.push(`${x.id} holds ${hand.length} cards`);
    if (!s.inRound[i] && hand.length > 0) out.push(`${x.id} is out of the round but holds cards`);
    const v = views.get(x.id);
    if (v && x.status === 'playing' && s.inRound[i]) {
      const mine = (v.hand ?? []).map((c) => c.id).join();
      if (mine !== hand.map((c) => c.id).join()) out.push(`${x.id} view hand differs from state`);
    }
    for (const vv of views.values()) if (vv.seats[i].handCount !== hand.length) out.push(`hand count of ${x.id} wrong`);
  });
  if ((p.kind === 'draw' || p.kind === 'act') && !s.inRound[p.seat]) out.push('current player is not in the round');
  if (p.kind === 'draw' && s.hands[p.seat].length >= HAND_LIMIT) out.push('drawing player already holds 8');
  if (p.kind !== 'finished' && p.kind !== 'roundEnd' && s.discard.length === 0 && p.kind !== 'draw' && p.kind !== 'act')
    out.push('땡큐 phase with an empty discard pile');
  for (const m of s.melds) {
    const bad = meldProblem(m);
    if (bad) out.push(`meld ${m.id}: ${bad}`);
  }
  if (p.kind === 'thankYouRace' && p.claims.length > 0 && p.windowEnd === null) out.push('claims without a window');
  const spectator = views.get(null);
  if (spectator && spectator.hand !== null) out.push('spectator sees a hand');
  if (p.kind === 'finished' && !hula.result(s)) out.push('finished without a result');
  return out;
}

function illegalProbes(s: HulaState, rng: Rng, last: { actor: PlayerId; action: unknown } | null): IllegalProbe[] {
  const probes: IllegalProbe[] = [];
  const p = s.phase;
  if (p.kind === 'finished') return probes;
  const seats = s.seats.map((_, i) => i).filter((i) => s.inRound[i] && s.seats[i].status === 'playing');
  const current = p.kind === 'draw' || p.kind === 'act' ? p.seat : -1;
  const others = seats.filter((i) => i !== current || p.kind !== 'draw');
  if (others.length > 0) {
    const who = others[rng.int(others.length)];
    probes.push({ actor: s.seats[who].id, action: { type: 'draw', from: 'stock' }, label: 'wrongPlayer' });
  }
  // A card the actor does not hold: another hand's, or the next stock card.
  const actor = seats[rng.int(seats.length)];
  const foreign = [...s.stock.slice(s.stockTop, s.stockTop + 3), ...s.hands.flatMap((h, i) => (i === actor ? [] : h))];
  if (foreign.length > 0) {
    const card = foreign[rng.int(foreign.length)];
    probes.push({ actor: s.seats[actor].id, action: { type: 'discard', cardId: card.id }, label: 'notInHand' });
    probes.push({ actor: s.seats[actor].id, action: { type: 'meld', cardIds: [card.id] }, label: 'notInHand' });
  }
  const replay = replayProbe(s, last);
  if (replay) probes.push(replay);
  probes.push(...ruleProbes(s, rng));
  const bad: unknown[] = [
    { type: 'draw', from: 'air' },
    { type: 'meld', cardIds: [] },
    { type: 'discard' },
    { type: 'thankYou', cardIds: 'S1' },
    { type: 'layOff', cardIds: ['S1'], meldId: 0 },
    { type: 'stop', extra: true },
    { type: 'reserveLeave' },
  ];
  probes.push({ actor: s.seats[actor].id, action: bad[rng.int(bad.length)], label: 'malformed' });
  return probes;
}

/** The last action sent again, when its precondition is certainly gone (the cards left the hand, the phase moved on). */
function replayProbe(s: HulaState, last: { actor: PlayerId; action: unknown } | null): IllegalProbe | null {
  if (!last) return null;
  const seat = s.seats.findIndex((x) => x.id === last.actor);
  if (seat < 0) return null;
  const a = last.action as { type: string; cardId?: string; cardIds?: string[] };
  const p = s.phase;
  const held = new Set(s.hands[seat].map((c) => c.id));
  const probe: IllegalProbe = { actor: last.actor, action: last.action, label: 'replay' };
  switch (a.type) {
    case 'discard':
      return a.cardId && !held.has(a.cardId) ? probe : null;
    case 'meld':
    case 'layOff':
    case 'thankYou':
      return a.cardIds?.some((id) => !held.has(id)) ? probe : null;
    case 'draw':
    case 'stop':
      return p.kind === 'draw' && p.seat === seat ? null : probe;
    case 'special':
      return (p.kind === 'draw' || p.kind === 'act') && p.seat === seat ? null : probe;
    case 'ready':
      return p.kind === 'roundEnd' && !p.ready.includes(seat) ? null : probe;
    case 'pass':
      if (p.kind === 'thankYouAsk') return p.order[p.index] === seat ? null : probe;
      if (p.kind === 'thankYouRace') return p.passed.includes(seat) || p.discarder === seat ? probe : null;
      return probe;
    default:
      return null;
  }
}

/** Rule breaks that are illegal by construction in the current state. */
function ruleProbes(s: HulaState, rng: Rng): IllegalProbe[] {
  const out: IllegalProbe[] = [];
  const p = s.phase;
  if (p.kind === 'draw' || p.kind === 'act') {
    const id = s.seats[p.seat].id;
    const hand = s.hands[p.seat];
    if (p.kind === 'act') out.push({ actor: id, action: { type: 'stop' }, label: 'other' });
    if (p.kind === 'draw') out.push({ actor: id, action: { type: 'discard', cardId: hand[0].id }, label: 'other' });
    if (!s.registered[p.seat] && hand.length > 0)
      out.push({ actor: id, action: { type: 'layOff', cardIds: [hand[rng.int(hand.length)].id] }, label: 'other' });
    // Two cards of different rank and suit, not both 7s, never make a meld.
    for (let i = 0; i < hand.length; i++)
      for (let j = i + 1; j < hand.length; j++) {
        const a = hand[i];
        const b = hand[j];
        if (!isJoker(a) && !isJoker(b) && a.rank !== b.rank && a.suit !== b.suit) {
          out.push({ actor: id, action: { type: 'meld', cardIds: [a.id, b.id] }, label: 'other' });
          i = j = hand.length;
        }
      }
    const joker = hand.find(isJoker);
    if (p.kind === 'act' && joker && hand.some((c) => !isJoker(c)))
      out.push({ actor: id, action: { type: 'discard', cardId: joker.id }, label: 'other' });
  }
  if (p.kind === 'thankYouAsk' || p.kind === 'thankYouRace') {
    const hand = s.hands[p.discarder];
    if (hand.length >= 2)
      out.push({
        actor: s.seats[p.discarder].id,
        action: { type: 'thankYou', cardIds: [hand[0].id, hand[1].id] },
        label: 'other',
      });
  }
  return out;
}

export const hulaSim: SimAdapter<HulaState, HulaView> = {
  game: hula,
  allCards,
  cardId: (c) => (c as Card).id,
  hiddenFrom,
  faceOf,
  idsAreTokens: true,
  invariants,
  illegalProbes,
  conserved: (s) => ({
    name: 'room points + fees',
    value: s.seats.reduce((a, x) => a + x.points, 0) + s.feeTotal,
    expected: 0,
  }),
};
