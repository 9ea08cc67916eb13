/**
 * 7포커 and 하이로우 specifics (§5.4.3, §5.4.4): the simultaneous choice
 * (discard one, open one, revealed together; the boss it makes is betting.ts's), and
 * the simultaneous hi/lo/swing declaration.
 */
import type { PlayerId } from '../../core/types.ts';
import { type Ctx, live, P } from './draft.ts';
import { advance } from './flow.ts';
import type { Card, HandState } from './types.ts';

/** Every live player has chosen: open cards turn over together, discards go face down for good. */
export function revealChoices(ctx: Ctx): void {
  const h = ctx.s.hand!;
  const opened: { player: PlayerId; card: Card }[] = [];
  let muck = h.muck;
  for (const { id } of live(h)) {
    const p = P(ctx, id);
    const cards = p.choice!;
    const { discardId, openId } = p.chosen!;
    const discard = cards.find((c) => c.id === discardId)!;
    const open = cards.find((c) => c.id === openId)!;
    p.hole = cards.filter((c) => c.id !== discardId && c.id !== openId);
    p.up = [open];
    p.discarded = discard;
    p.choice = null;
    p.chosen = null;
    muck = [...muck, discard];
    opened.push({ player: p.id, card: open });
  }
  h.muck = muck;
  ctx.ev.push({ type: 'choiceReveal', open: opened });
  advance(ctx);
}

/** The §8.5 automatic choice: discard the lowest card (lowest suit on a tie), open the lowest of the rest. */
export function autoChoice(cards: readonly Card[]): { discardId: number; openId: number } {
  const sorted = [...cards].sort((a, b) => a.rank - b.rank || a.id - b.id);
  return { discardId: sorted[0].id, openId: sorted[1].id };
}

export function allChosen(h: HandState): boolean {
  return live(h).every((p) => p.choiceDone);
}

export function allDeclared(h: HandState): boolean {
  return live(h).every((p) => p.declare !== null);
}

/** Declarations turn over together, then the showdown. */
export function revealDeclarations(ctx: Ctx): void {
  const h = ctx.s.hand!;
  ctx.ev.push({ type: 'declared', sides: live(h).map((p) => ({ player: p.id, side: p.declare })) });
  advance(ctx);
}
