/**
 * Timers and automatic actions (§8.5): betting turns check when free and
 * otherwise die/fold; the 7-poker choice discards the lowest card and opens
 * the next lowest; draws pass; declarations default to high; the hand-end
 * pause readies everyone; an unanswered rebuy declines. Two timeouts in a row
 * mark a player away, whose turns then last 5 seconds (§5.8).
 */
import type { ApplyResult, PlayerId } from '../../core/types.ts';
import { COMMON_REASONS, reject } from '../../core/reject.ts';
import { type Ctx, draft, live, P, S } from './draft.ts';
import { run } from './rules.ts';
import { autoChoice } from './flow-seven.ts';
import { toCallOf } from './betting.ts';
import type { PokerAction, PokerState } from './types.ts';

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
        const free = toCallOf(h, h.players[id]) === 0;
        const korean = s.betting === 'korean';
        const a: PokerAction = free
          ? { type: korean ? 'k.check' : 'nl.check' }
          : { type: korean ? 'k.die' : 'nl.fold' };
        run(ctx, id, a);
        break;
      }
      case 'choice':
        for (const p of live(h).filter((x) => !x.choiceDone)) {
          missed(ctx, p.id);
          if (s.hand!.phase === 'choice') run(ctx, p.id, { type: 'choose', ...autoChoice(p.choice!) });
        }
        break;
      case 'draw':
        for (const p of live(h).filter((x) => x.drawPending === null)) {
          missed(ctx, p.id);
          if (s.hand!.phase === 'draw') run(ctx, p.id, { type: 'draw', cardIds: [] });
        }
        break;
      case 'declare':
        for (const p of live(h).filter((x) => x.declare === null)) {
          missed(ctx, p.id);
          if (s.hand!.phase === 'declare') run(ctx, p.id, { type: 'declare', side: 'high' });
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
  s.seq = state.seq + 1;
  return { ok: true, state: s, events: ctx.ev };
}
