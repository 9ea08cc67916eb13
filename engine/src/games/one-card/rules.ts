/**
 * apply(): validates the untrusted action with `actionSchema` (actions.ts), checks who may
 * act, then runs the transition on a copy-on-write `Tx`.
 */
import { reject, type ApplyResult, type PlayerId } from '../../core/index.ts';
import { COLORS } from './cards.ts';
import { hasPlayable, cardReason } from './legal.ts';
import { R } from './reasons.ts';
import { ctxOf, play } from './rules-play.ts';
import { activeAfter, checkEnd, drawCards, startTurn, Tx } from './turns.ts';
import { actionSchema } from './actions.ts';
import { mover } from './active.ts';
import type { Color, OneCardAction, OneCardState } from './types.ts';
import { declareOneCard, settleWindow } from './window.ts';

export function apply(state: OneCardState, actor: PlayerId, action: unknown, now: number): ApplyResult<OneCardState> {
  const parsed = actionSchema.safeParse(action);
  if (!parsed.success) return reject(R.malformed);
  if (typeof actor !== 'string' || !Object.hasOwn(state.status, actor)) return reject(R.notAPlayer);
  if (state.phase.kind === 'finished') return reject(R.finished);
  const a = parsed.data;
  const tx = new Tx(state, now);
  let rejected: ApplyResult<OneCardState> | null;
  if (a.type === 'declareOneCard') rejected = declareOneCard(tx, actor);
  else {
    if (actor !== mover(state)) return reject(R.notYourTurn);
    rejected = turnAction(tx, actor, a, false);
    if (rejected === null) settleWindow(tx, actor);
  }
  if (rejected !== null) return rejected;
  if (state.timeoutsInRow[actor] !== 0) tx.s.timeoutsInRow = { ...tx.s.timeoutsInRow, [actor]: 0 };
  return { ok: true, state: tx.done(), events: tx.events };
}

/** A turn action by the player who must move. `auto` = taken by the timer (§8.5). */
export function turnAction(
  tx: Tx,
  actor: PlayerId,
  a: Exclude<OneCardAction, { type: 'declareOneCard' }>,
  auto: boolean,
): ApplyResult<OneCardState> | null {
  const s = tx.s;
  const ph = s.phase;
  switch (a.type) {
    case 'play':
      return play(tx, actor, a);
    case 'draw':
      if (ph.kind === 'afterDraw') return reject(R.playOrPass);
      if (ph.kind === 'wild4Response') return reject(R.respondWild4);
      if (ph.kind === 'chooseColor') return reject(R.chooseStartColor);
      return draw(tx, actor, auto);
    case 'pass':
      if (ph.kind !== 'afterDraw') return reject(R.passOnlyAfterDraw);
      tx.emit({ type: 'passed', player: actor });
      startTurn(tx, activeAfter(s, actor, 0));
      return null;
    case 'chooseColor':
      if (ph.kind !== 'chooseColor') return reject(R.noColorChoice);
      s.declaredColor = a.color;
      s.phase = { kind: 'turn' };
      s.turnStartedAt = tx.now;
      tx.emit({ type: 'colorDeclared', player: actor, color: a.color });
      return null;
    case 'acceptWild4':
      if (ph.kind !== 'wild4Response') return reject(R.noWild4);
      return acceptWild4(tx, actor);
    case 'challengeWild4':
      if (ph.kind !== 'wild4Response') return reject(R.noChallenge);
      return challengeWild4(tx, actor);
  }
}

function draw(tx: Tx, actor: PlayerId, auto: boolean): ApplyResult<OneCardState> | null {
  const s = tx.s;
  if (s.pendingAttack > 0) {
    const n = s.pendingAttack;
    s.pendingAttack = 0;
    drawCards(tx, actor, n, 'attack');
    if (checkEnd(tx)) return null;
    startTurn(tx, activeAfter(s, actor, 0));
    return null;
  }
  // clarification 6: voluntaryDraw governs both modes.
  if (!auto && !s.options.voluntaryDraw && hasPlayable(ctxOf(s, actor))) return reject(R.mustPlay);
  const { drawn, bankrupt } = drawCards(tx, actor, 1, 'draw');
  if (bankrupt) {
    if (checkEnd(tx)) return null;
    startTurn(tx, activeAfter(s, actor, 0));
    return null;
  }
  if (!auto && s.options.playAfterDraw && drawn.length === 1) {
    const c = drawn[0];
    s.phase = { kind: 'afterDraw', drawnCardId: c.id };
    if (cardReason(ctxOf(s, actor), c) === null) return null;
  }
  startTurn(tx, activeAfter(s, actor, 0));
  return null;
}

function acceptWild4(tx: Tx, actor: PlayerId): null {
  const s = tx.s;
  const n = s.pendingAttack;
  s.pendingAttack = 0;
  tx.emit({ type: 'wild4Accepted', player: actor });
  drawCards(tx, actor, n, 'attack');
  if (checkEnd(tx)) return null;
  startTurn(tx, activeAfter(s, actor, 0));
  return null;
}

/**
 * §5.6 challenge. Only the challenger sees the hand (challengeReveal). With
 * stacking the challenge is about the whole stack, judged on the last +4.
 */
function challengeWild4(tx: Tx, actor: PlayerId): null {
  const s = tx.s;
  const ph = s.phase;
  if (ph.kind !== 'wild4Response') return null;
  const offender = ph.by;
  const stillIn = s.status[offender] === 'playing';
  const cards = stillIn ? s.hands[offender].slice(0, ph.handAtPlay) : [];
  s.lastReveal = { to: actor, of: offender, cards };
  tx.emit({ type: 'challengeReveal', to: actor, of: offender, cards });
  const n = s.pendingAttack;
  s.pendingAttack = 0;
  tx.emit({ type: 'wild4Challenged', challenger: actor, offender, result: ph.illegal ? 'guilty' : 'innocent' });
  if (ph.illegal) {
    if (stillIn) drawCards(tx, offender, n, 'challenge');
    if (checkEnd(tx)) return null;
    startTurn(tx, s.status[actor] === 'playing' ? actor : activeAfter(s, actor, 0));
    return null;
  }
  drawCards(tx, actor, n + 2, 'challenge');
  if (checkEnd(tx)) return null;
  startTurn(tx, activeAfter(s, actor, 0));
  return null;
}

/** The colour a player holds most of (ties: R, Y, G, B) — clarification 7's timeout choice. */
export function mostHeldColor(s: OneCardState, p: PlayerId): Color {
  let best: Color = 'R';
  let bestN = -1;
  for (const c of COLORS) {
    let n = 0;
    for (const card of s.hands[p]) if ('color' in card && card.color === c) n++;
    if (n > bestN) {
      best = c;
      bestN = n;
    }
  }
  return best;
}
