/**
 * apply(): validate completely against the untouched state, then copy-on-write
 * and run. Order inside (§8.2): chips move, the action is logged, round end is
 * checked, pots are rebuilt, the next street is dealt, the next actor and
 * deadline are set.
 */
import type { ApplyResult, PlayerId } from '../../core/types.ts';
import { COMMON_REASONS, reject } from '../../core/reject.ts';
import { type Ctx, draft, hp, live, P, S, seatOf } from './draft.ts';
import { fold, nobodyLeftToBet } from './betting.ts';
import { afterAction, finishRound } from './flow.ts';
import { applyKorean, koreanProblem, type KoreanType } from './betting-korean.ts';
import { applyNl, nlProblem, type NlAction } from './betting-nl.ts';
import { allChosen, allDeclared, revealChoices, revealDeclarations } from './flow-seven.ts';
import { allDrawn, drawProblem, exchange } from './flow-draw.ts';
import { endByFold } from './showdown.ts';
import { afterHand, decideRebuy } from './between.ts';
import { R } from './reasons.ts';
import { v2, v3 } from './version.ts';
import { timeoutAction } from './active.ts';
import { actionSchema } from './actions.ts';
import type { PokerAction, PokerState } from './types.ts';

/** Why `actor` may not do `a` now, or null. Reads `s` only. */
export function problem(s: PokerState, actor: PlayerId, a: PokerAction): string | null {
  const seat = seatOf(s, actor)!;
  if (a.type === 'leave')
    return seat.status === 'left' ? R.alreadyLeft : seat.status === 'eliminated' ? R.eliminated : null;
  if (a.type === 'rebuy') {
    if (s.phase !== 'rebuy') return R.notRebuy;
    return s.rebuyPending.includes(actor) ? null : R.noRebuy;
  }
  if (s.phase !== 'playing') return s.phase === 'rebuy' ? R.notRebuy : COMMON_REASONS.finished;
  const h = s.hand!;
  const p = hp(h, actor);
  if (!p) return R.notInHand;
  if (a.type === 'ready') {
    if (h.phase !== 'handEnd') return R.notHandEnd;
    return p.ready ? R.alreadyReady : null;
  }
  if (p.folded) return R.folded;
  switch (a.type) {
    case 'choose': {
      if (h.phase !== 'choice') return R.notChoice;
      if (p.choiceDone) return R.alreadyChosen;
      const ids = p.choice!.map((c) => c.id);
      return a.discardId !== a.openId && ids.includes(a.discardId) && ids.includes(a.openId) ? null : R.badChoice;
    }
    case 'draw':
      if (h.phase !== 'draw') return R.notDraw;
      if (p.drawPending !== null) return R.alreadyDrew;
      return drawProblem(s, p, a.cardIds);
    case 'declare':
      if (h.phase !== 'declare') return R.notDeclare;
      return p.declare !== null ? R.alreadyDeclared : null;
    default: {
      if (h.phase !== 'betting' || !h.betting) return R.notBetting;
      if (h.betting.toAct !== actor) return COMMON_REASONS.notYourTurn;
      const korean = a.type.startsWith('k.');
      if (korean !== (s.betting === 'korean')) return R.wrongStyle;
      return korean ? koreanProblem(s, actor, a.type as KoreanType) : nlProblem(s, actor, a as NlAction);
    }
  }
}

export function apply(state: PokerState, actor: PlayerId, action: unknown, now: number): ApplyResult<PokerState> {
  if (typeof actor !== 'string' || !seatOf(state, actor)) return reject(COMMON_REASONS.notAPlayer);
  if (state.phase === 'finished') return reject(COMMON_REASONS.finished);
  const parsed = actionSchema.safeParse(action);
  if (!parsed.success) return reject(COMMON_REASONS.malformed);
  const a = parsed.data;
  const why = problem(state, actor, a);
  if (why) return reject(why);
  const ctx = draft(state, now);
  const seen = seatOf(state, actor)!;
  if (a.type !== 'leave' && (seen.timeoutsInRow !== 0 || seen.away)) {
    // Acting in person clears the away mark (§5.8).
    const seat = S(ctx, actor);
    seat.timeoutsInRow = 0;
    seat.away = false;
  }
  run(ctx, actor, a);
  playForLeavers(ctx);
  ctx.s.seq = state.seq + 1;
  return { ok: true, state: ctx.s, events: ctx.ev };
}

/** Executes a validated action on a draft (shared with timeouts). */
export function run(ctx: Ctx, actor: PlayerId, a: PokerAction): void {
  const s = ctx.s;
  const h = s.hand!;
  switch (a.type) {
    case 'choose': {
      const p = P(ctx, actor);
      p.chosen = { discardId: a.discardId, openId: a.openId };
      p.choiceDone = true;
      ctx.ev.push({ type: 'chose', player: actor });
      if (allChosen(h)) revealChoices(ctx);
      return;
    }
    case 'draw': {
      P(ctx, actor).drawPending = a.cardIds;
      ctx.ev.push({ type: 'drawSubmitted', player: actor });
      if (allDrawn(h)) exchange(ctx);
      return;
    }
    case 'declare': {
      P(ctx, actor).declare = a.side;
      ctx.ev.push({ type: 'declaredOne', player: actor });
      if (allDeclared(h)) revealDeclarations(ctx);
      return;
    }
    case 'ready': {
      P(ctx, actor).ready = true;
      if (h.seatOrder.every((id) => h.players[id].ready)) afterHand(ctx);
      return;
    }
    case 'rebuy':
      return decideRebuy(ctx, actor, a.accept);
    case 'leave':
      return leave(ctx, actor);
    default:
      if (a.type.startsWith('k.')) return applyKorean(ctx, actor, a.type as KoreanType);
      return applyNl(ctx, actor, a as NlAction);
  }
}

/**
 * §5.8: the player keeps their chips and is folded at every later hand. In this hand, rules version 3
 * (clarification 17) leaves their cards live: `playForLeavers` takes a timeout's action for them at each
 * decision still owed, so they fold only when something is owed. Before version 3 they folded at once.
 */
function leave(ctx: Ctx, id: PlayerId): void {
  const s = ctx.s;
  S(ctx, id).status = 'left';
  ctx.ev.push({ type: 'left', player: id });
  if (s.phase === 'rebuy' && s.rebuyPending.includes(id)) return decideRebuy(ctx, id, false);
  if (s.phase !== 'playing') return;
  const h = s.hand!;
  const p = hp(h, id);
  if (!p) return;
  if (h.phase === 'handEnd') {
    P(ctx, id).ready = true;
    if (h.seatOrder.every((x) => h.players[x].ready)) afterHand(ctx);
    return;
  }
  if (p.folded || v3(s)) return;
  // No fold penalty: leaving is not a betting decision. The cards stay with the folded player, unseen.
  fold(ctx, id, '다이');
  if (h.phase === 'betting' && h.betting) {
    const b = h.betting;
    if (b.toAct === id) return afterAction(ctx, id);
    // Someone else is to act: the hand may now be over, or the round complete without them.
    const live = h.seatOrder.filter((x) => !h.players[x].folded);
    if (live.length <= 1) return endByFold(ctx);
    // §5.2: the one player still able to act may now have nobody left to bet against.
    if (v2(s) && nobodyLeftToBet(h, b.currentBet)) return finishRound(ctx);
    return;
  }
  const live = h.seatOrder.filter((x) => !h.players[x].folded);
  if (live.length <= 1) return endByFold(ctx);
  if (h.phase === 'choice' && allChosen(h)) return revealChoices(ctx);
  if (h.phase === 'draw' && allDrawn(h)) return exchange(ctx);
  if (h.phase === 'declare' && allDeclared(h)) return revealDeclarations(ctx);
}

/** Did `id` leave the room? */
function gone(s: PokerState, id: PlayerId): boolean {
  return seatOf(s, id)!.status === 'left';
}

/**
 * Clarification 17 (rules version 3): whenever the hand waits for a player who has left — their betting
 * turn, or a choice, draw or declaration they have not made — they take the timeout's automatic action
 * (§8.5) at once, without waiting for the clock: check when nothing is owed, fold when something is. Each
 * action completes one pending decision, so the loop ends; it stops at a decision owed by someone present.
 */
export function playForLeavers(ctx: Ctx): void {
  const s = ctx.s;
  if (!v3(s)) return;
  for (;;) {
    const h = s.hand;
    if (s.phase !== 'playing' || !h) return;
    let next: PlayerId | undefined;
    if (h.phase === 'betting') {
      const id = h.betting?.toAct;
      if (id && gone(s, id)) next = id;
    } else if (h.phase === 'choice') next = live(h).find((p) => !p.choiceDone && gone(s, p.id))?.id;
    else if (h.phase === 'draw') next = live(h).find((p) => p.drawPending === null && gone(s, p.id))?.id;
    else if (h.phase === 'declare') next = live(h).find((p) => p.declare === null && gone(s, p.id))?.id;
    if (next === undefined) return;
    run(ctx, next, timeoutAction(s, next));
  }
}
