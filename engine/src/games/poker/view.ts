/**
 * What each viewer may see (§8.3). Hidden cards become `{ hidden: true }`
 * slots with no id; the indian forehead is hidden from its owner and from
 * anyone not playing the hand until it ends; 7-poker discards reach only
 * their owner; the deck, burns and exchange discards reach nobody. A view is
 * the join of the members every viewer shares (`sharedView`) and the viewer's
 * own (`ownView`).
 */
import type { PlayerId } from '../../core/types.ts';
import { deadline } from './timeouts.ts';
import { hp, seatOf } from './draft.ts';
import { koreanLegal } from './betting-korean.ts';
import { nlLegal } from './betting-nl.ts';
import { drawMax, drawMaxWithAce } from './flow-draw.ts';
import { bestLowHand, omahaScore, scoreOf } from './eval/hands.ts';
import { highName } from './eval/high.ts';
import { badugiHand, badugiName } from './eval/badugi.ts';
import type {
  Card,
  CardSlot,
  HandPlayer,
  HandPlayerView,
  HandState,
  HandView,
  LegalAction,
  PokerFixedView,
  PokerOwnView,
  PokerSharedView,
  PokerState,
  PokerView,
} from './types.ts';

const LOG_IN_VIEW = 20;

function hiddenSlots(n: number): CardSlot[] {
  const out: CardSlot[] = [];
  for (let i = 0; i < n; i++) out.push({ hidden: true });
  return out;
}

/** Whose cards everyone may see now: showdown hands, and every indian card once the hand is over. */
function revealed(s: PokerState, h: HandState, id: PlayerId): boolean {
  if (h.phase !== 'handEnd') return false;
  if (s.options.mode === 'indian') return true;
  return h.showdown?.some((e) => e.id === id) ?? false;
}

function playerView(s: PokerState, h: HandState, p: HandPlayer, viewer: PlayerId | null): HandPlayerView {
  const own = viewer === p.id;
  const open = revealed(s, h, p.id);
  const seesHole = own || open;
  // Other players at this hand see a forehead; its owner and everyone else (spectators) do not (§8.3).
  const inHand = viewer !== null && hp(h, viewer) !== undefined;
  const seesForehead = open || (!own && inHand);
  const declaredAll = h.phase === 'showdown' || h.phase === 'handEnd';
  return {
    id: p.id,
    seat: seatOf(s, p.id)!.seat,
    folded: p.folded,
    allIn: p.allIn,
    hole: seesHole ? p.hole : hiddenSlots(p.hole.length),
    up: p.up,
    // §8.3/§10: the owner and spectators get null, as the view type in §7 writes it; the table draws "?".
    forehead: seesForehead ? p.forehead : null,
    choice: p.choice === null ? null : own ? p.choice : hiddenSlots(p.choice.length),
    choiceDone: p.choiceDone,
    discarded: own ? p.discarded : null,
    committedRound: p.committedRound,
    committedTotal: p.committedTotal,
    drawCounts: p.drawCounts,
    drawDone: p.drawPending !== null,
    declare: own || declaredAll ? p.declare : null,
    declared: p.declare !== null,
    ready: p.ready,
    lastAction: p.lastAction,
    actedThisRound: p.actedThisRound,
    lockedFromRaise: p.lockedFromRaise,
  };
}

function handView(s: PokerState, h: HandState, viewer: PlayerId | null): HandView {
  return {
    handNo: h.handNo,
    phase: h.phase,
    street: h.street,
    dealerSeat: h.dealerSeat,
    sbSeat: h.sbSeat,
    bbSeat: h.bbSeat,
    boss: h.boss,
    board: h.board,
    players: h.seatOrder.map((id) => playerView(s, h, h.players[id], viewer)),
    pots: h.pots,
    penalties: h.penalties,
    currentBet: h.betting?.currentBet ?? 0,
    toAct: h.betting?.toAct ?? null,
    betting: h.betting
      ? {
          street: h.betting.street,
          order: h.betting.order,
          toAct: h.betting.toAct,
          currentBet: h.betting.currentBet,
          lastRaiseSize: h.betting.lastRaiseSize,
          opened: h.betting.opened,
        }
      : null,
    deckCount: s.options.mode === 'indian' ? (s.indianDeck?.length ?? 0) : h.deck.length,
    showdown: h.phase === 'handEnd' ? h.showdown : null,
    awards: h.awards,
    potResults: h.phase === 'handEnd' ? (h.potResults ?? null) : null,
    seedCommit: h.seedCommit,
    seed: h.phase === 'handEnd' ? h.seedRevealed : null,
  };
}

export function legalActions(s: PokerState, viewer: PlayerId | null): LegalAction[] {
  if (viewer === null) return [];
  if (s.phase === 'rebuy') return s.rebuyPending.includes(viewer) ? [{ type: 'rebuy' }] : [];
  if (s.phase !== 'playing' || !s.hand) return [];
  const h = s.hand;
  const p = hp(h, viewer);
  if (!p) return [];
  if (h.phase === 'handEnd') return p.ready ? [] : [{ type: 'ready' }];
  if (p.folded) return [];
  switch (h.phase) {
    case 'choice':
      return p.choiceDone ? [] : [{ type: 'choose' }];
    case 'draw':
      return p.drawPending !== null ? [] : [{ type: 'draw', max: drawMax(s, p), maxWithAce: drawMaxWithAce(s, p) }];
    case 'declare':
      return p.declare !== null ? [] : [{ type: 'declare' }];
    case 'betting':
      if (h.betting?.toAct !== viewer) return [];
      return s.betting === 'korean' ? koreanLegal(s, viewer) : nlLegal(s, viewer);
    default:
      return [];
  }
}

/** `hints`: the viewer's current hand name from the cards they can see of their own. */
function myHand(s: PokerState, viewer: PlayerId | null): PokerView['myHand'] {
  if (!s.options.hints || viewer === null || !s.hand) return null;
  const p = hp(s.hand, viewer);
  if (!p) return null;
  const h = s.hand;
  const mode = s.options.mode;
  const mine: Card[] = p.choice ?? [...p.hole, ...p.up];
  if (mine.length === 0) return null;
  switch (mode) {
    case 'holdem':
      return { name: highName(false, scoreOf(false, [...p.hole, ...h.board])) };
    case 'omaha':
      return { name: highName(false, h.board.length >= 3 ? omahaScore(p.hole, h.board) : scoreOf(false, p.hole)) };
    case 'fiveDraw':
      return { name: highName(false, scoreOf(false, p.hole)) };
    case 'sevenPoker':
    case 'sevenHiLo': {
      const name = highName(true, scoreOf(true, mine));
      if (mode === 'sevenPoker' || mine.length < 5) return { name };
      const low = bestLowHand(mine, s.options.hiLoLow, s.options.hiLoQualifier);
      return { name, low: low ? low.name : '로우 없음' };
    }
    case 'badugi':
      return p.hole.length === 4 ? { name: badugiName(badugiHand(p.hole.map((c) => c.id))) } : null;
    case 'indian':
      return null;
  }
}

export function view(s: PokerState, viewer: PlayerId | null): PokerView {
  // Assigned onto the fresh shared object, not spread: a spread of ~30 members built a slow
  // object here (≈ 60 µs against ≈ 4 µs, one-card, bench/views.ts's set-up).
  return Object.assign(fixedView(s), sharedView(s), ownView(s, viewer));
}

/** The members no transition of this game changes: the room worker sends them once per viewer, not per frame. */
export function fixedView(s: PokerState): PokerFixedView {
  return {
    game: 'poker',
    rulesVersion: s.rulesVersion,
    seedCommit: s.seedCommit,
    players: s.players,
    mode: s.options.mode,
    betting: s.betting,
    options: s.options,
  };
}

/** Every viewer's members: built once per state by the room worker, so nothing here may depend on who looks. */
export function sharedView(s: PokerState): PokerSharedView {
  const names = new Map(s.players.map((p) => [p.id, p.name]));
  return {
    seq: s.seq,
    deadline: deadline(s),
    finished: s.phase === 'finished',
    phase: s.phase,
    baseUnit: s.baseUnit,
    handsPlayed: s.handsPlayed,
    seats: s.seats.map((x) => ({
      id: x.id,
      name: names.get(x.id) ?? x.id,
      seat: x.seat,
      stack: x.stack,
      rebuys: x.rebuys,
      status: x.status,
      away: x.away,
    })),
    carryOver: s.carryOver,
    indianUsed: s.indianUsed,
    retiredDeckSeed: s.retiredDeckSeed,
    rebuyPending: s.rebuyPending,
    log: s.publicLog.length > LOG_IN_VIEW ? s.publicLog.slice(-LOG_IN_VIEW) : s.publicLog,
  };
}

/** The viewer's members: the hand as they see it, their legal actions and their hand's name. */
export function ownView(s: PokerState, viewer: PlayerId | null): PokerOwnView {
  const v = viewer !== null && seatOf(s, viewer) !== undefined ? viewer : null;
  return {
    viewer: v,
    hand: s.hand ? handView(s, s.hand, v) : null,
    legalActions: legalActions(s, v),
    myHand: myHand(s, v),
  };
}
