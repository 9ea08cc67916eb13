/**
 * §8.3: what each viewer may see. Other players' hands and the draw pile
 * appear only as counts; a drawn card's face reaches only its drawer; a +4
 * challenge reveal reaches only the challenger. Views share immutable parts
 * with the state: treat them as read-only. A view is the join of the members
 * fixed for the whole game (`fixedView`), the others every viewer shares
 * (`sharedView`) and the viewer's own (`ownView`).
 */
import type { GameEvent, PlayerId } from '../../core/index.ts';
import { legalCardIds, legalMultiPlays, referenceOf } from './legal.ts';
import { ctxOf } from './rules-play.ts';
import { mover } from './active.ts';
import { deadline } from './timeouts.ts';
import type {
  LegalActions,
  OneCardFixedView,
  OneCardOwnView,
  OneCardSharedView,
  OneCardState,
  OneCardView,
} from './types.ts';

const NOTHING: LegalActions = Object.freeze({
  canPlay: false,
  canDraw: false,
  drawCount: 0,
  canPass: false,
  canDeclareOneCard: false,
  oneCardIsCatch: false,
  canChallenge: false,
  canAcceptWild4: false,
  mustChooseColor: false,
  mustChooseSuitFor: [],
  mustChooseColorFor: [],
  multiPlay: false,
  multiPlays: [],
}) as LegalActions;

const NO_IDS: string[] = [];

export function view(s: OneCardState, viewer: PlayerId | null): OneCardView {
  // Assigned onto the fresh shared object, not spread: a spread of ~30 members built a slow
  // object here (≈ 60 µs against ≈ 4 µs, one-card, bench/views.ts's set-up).
  return Object.assign(fixedView(s), sharedView(s), ownView(s, viewer));
}

/** The members no transition of this game changes: the room worker sends them once per viewer, not per frame. */
export function fixedView(s: OneCardState): OneCardFixedView {
  return {
    game: 'one-card',
    rulesVersion: s.rulesVersion,
    seedCommit: s.seedCommit,
    players: s.players,
    mode: s.mode,
    options: s.options,
    decks: s.decks,
    seats: s.seats,
  };
}

/** Every viewer's members: built once per state by the room worker, so nothing here may depend on who looks. */
export function sharedView(s: OneCardState): OneCardSharedView {
  const handCounts: Record<PlayerId, number> = {};
  for (const p of s.seats) handCounts[p] = s.hands[p].length;
  const top = s.discard[s.discard.length - 1];
  const w = s.oneCardWindow;
  return {
    seq: s.seq,
    deadline: deadline(s),
    finished: s.phase.kind === 'finished',
    current: s.current,
    direction: s.direction,
    pendingAttack: s.pendingAttack,
    extraTurn: s.extraTurn,
    declaredSuit: s.declaredSuit,
    declaredColor: s.declaredColor,
    top,
    reference: s.mode === 'classic' && top.kind === 'joker' ? referenceOf(s.discard) : null,
    recentDiscards: s.discard.slice(-5),
    discardCount: s.discard.length,
    drawPileCount: s.drawPile.length,
    handCounts,
    status: s.status,
    finishOrder: s.finishOrder,
    bankruptOrder: s.bankruptOrder,
    timeoutsInRow: s.timeoutsInRow,
    oneCardWindow: w === null ? null : { player: w.player, declared: w.declared, openedSeq: w.openedSeq },
    turnStartedAt: s.turnStartedAt,
    scores: s.scores ? { ...s.scores } : null,
  };
}

/** The viewer's members: their hand, legal actions, the drawn card's id and a challenge reveal meant for them. */
export function ownView(s: OneCardState, viewer: PlayerId | null): OneCardOwnView {
  const me = viewer !== null && Object.hasOwn(s.status, viewer) ? viewer : null;
  const ph = s.phase;
  const phase: OneCardView['phase'] = { kind: ph.kind };
  if (ph.kind === 'wild4Response') {
    phase.by = ph.by;
    phase.target = ph.target;
  } else if (ph.kind === 'afterDraw' && me === s.current) phase.drawnCardId = ph.drawnCardId;

  let legal = NOTHING;
  let ids = NO_IDS;
  if (me !== null && ph.kind !== 'finished' && s.status[me] === 'playing') ({ legal, ids } = legalFor(s, me));
  const reveal = s.lastReveal !== null && s.lastReveal.to === me ? s.lastReveal : null;
  return {
    viewer: me,
    phase,
    hand: me === null ? null : s.hands[me].slice(),
    legalCardIds: ids,
    legal,
    reveal: reveal === null ? null : { of: reveal.of, cards: reveal.cards },
  };
}

function legalFor(s: OneCardState, me: PlayerId): { legal: LegalActions; ids: string[] } {
  const w = s.oneCardWindow;
  const canDeclare = w !== null && !w.declared;
  const legal: LegalActions = {
    ...NOTHING,
    canDeclareOneCard: canDeclare,
    oneCardIsCatch: canDeclare && w.player !== me,
  };
  let ids = NO_IDS;
  if (mover(s) === me) {
    const ph = s.phase;
    if (ph.kind === 'chooseColor') legal.mustChooseColor = true;
    else {
      const ctx = ctxOf(s, me);
      ids = legalCardIds(ctx);
      legal.canPlay = ids.length > 0;
      if (ph.kind === 'turn') {
        legal.canDraw = s.pendingAttack > 0 || s.options.voluntaryDraw || ids.length === 0;
        legal.drawCount = s.pendingAttack > 0 ? s.pendingAttack : 1;
      } else if (ph.kind === 'afterDraw') legal.canPass = true;
      else if (ph.kind === 'wild4Response') {
        legal.canChallenge = true;
        legal.canAcceptWild4 = true;
        legal.drawCount = s.pendingAttack;
      }
      if (ids.length > 0) {
        const hand = s.hands[me];
        const suitFor: string[] = [];
        const colorFor: string[] = [];
        for (const c of hand) {
          if (!ids.includes(c.id)) continue;
          if (c.kind === 'std' && c.rank === 7) suitFor.push(c.id);
          else if (c.kind === 'wild' || c.kind === 'wild4') colorFor.push(c.id);
        }
        legal.mustChooseSuitFor = suitFor;
        legal.mustChooseColorFor = colorFor;
        const multiPlays = legalMultiPlays(ctx);
        legal.multiPlay = s.mode === 'classic' && s.options.multiPlay && ph.kind === 'turn';
        legal.multiPlays = multiPlays;
      }
    }
  }
  return { legal, ids };
}

/** §8.3 event filter: drawn faces to the drawer only, a challenge reveal to the challenger only. */
export function eventView(e: GameEvent, viewer: PlayerId | null): GameEvent | null {
  if (e.type === 'cardsDrawn') {
    if (viewer === e.player || !('cards' in e)) return e;
    return { type: 'cardsDrawn', player: e.player, count: e.count, reason: e.reason };
  }
  if (e.type === 'challengeReveal') return viewer !== null && viewer === e.to ? e : null;
  return e;
}
