/**
 * Exchanges for 바둑이 and 5카드 드로우 (§5.4.5, §5.4.6): everyone submits at
 * once, then replacements are dealt from the dealer's next seat. A short deck
 * is topped up from the earlier discards, reshuffled; only if that is still
 * not enough are this exchange's discards shuffled in too.
 */
import { Rng } from '../../core/rng.ts';
import { type Ctx, live, P } from './draft.ts';
import { advance } from './flow.ts';
import type { Card, HandPlayer, HandState, PokerState } from './types.ts';

export function allDrawn(h: HandState): boolean {
  return live(h).every((p) => p.drawPending !== null);
}

/** Why `ids` is not an allowed exchange for `p`, or null. */
export function drawProblem(s: PokerState, p: HandPlayer, ids: number[]): string | null {
  if (new Set(ids).size !== ids.length) return '같은 카드를 두 번 고를 수 없어요';
  if (!ids.every((id) => p.hole.some((c) => c.id === id))) return '내 손에 없는 카드예요';
  const max = drawMax(s, p);
  if (s.options.mode === 'fiveDraw' && s.options.drawLimit === 'three' && ids.length === 4) {
    const keepsAce = p.hole.some((c) => c.rank === 14 && !ids.includes(c.id));
    if (!keepsAce) return 'A를 남길 때만 4장까지 바꿀 수 있어요';
    return null;
  }
  if (ids.length > max) return `최대 ${max}장까지 바꿀 수 있어요`;
  return null;
}

/** Plain maximum (without the ace exception). */
export function drawMax(s: PokerState, p: HandPlayer): number {
  if (s.options.mode === 'badugi') return 4;
  return s.options.drawLimit === 'three' ? 3 : p.hole.length;
}

/** With `three`: 4 if the player holds an ace (and keeps it), else null. */
export function drawMaxWithAce(s: PokerState, p: HandPlayer): number | null {
  if (s.options.mode !== 'fiveDraw' || s.options.drawLimit !== 'three') return null;
  return p.hole.some((c) => c.rank === 14) ? 4 : null;
}

export function exchange(ctx: Ctx): void {
  const h = ctx.s.hand!;
  const rng = Rng.fromState(h.rng);
  const players = live(h).map((p) => P(ctx, p.id));
  let current: Card[] = [];
  for (const p of players) {
    const ids = p.drawPending!;
    current = [...current, ...p.hole.filter((c) => ids.includes(c.id))];
    p.hole = p.hole.filter((c) => !ids.includes(c.id));
  }
  let deck = h.deck;
  let muck = h.muck;
  let reshuffled = 0;
  const counts: { player: string; count: number }[] = [];
  for (const p of players) {
    const need = p.drawPending!.length;
    const got: Card[] = [];
    while (got.length < need) {
      if (deck.length === 0) {
        if (muck.length > 0) {
          deck = rng.shuffle(muck.slice());
          muck = [];
        } else {
          deck = rng.shuffle(current.slice());
          current = [];
        }
        reshuffled++;
      }
      const n = Math.min(need - got.length, deck.length);
      got.push(...deck.slice(0, n));
      deck = deck.slice(n);
    }
    p.hole = [...p.hole, ...got];
    p.drawCounts = [...p.drawCounts, need];
    p.drawPending = null;
    counts.push({ player: p.id, count: need });
  }
  h.deck = deck;
  h.muck = [...muck, ...current];
  h.rng = rng.state();
  ctx.ev.push({ type: 'exchanged', counts, reshuffled });
  advance(ctx);
}
