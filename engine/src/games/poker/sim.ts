/**
 * Simulator adapter: where every card lies, which ones each viewer must not
 * identify, poker's own invariants, illegal input that must bounce, and chip
 * conservation (Σ stacks + Σ pots + Σ round bets + penalties + carry-over =
 * initial chips + rebuys) after every transition.
 */
import type { PlayerId } from '../../core/types.ts';
import type { Rng } from '../../core/rng.ts';
import type { IllegalProbe, SimAdapter } from '../../sim/adapter.ts';
import { deriveSeed, seedCommitment } from '../../core/commit.ts';
import { poker } from './index.ts';
import { hp } from './draft.ts';
import type { Card, HandState, PokerState, PokerView } from './types.ts';

function handCards(h: HandState): Card[] {
  const out: Card[] = [...h.deck, ...h.muck, ...h.board];
  for (const id of h.seatOrder) {
    const p = h.players[id];
    out.push(...p.hole, ...p.up);
    if (p.choice) out.push(...p.choice);
    if (p.forehead) out.push(p.forehead);
  }
  return out;
}

export function allCards(s: PokerState): Card[] {
  const out = s.hand ? handCards(s.hand) : [];
  if (s.indianDeck) out.push(...s.indianDeck);
  out.push(...s.indianUsed);
  return out;
}

export function hiddenFrom(s: PokerState, viewer: PlayerId | null): Card[] {
  const h = s.hand;
  const hidden: Card[] = [...(s.indianDeck ?? [])];
  if (!h) return hidden;
  const ended = h.phase === 'handEnd';
  const indian = s.options.mode === 'indian';
  hidden.push(...h.deck);
  for (const c of h.muck) if (!(viewer && h.players[viewer]?.discarded?.id === c.id && hp(h, viewer))) hidden.push(c);
  const inHand = viewer !== null && hp(h, viewer) !== undefined;
  for (const id of h.seatOrder) {
    const p = h.players[id];
    const shown = ended && (indian || (h.showdown?.some((e) => e.id === id) ?? false));
    if (shown) continue;
    if (id !== viewer) {
      hidden.push(...p.hole);
      if (p.choice) hidden.push(...p.choice);
    }
    if (p.forehead && (id === viewer || !inHand)) hidden.push(p.forehead);
  }
  return hidden;
}

function faceOf(node: unknown): string | null {
  if (node === null || typeof node !== 'object') return null;
  const c = node as Record<string, unknown>;
  if (typeof c.id === 'number' && typeof c.rank === 'number' && typeof c.suit === 'string') return `${c.suit}${c.rank}`;
  return null;
}

function chips(s: PokerState): { value: number; expected: number } {
  let value = s.carryOver;
  let rebuys = 0;
  for (const seat of s.seats) {
    value += seat.stack;
    rebuys += seat.rebuys;
  }
  const h = s.hand;
  if (h) {
    for (const p of h.pots) value += p.amount;
    for (const p of h.penalties) value += p.amount;
    for (const id of h.seatOrder) value += h.players[id].committedRound;
  }
  return { value, expected: s.options.startingChips * (s.seats.length + rebuys) };
}

function invariants(s: PokerState, views: Map<PlayerId | null, PokerView>): string[] {
  const out: string[] = [];
  const h = s.hand;
  for (const seat of s.seats) if (seat.stack < 0 || !Number.isInteger(seat.stack)) out.push(`bad stack ${seat.id}`);
  if (h && s.phase === 'playing') {
    if (h.seedCommit !== seedCommitment(deriveSeed(s.seed, `hand:${h.handNo}`))) out.push('hand seed commitment wrong');
    const b = h.betting;
    if (h.phase === 'betting') {
      if (!b || !b.toAct) out.push('betting without a player to act');
      else {
        const p = h.players[b.toAct];
        if (p.folded || p.allIn) out.push('folded or all-in player to act');
        const max = Math.max(...h.seatOrder.map((id) => h.players[id].committedRound));
        if (max !== b.currentBet) out.push(`currentBet ${b.currentBet} != max bet ${max}`);
        if ((views.get(b.toAct)?.legalActions.length ?? 0) === 0) out.push('player to act has no legal action');
      }
    }
    for (const pot of h.pots)
      for (const id of pot.eligible) if (h.players[id].folded) out.push('folded player eligible');
    if (s.options.mode === 'indian' && h.phase !== 'handEnd') {
      for (const id of h.seatOrder) {
        const own = views.get(id)?.hand?.players.find((p) => p.id === id)?.forehead;
        if (own && 'id' in own) out.push('indian forehead visible to its owner');
        const spec = views.get(null)?.hand?.players.find((p) => p.id === id)?.forehead;
        if (spec && 'id' in spec) out.push('indian forehead visible to a spectator');
      }
    }
  }
  for (const [viewer, v] of views) {
    for (const p of v.hand?.players ?? [])
      for (const slot of [...p.hole, ...(p.choice ?? [])])
        if ('hidden' in slot && Object.keys(slot).length !== 1) out.push(`hidden slot carries data for ${viewer}`);
  }
  return out;
}

const BET_TYPES = ['k.call', 'k.check', 'k.half', 'nl.call', 'nl.check', 'nl.fold'] as const;

function illegalProbes(s: PokerState, rng: Rng, last: { actor: PlayerId; action: unknown } | null): IllegalProbe[] {
  const probes: IllegalProbe[] = [];
  const h = s.hand;
  const korean = s.betting === 'korean';
  if (s.phase === 'playing' && h) {
    const b = h.betting;
    const others = h.seatOrder.filter((id) => id !== b?.toAct);
    if (h.phase === 'betting' && b?.toAct) {
      const notTurn = others[rng.int(others.length)];
      if (notTurn)
        probes.push({ actor: notTurn, action: { type: BET_TYPES[rng.int(BET_TYPES.length)] }, label: 'wrongPlayer' });
      probes.push({ actor: b.toAct, action: { type: korean ? 'nl.call' : 'k.call' }, label: 'other' });
      const p = h.players[b.toAct];
      if (korean && (p.raisedThisRound || p.lockedFromRaise))
        probes.push({ actor: b.toAct, action: { type: 'k.half' }, label: 'other' });
      if (korean && s.options.koreanMaxRaise === 'half')
        probes.push({ actor: b.toAct, action: { type: 'k.full' }, label: 'other' });
      if (!korean && b.currentBet > p.committedRound)
        probes.push({ actor: b.toAct, action: { type: 'nl.check' }, label: 'other' });
      probes.push({ actor: b.toAct, action: { type: 'ready' }, label: 'other' });
    }
    const folded = h.seatOrder.find((id) => h.players[id].folded);
    if (folded && h.phase !== 'handEnd')
      probes.push({ actor: folded, action: { type: korean ? 'k.call' : 'nl.call' }, label: 'other' });
    const outsider = s.seats.find((x) => !hp(h, x.id));
    if (outsider) probes.push({ actor: outsider.id, action: { type: 'ready' }, label: 'notInHand' });
    if (h.phase === 'choice') {
      const done = h.seatOrder.find((id) => h.players[id].choiceDone && !h.players[id].folded);
      const chooser = h.seatOrder.find((id) => !h.players[id].folded && h.players[id].choice);
      if (done) probes.push({ actor: done, action: { type: 'choose', discardId: 0, openId: 1 }, label: 'replay' });
      if (chooser) {
        const c = h.players[chooser].choice![0].id;
        probes.push({ actor: chooser, action: { type: 'choose', discardId: c, openId: c }, label: 'other' });
      }
    }
    if (h.phase === 'draw') {
      const p = h.seatOrder.map((id) => h.players[id]).find((x) => !x.folded && x.drawPending === null);
      if (p) {
        const foreign = s.hand!.deck[0];
        if (foreign) probes.push({ actor: p.id, action: { type: 'draw', cardIds: [foreign.id] }, label: 'forged' });
        const dup = p.hole[0].id;
        probes.push({ actor: p.id, action: { type: 'draw', cardIds: [dup, dup] }, label: 'other' });
        if (s.options.mode === 'fiveDraw' && s.options.drawLimit === 'three' && !p.hole.some((c) => c.rank === 14))
          probes.push({
            actor: p.id,
            action: { type: 'draw', cardIds: p.hole.slice(0, 4).map((c) => c.id) },
            label: 'other',
          });
      }
    }
    if (h.phase === 'declare') {
      const done = h.seatOrder.find((id) => !h.players[id].folded && h.players[id].declare);
      if (done) probes.push({ actor: done, action: { type: 'declare', side: 'low' }, label: 'replay' });
    }
    if (h.phase === 'handEnd') {
      const ready = h.seatOrder.find(
        (id) => h.players[id].ready && s.seats.find((x) => x.id === id)?.status !== 'left',
      );
      if (ready) probes.push({ actor: ready, action: { type: 'ready' }, label: 'replay' });
    }
    probes.push({ actor: h.seatOrder[0], action: { type: 'rebuy', accept: true }, label: 'other' });
  }
  if (s.phase === 'rebuy') {
    const notPending = s.seats.find((x) => !s.rebuyPending.includes(x.id));
    if (notPending) probes.push({ actor: notPending.id, action: { type: 'rebuy', accept: true }, label: 'other' });
    probes.push({ actor: s.rebuyPending[0], action: { type: 'ready' }, label: 'other' });
  }
  // Replaying the last `ready` is illegal only while its pause lasts (a timeout may have moved on since).
  const lastType =
    last && typeof last.action === 'object' && last.action ? (last.action as { type?: string }).type : null;
  if (last && lastType === 'ready' && (s.phase !== 'playing' || h?.phase !== 'handEnd' || h.players[last.actor]?.ready))
    probes.push({ actor: last.actor, action: last.action, label: 'replay' });
  probes.push({ actor: s.seats[0].id, action: { type: 'nl.raise', to: 1.5 }, label: 'malformed' });
  probes.push({ actor: s.seats[0].id, action: { type: 'draw', cardIds: [1, 2], extra: true }, label: 'malformed' });
  return probes;
}

export const pokerSim: SimAdapter<PokerState, PokerView> = {
  game: poker,
  allCards,
  cardId: (c) => (c as Card).id,
  hiddenFrom,
  faceOf,
  idsAreTokens: false,
  invariants,
  illegalProbes,
  conserved: (s) => ({ name: 'chips', ...chips(s) }),
};
