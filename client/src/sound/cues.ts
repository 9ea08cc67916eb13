/**
 * Which sounds a table frame calls for, read from the frame's events (already
 * filtered for this viewer by the server) and its view. Pure, so the mapping
 * is unit-tested without audio; the same function serves 원카드, 포커 and 훌라
 * because their event names do not collide.
 */
import { KOREAN_LABEL } from '@joke/engine/client';
import type { Effect } from './synth.ts';

interface FrameLike {
  view: unknown;
  events: unknown[];
}

type Ev = { type?: unknown; action?: unknown; declareOneCard?: unknown };

export interface Cues {
  effects: Effect[];
  /** A Korean betting word to say aloud (Korean poker modes). */
  say: string | null;
}

function pokerAction(action: string): Effect {
  if (action === 'nl.fold' || action === 'k.die') return 'fold';
  if (action === 'nl.check' || action === 'k.check') return 'play';
  if (action === 'nl.call' || action === 'k.call') return 'chipCall';
  if (action === 'k.ping') return 'chipBet';
  return 'chipRaise';
}

const BY_EVENT: Record<string, Effect> = {
  // 원카드
  cardPlayed: 'play',
  cardsDrawn: 'draw',
  oneCardDeclared: 'oneCard',
  oneCardCaught: 'oneCard',
  gameOver: 'win',
  // 포커
  dealt: 'deal',
  board: 'deal',
  handEnd: 'win',
  // 훌라
  drew: 'draw',
  discarded: 'play',
  melded: 'play',
  laidOff: 'play',
  thankYouClaimed: 'thankYou',
  stop: 'stop',
};

export function cuesFor(frame: FrameLike, first: boolean): Cues {
  const effects: Effect[] = [];
  let say: string | null = null;
  const add = (e: Effect) => {
    if (!effects.includes(e)) effects.push(e);
  };
  const finished = (frame.view as { finished?: unknown } | null)?.finished === true;
  if (first && !finished) add('deal');
  for (const raw of frame.events) {
    const e = raw as Ev;
    if (typeof e?.type !== 'string') continue;
    if (e.type === 'action' && typeof e.action === 'string') {
      add(pokerAction(e.action));
      // The dealer calls the same Korean word the action bar shows.
      if (Object.hasOwn(KOREAN_LABEL, e.action)) say = KOREAN_LABEL[e.action as keyof typeof KOREAN_LABEL];
      continue;
    }
    const effect = BY_EVENT[e.type];
    if (effect) add(effect);
    if (e.type === 'cardPlayed' && e.declareOneCard === true) add('oneCard');
    // 훌라's round end; poker's `roundEnd` (with a street) only closes a betting round.
    if (e.type === 'roundEnd' && !('street' in (e as object))) add('win');
  }
  return { effects, say };
}

type TurnView = {
  viewer?: string | null;
  deadline?: number | null;
  finished?: boolean;
  current?: string | null;
  toAct?: string | null;
  phase?: { kind?: string; target?: string | null; player?: string | null };
};

/** The seat named as mover is the viewer's (원카드 and 훌라 name it; 포커 keeps it inside the hand). */
function moverIsViewer(v: TurnView | null): boolean {
  if (!v || v.finished || !v.viewer) return false;
  const mover =
    v.phase?.kind === 'wild4Response' ? (v.phase.target ?? null) : (v.toAct ?? v.current ?? v.phase?.player ?? null);
  return mover === v.viewer;
}

/**
 * The viewer has to move now. 포커 says so with its legal actions (several seats
 * act at once in 초이스, 교환 and 선언); a rebuy offer between hands is no turn.
 */
export function isViewersTurn(view: unknown): boolean {
  const v = view as (TurnView & { legalActions?: { type?: unknown }[] }) | null;
  if (v && Array.isArray(v.legalActions)) return !v.finished && v.legalActions.some((a) => a?.type !== 'rebuy');
  return moverIsViewer(v);
}

/**
 * The whole second (5…1) of the viewer's own turn clock, or null when it is
 * not their move or more than 5 s remain: the table ticks once per second.
 */
export function warningSecond(view: unknown, serverNow: number): number | null {
  const v = view as TurnView | null;
  if (!v || typeof v.deadline !== 'number' || !moverIsViewer(v)) return null;
  const left = v.deadline - serverNow;
  if (left <= 0 || left > 5000) return null;
  return Math.ceil(left / 1000);
}
