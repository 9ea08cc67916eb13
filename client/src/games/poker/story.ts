/**
 * What the poker table tells a player at a glance (issue 16 §3), derived from
 * the view alone: declarations once revealed, award labels (하이/로우/스윙,
 * 메인/사이드 N), draw counts named 아침/점심/저녁, ranked hand names
 * ("J 투페어", "A 마운틴") with the five cards that made them, the 7포커 boss,
 * and the countdown of every timed phase. Pure, so tests read the same model
 * the screen draws.
 */
import { chips, nameOf, type Card, type PokerView } from './model.ts';
import { clockStep } from '../../table-kit/clock-steps.ts';

export const DRAW_NAMES = ['아침', '점심', '저녁'] as const;

export const DECLARE_NAME = { high: '하이', low: '로우', swing: '스윙' } as const;

const RANK_LABEL: Record<number, string> = { 14: 'A', 13: 'K', 12: 'Q', 11: 'J', 1: 'A' };
const rankLabel = (r: number) => RANK_LABEL[r] ?? String(r);

/** Names that already carry their rank, or that a rank would not help (badugi, low, indian, royal). */
const NO_PREFIX = /탑 로우|메이드|베이스|골프|세컨드|써드|로열|땡|끗|망통|^[0-9AKQJ]/;

/**
 * "J 투페어", "A 마운틴", "5 백 스트레이트", "K 탑": the rank of the biggest
 * group of the best five (pairs, trips…), or their top card (straights,
 * flushes, high card). Names that carry their own ranks stay as they are.
 */
export function rankedHandName(name: string, best: readonly Card[]): string {
  if (!best.length || NO_PREFIX.test(name)) return name;
  const count = new Map<number, number>();
  for (const c of best) count.set(c.rank, (count.get(c.rank) ?? 0) + 1);
  const groups = [...count].sort((a, b) => b[1] - a[1] || b[0] - a[0]);
  let top = groups[0][0];
  // A back straight (A-2-3-4-5) is named by its 5; the ace plays low.
  if (name.includes('백 스트레이트')) top = 5;
  return `${rankLabel(top)} ${name}`;
}

/** Which draw the hand is in or has finished: 0 = 아침 … (from the counts every seat carries). */
export function drawIndex(v: PokerView): number | null {
  const h = v.hand;
  if (!h || (v.mode !== 'badugi' && v.mode !== 'fiveDraw')) return null;
  const live = h.players.filter((p) => !p.folded);
  if (!live.length) return null;
  if (h.phase === 'draw') {
    const waiting = live.filter((p) => !p.drawDone);
    const at = waiting.length ? Math.min(...waiting.map((p) => p.drawCounts.length)) : 0;
    return Math.min(at, DRAW_NAMES.length - 1);
  }
  const done = Math.max(...live.map((p) => p.drawCounts.length));
  return done > 0 ? done - 1 : null;
}

export interface SeatStory {
  id: string;
  /** 하이/로우/스윙 once the view shows it (own choice, or everyone's at showdown). */
  declare: string | null;
  /** "아침 2 · 점심 0": cards changed per finished draw. */
  draws: string | null;
  boss: boolean;
  /** "메인 하이 +300칩" per award to this seat. */
  awards: string[];
  /** Ranked name of the revealed hand ("J 투페어 / 7탑 로우"). */
  hand: string | null;
  /** Ids of the five cards that made the hand (lifted on the table). */
  best: number[];
}

function awardLabel(v: PokerView, a: NonNullable<NonNullable<PokerView['hand']>['awards']>[number]): string {
  const h = v.hand!;
  const parts: string[] = [];
  if (a.kind === 'penalty') parts.push('벌칙');
  else if (a.kind === 'return') parts.push('반환');
  else if (h.pots.length > 1) parts.push(a.potIndex === 0 ? '메인' : `사이드 ${a.potIndex}`);
  if (a.side === 'high') parts.push('하이');
  else if (a.side === 'low') parts.push('로우');
  else if (a.side === 'scoop') {
    const declared = h.showdown?.find((e) => e.id === a.to)?.declare;
    parts.push(declared === 'swing' ? '스윙' : '하이·로우');
  }
  return `${parts.join(' ')}${parts.length ? ' ' : ''}+${chips(a.amount)}`;
}

export function seatStory(v: PokerView, id: string): SeatStory {
  const h = v.hand;
  const p = h?.players.find((x) => x.id === id);
  const sd = h?.showdown?.find((e) => e.id === id) ?? null;
  const side = sd?.declare ?? p?.declare ?? null;
  const draws =
    p && p.drawCounts.length ? p.drawCounts.map((n, i) => `${DRAW_NAMES[i] ?? `${i + 1}번`} ${n}`).join(' · ') : null;
  const awards = (h?.phase === 'handEnd' ? (h.awards ?? []) : [])
    .filter((a) => a.to === id)
    .map((a) => awardLabel(v, a));
  const high = sd ? rankedHandName(sd.handName, sd.best) : null;
  // 하이로우: the half a player declared is the hand they play (both for 스윙).
  const hand = !sd
    ? null
    : !sd.lowName || !side
      ? `${high}${sd.lowName ? ` / ${sd.lowName}` : ''}`
      : side === 'high'
        ? `하이 ${high}`
        : side === 'low'
          ? `로우 ${sd.lowName}`
          : `스윙 ${high} / ${sd.lowName}`;
  return {
    id,
    declare: side ? DECLARE_NAME[side] : null,
    draws,
    boss: !!h && h.boss === id && h.phase !== 'handEnd',
    awards,
    hand,
    // The lifted five are the high hand's; a 로우 declarer's low cards are not in the view.
    best: sd && side !== 'low' ? sd.best.map((c) => c.id) : [],
  };
}

/**
 * The hand-end lines, biggest win first (so with side pots the headline is
 * who took the most, not the last pot paid): name, each award's label, hand.
 */
export function awardLines(v: PokerView): string[] {
  const h = v.hand;
  if (!h || h.phase !== 'handEnd' || !h.awards) return [];
  const total = new Map<string, number>();
  for (const a of h.awards) if (a.kind !== 'return') total.set(a.to, (total.get(a.to) ?? 0) + a.amount);
  return [...total]
    .sort((a, b) => b[1] - a[1])
    .map(([id]) => {
      const s = seatStory(v, id);
      const me = id === v.viewer ? '(나)' : '';
      const labels = s.awards.filter((x) => !x.startsWith('반환')).join(', ');
      return `${nameOf(v, id)}${me} ${labels}${s.hand ? ` · ${s.hand}` : ''}`;
    });
}

/** The centre title of a draw game: which draw, or which betting round after which draw. */
export function roundTitle(v: PokerView): string | null {
  const h = v.hand;
  const i = drawIndex(v);
  if (!h || (v.mode !== 'badugi' && v.mode !== 'fiveDraw')) return null;
  if (h.phase === 'draw') return `${DRAW_NAMES[i ?? 0]} — 카드 바꾸는 중`;
  if (h.phase === 'betting') return i === null ? '첫 베팅' : `${DRAW_NAMES[i]} 뒤 베팅`;
  return null;
}

export interface Countdown {
  /** Whole seconds left (rounded up). */
  seconds: number;
  /** 0…1 of the phase's clock. */
  frac: number;
  /** The last 5 seconds. */
  urgent: boolean;
  /** Whose clock: a seat id while betting, else null (everyone's). */
  seat: string | null;
  label: string;
}

/** The engine's clocks: a betting turn, the shared choice/draw/declare clock (turn + 10 s), rebuy 15 s, the hand-end pause 4 s. */
export function countdown(v: PokerView, now: number): Countdown | null {
  if (v.deadline === null || v.finished) return null;
  const h = v.hand;
  const phase = v.phase === 'rebuy' ? 'rebuy' : (h?.phase ?? null);
  if (!phase || phase === 'showdown') return null;
  const totalMs =
    phase === 'betting'
      ? v.options.turnSeconds * 1000
      : phase === 'rebuy'
        ? 15_000
        : phase === 'handEnd'
          ? 4000
          : (v.options.turnSeconds + 10) * 1000;
  const left = Math.max(0, v.deadline - now);
  const seconds = Math.ceil(left / 1000);
  const word = { betting: '', choice: '선택', draw: '교환', declare: '선언', rebuy: '리바이', handEnd: '다음 판' }[
    phase
  ];
  return {
    seconds,
    // The ring moves when the seconds shown change, never between them: one drawn frame a second.
    frac: clockStep(Math.min(1, (seconds * 1000) / totalMs), totalMs),
    urgent: left <= 5000,
    seat: phase === 'betting' ? (h?.toAct ?? null) : null,
    label: `${word ? `${word} ` : ''}${seconds}초`,
  };
}
