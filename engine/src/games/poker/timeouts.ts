/**
 * Timers and automatic actions (§8.5): betting turns check when free and
 * otherwise die/fold; the 7-poker choice discards the lowest card and opens
 * the next lowest; draws pass; declarations default to high; the hand-end
 * pause readies everyone; an unanswered rebuy declines. Two timeouts in a row
 * mark a player away, whose turns then last 5 seconds (§5.8). The same
 * automatic actions stand in, at once, for a player who has left mid-hand
 * (clarification 17, rules version 3: `playForLeavers` in rules.ts).
 */
import type { ApplyResult, PlayerId } from '../../core/types.ts';
import { COMMON_REASONS, reject } from '../../core/reject.ts';
import { type Ctx, draft, live, P, S } from './draft.ts';
import { playForLeavers, run } from './rules.ts';
import { timeoutAction } from './active.ts';
import type { PokerState } from './types.ts';

export function deadline(s: PokerState): number | null {
  if (s.phase === 'finished') return null;
  if (s.phase === 'rebuy') return s.rebuyDeadlineAt;
  return s.hand?.deadlineAt ?? null;
}

function missed(ctx: Ctx, id: PlayerId): void {
  const seat = S(ctx, id);
  seat.timeoutsInRow += 1;
  if (seat.timeoutsInRow >= 2 && !seat.away) {
    seat.away = true;
    ctx.ev.push({ type: 'away', player: id });
  }
}

export function onTimeout(state: PokerState, now: number): ApplyResult<PokerState> {
  const due = deadline(state);
  if (due === null || now < due) return reject(COMMON_REASONS.noTimeout);
  const ctx = draft(state, now);
  const s = ctx.s;
  ctx.ev.push({ type: 'timeout' });
  if (s.phase === 'rebuy') {
    for (const id of [...s.rebuyPending]) if (s.phase === 'rebuy') run(ctx, id, { type: 'rebuy', accept: false });
  } else {
    const h = s.hand!;
    switch (h.phase) {
      case 'betting': {
        const id = h.betting!.toAct!;
        missed(ctx, id);
        run(ctx, id, timeoutAction(s, id));
        break;
      }
      case 'choice':
        for (const p of live(h).filter((x) => !x.choiceDone)) {
          missed(ctx, p.id);
          if (s.hand!.phase === 'choice') run(ctx, p.id, timeoutAction(s, p.id));
        }
        break;
      case 'draw':
        for (const p of live(h).filter((x) => x.drawPending === null)) {
          missed(ctx, p.id);
          if (s.hand!.phase === 'draw') run(ctx, p.id, timeoutAction(s, p.id));
        }
        break;
      case 'declare':
        for (const p of live(h).filter((x) => x.declare === null)) {
          missed(ctx, p.id);
          if (s.hand!.phase === 'declare') run(ctx, p.id, timeoutAction(s, p.id));
        }
        break;
      case 'handEnd':
        for (const id of h.seatOrder) P(ctx, id).ready = true;
        run(ctx, h.seatOrder[0], { type: 'ready' });
        break;
      default:
        return reject(COMMON_REASONS.noTimeout);
    }
  }
  playForLeavers(ctx);
  s.seq = state.seq + 1;
  return { ok: true, state: s, events: ctx.ev };
}
