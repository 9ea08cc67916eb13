/**
 * Simulator adapter (engine/src/sim/adapter.ts): where the cards are, what is
 * hidden from whom, the invariants of §8 and the bad input of §10's last item.
 */
import type { PlayerId, Rng } from '../../core/index.ts';
import type { IllegalProbe, SimAdapter } from '../../sim/adapter.ts';
import { oneCard } from './index.ts';
import { mover } from './active.ts';
import type { Card, OneCardState, OneCardView } from './types.ts';

function faceOf(node: unknown): string | null {
  if (node === null || typeof node !== 'object') return null;
  const c = node as Record<string, unknown>;
  switch (c.kind) {
    case 'std':
      return typeof c.suit === 'string' && typeof c.rank === 'number' ? `${c.suit}${c.rank}` : null;
    case 'joker':
      return typeof c.joker === 'string' ? `joker:${c.joker}` : null;
    case 'num':
      return typeof c.color === 'string' && typeof c.value === 'number' ? `${c.color}${c.value}` : null;
    case 'skip':
    case 'reverse':
    case 'draw2':
      return typeof c.color === 'string' ? `${c.color}:${c.kind}` : null;
    case 'wild':
    case 'wild4':
      return c.kind;
    default:
      return null;
  }
}

function allCards(s: OneCardState): Card[] {
  const out: Card[] = [...s.drawPile, ...s.discard];
  for (const p of s.seats) out.push(...s.hands[p]);
  return out;
}

function hiddenFrom(s: OneCardState, viewer: PlayerId | null): Card[] {
  const out: Card[] = [...s.drawPile];
  for (const p of s.seats) if (p !== viewer) out.push(...s.hands[p]);
  const r = s.lastReveal;
  if (r === null || r.to !== viewer) return out;
  const shown = new Set(r.cards.map((c) => c.id));
  return out.filter((c) => !shown.has(c.id));
}

function invariants(s: OneCardState, views: Map<PlayerId | null, OneCardView>): string[] {
  const bad: string[] = [];
  const finished = s.phase.kind === 'finished';
  const top = s.discard[s.discard.length - 1];
  if (!finished && s.status[mover(s)] !== 'playing') bad.push(`mover ${mover(s)} is not playing`);
  let movers = 0;
  for (const [viewer, v] of views) {
    if (v.top.id !== top.id) bad.push(`view of ${viewer}: top ${v.top.id} != ${top.id}`);
    if (v.drawPileCount !== s.drawPile.length) bad.push(`view of ${viewer}: draw pile count`);
    for (const p of s.seats)
      if (v.handCounts[p] !== s.hands[p].length) bad.push(`view of ${viewer}: hand count of ${p}`);
    if (viewer !== null && v.hand?.length !== s.hands[viewer].length) bad.push(`view of ${viewer}: own hand`);
    const L = v.legal;
    if (L.canPlay || L.canDraw || L.canPass || L.canChallenge || L.canAcceptWild4 || L.mustChooseColor) {
      movers++;
      if (viewer !== mover(s)) bad.push(`${viewer} may move but ${mover(s)} is to move`);
    }
    if (L.canDeclareOneCard && (s.oneCardWindow === null || s.oneCardWindow.declared))
      bad.push(`${viewer} offered a one-card call with no open window`);
  }
  if (finished ? movers !== 0 : movers !== 1) bad.push(`${movers} players may move (finished=${finished})`);
  if (s.pendingAttack > 0 && s.mode === 'classic' && top.kind === 'std' && top.rank > 2)
    bad.push('attack pending with a non-attack card on top');
  if (s.oneCardWindow && s.hands[s.oneCardWindow.player].length !== 1) bad.push('one-card window for a hand of != 1');
  for (const p of s.seats) {
    if (s.status[p] !== 'playing' && s.hands[p].length > 0) bad.push(`${p} is ${s.status[p]} with cards`);
    if (s.status[p] === 'out' && !s.finishOrder.includes(p)) bad.push(`${p} out but not in finishOrder`);
  }
  return bad;
}

function illegalProbes(s: OneCardState, rng: Rng, last: { actor: PlayerId; action: unknown } | null): IllegalProbe[] {
  const probes: IllegalProbe[] = [];
  if (s.phase.kind === 'finished') return probes;
  const m = mover(s);
  const others = s.seats.filter((p) => p !== m);
  const other = others[rng.int(others.length)];
  const held = s.hands[other];
  if (held.length > 0) {
    const c = held[rng.int(held.length)];
    probes.push({
      actor: other,
      action: { type: 'play', cardIds: [c.id], chooseSuit: 'S', chooseColor: 'R' },
      label: 'wrongPlayer',
    });
  }
  probes.push({ actor: other, action: { type: 'draw' }, label: 'wrongPlayer' });
  const notMine = [...s.drawPile.slice(0, 1), ...held.slice(0, 1), s.discard[s.discard.length - 1]];
  for (const c of notMine)
    probes.push({
      actor: m,
      action: { type: 'play', cardIds: [c.id], chooseSuit: 'H', chooseColor: 'G' },
      label: 'notInHand',
    });
  probes.push({ actor: m, action: { type: 'play', cardIds: ['c9999'] }, label: 'notInHand' });
  const mine = s.hands[m];
  if (mine.length > 0)
    probes.push({ actor: m, action: { type: 'play', cardIds: [mine[0].id, mine[0].id] }, label: 'other' });
  if (s.phase.kind !== 'afterDraw') probes.push({ actor: m, action: { type: 'pass' }, label: 'other' });
  if (s.phase.kind !== 'wild4Response') probes.push({ actor: m, action: { type: 'challengeWild4' }, label: 'other' });
  if (s.oneCardWindow === null || s.oneCardWindow.declared)
    probes.push({ actor: other, action: { type: 'declareOneCard' }, label: 'other' });
  const gone = s.seats.find((p) => s.status[p] !== 'playing');
  if (gone) probes.push({ actor: gone, action: { type: 'declareOneCard' }, label: 'other' });
  if (last) {
    const t = (last.action as { type?: string }).type;
    if (t === 'play' || t === 'declareOneCard' || t === 'challengeWild4' || t === 'acceptWild4' || t === 'chooseColor')
      probes.push({ actor: last.actor, action: last.action, label: 'replay' });
  }
  return probes;
}

export const oneCardSim: SimAdapter<OneCardState, OneCardView> = {
  game: oneCard,
  allCards,
  cardId: (c) => (c as Card).id,
  hiddenFrom,
  faceOf,
  idsAreTokens: true,
  invariants,
  illegalProbes,
};
