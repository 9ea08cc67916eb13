/**
 * Card points, special hands, ranking and settlement (docs/games/hula.md §6).
 * Every 박 is a factor; all factors multiply. Points only move inside the room:
 * what losers pay equals what the winner receives plus the fee.
 */
import type { PlayerId } from '../../core/types.ts';
import { isJoker } from './melds.ts';
import { exhaustionTiesFromNext, RULES_VERSION } from './version.ts';
import type {
  BonusState,
  Card,
  HulaMode,
  HulaOptions,
  Multiplier,
  RoundSummary,
  SettlementLine,
  SpecialKind,
  WinType,
} from './types.ts';

/** §6.1: A=1 … K=13; a joker 20; a 7 counts 14 only when the round ends by a stop. */
export function cardPoints(c: Card, atStop: boolean): number {
  if (isJoker(c)) return 20;
  if (c.rank === 7 && atStop) return 14;
  return c.rank;
}

export function handScore(hand: readonly Card[], atStop: boolean): number {
  let s = 0;
  for (const c of hand) s += cardPoints(c, atStop);
  return s;
}

/** §5.5: highest hand score (7 = 14, joker = 20) a stop may be declared with; null = no limit. */
export function stopLimit(players: number): number | null {
  return players >= 5 ? null : players === 4 ? 21 : players === 3 ? 18 : 15;
}

export const SPECIAL_LIMITS: Record<HulaMode, { daeka: number; soka: number; jokerDaeka: number; jokerSoka: number }> =
  {
    monster: { daeka: 83, soka: 15, jokerDaeka: 13, jokerSoka: 1 },
    joker: { daeka: 85, soka: 13, jokerDaeka: 13, jokerSoka: 1 },
  };

/** §5.6: which special hand `hand` is, if any (7777 first; 대카 and 소카 cannot both hold). Registration is checked by the caller. */
export function specialOf(hand: readonly Card[], mode: HulaMode): SpecialKind | null {
  const lim = SPECIAL_LIMITS[mode];
  let sevens = 0;
  let high = 0;
  let low = 0;
  for (const c of hand) {
    if (isJoker(c)) {
      high += lim.jokerDaeka;
      low += lim.jokerSoka;
      continue;
    }
    if (c.rank === 7) sevens++;
    high += c.rank;
    low += c.rank;
  }
  if (sevens === 4) return 'sevens';
  if (high >= lim.daeka) return 'daeka';
  if (low <= lim.soka) return 'soka';
  return null;
}

/** §6.3: what each loser's rank pays, in units, by number of players in the round (2등 first). */
export const RANK_UNITS: Record<number, number[]> = {
  2: [2],
  3: [1, 3],
  4: [1, 2, 3],
  5: [1, 2, 3, 4],
};

export interface Contestant {
  seat: number;
  id: PlayerId;
  hand: Card[];
  registered: boolean;
  hadTurn: boolean;
}

export interface RoundOutcome {
  type: WinType;
  /** Hula/special: the winner. Stop: the stopper. Exhaustion: the seat that would have drawn next. */
  seat: number;
  special?: SpecialKind | null;
  /** Seat whose discard a 땡큐 훌라 was made with. */
  thankYouFrom?: number | null;
}

interface Keyed {
  c: Contestant;
  joker: boolean;
  score: number;
}

/**
 * §6.2 order: players holding a joker (조커박) come after everyone else; then
 * lower score, fewer cards, and finally nearer clockwise from `origin`.
 */
function order(list: Keyed[], origin: number, seatCount: number): Keyed[] {
  const dist = (s: number): number => (s - origin + seatCount) % seatCount;
  return [...list].sort(
    (a, b) =>
      Number(a.joker) - Number(b.joker) ||
      a.score - b.score ||
      a.c.hand.length - b.c.hand.length ||
      dist(a.c.seat) - dist(b.c.seat),
  );
}

export interface Settlement {
  summary: Omit<RoundSummary, 'round'>;
  winnerSeat: number;
  /** Point change per seat (only seats in the round). */
  deltas: Map<number, number>;
  bonusAfter: BonusState;
}

/** Settles a finished round (§6.2–6.6). `contestants` are the seats dealt in, in seat order. */
export function settle(
  contestants: Contestant[],
  outcome: RoundOutcome,
  options: HulaOptions,
  bonus: BonusState,
  seatCount: number,
  rulesVersion = RULES_VERSION,
): Settlement {
  const atStop = outcome.type === 'stop';
  const jokerMode = options.mode === 'joker';
  const keyed: Keyed[] = contestants.map((c) => ({
    c,
    joker: jokerMode && c.hand.some(isJoker),
    score: handScore(c.hand, atStop),
  }));
  let winner: Keyed;
  let stopFailed = false;
  if (outcome.type === 'stop') {
    const stopper = keyed.find((k) => k.c.seat === outcome.seat)!;
    const others = keyed.filter((k) => k !== stopper);
    // §7 choice: the stopper must be strictly ahead of everyone; a tie makes the stop fail.
    stopFailed = others.some(
      (o) => Number(o.joker) - Number(stopper.joker) < 0 || (o.joker === stopper.joker && o.score <= stopper.score),
    );
    winner = stopFailed ? order(others, outcome.seat, seatCount)[0] : stopper;
  } else if (outcome.type === 'exhaustion') {
    winner = order(keyed, outcome.seat, seatCount)[0];
  } else {
    winner = keyed.find((k) => k.c.seat === outcome.seat)!;
  }
  // §6.2-4: ties among losers are broken from the winner — at a deck exhaustion from
  // the player whose turn was next (the exhaustion outcome's seat), as for the winner.
  const losers = order(
    keyed.filter((k) => k !== winner),
    outcome.type === 'exhaustion' && exhaustionTiesFromNext(rulesVersion) ? outcome.seat : winner.c.seat,
    seatCount,
  );
  const units = RANK_UNITS[contestants.length];
  const bonusApplied = options.bonus && bonus.owner === winner.c.id ? bonus.multiplier : 1;
  const feeRate = outcome.type === 'special' ? options.feeSpecial : options.feeNormal;

  const lines: SettlementLine[] = [];
  const dues: number[] = [];
  losers.forEach((k, i) => {
    const mult: Multiplier[] = [];
    if (outcome.type === 'hula') mult.push({ code: 'hulaWin', factor: 2 });
    if (outcome.type === 'special') mult.push({ code: 'specialWin', factor: 4 });
    const sevens = k.c.hand.filter((c) => c.rank === 7 && !isJoker(c)).length;
    if (sevens > 0) mult.push({ code: 'seven', factor: 2 ** sevens });
    const unregistered = !k.c.registered && k.c.hadTurn;
    if (unregistered) mult.push({ code: 'unregistered', factor: 2 });
    if (unregistered && k.c.hand.length >= 7) mult.push({ code: 'fullHand', factor: 2 });
    if (outcome.type === 'hula' && outcome.thankYouFrom === k.c.seat) mult.push({ code: 'thankYou', factor: 2 });
    if (k.joker) mult.push({ code: 'joker', factor: 3 });
    if (bonusApplied > 1) mult.push({ code: 'bonus', factor: bonusApplied });
    const base = units[i] * options.baseUnit;
    const due = mult.reduce((a, m) => a * m.factor, base);
    dues.push(due);
    lines.push({ player: k.c.id, hand: k.c.hand, score: k.score, rank: i + 2, base, multipliers: mult, due, delta: 0 });
  });

  const deltas = new Map<number, number>();
  let gross = 0;
  if (stopFailed) {
    // §6.5: a failed stopper alone pays one and a half times what all losers together would have paid.
    const pay = (dues.reduce((a, b) => a + b, 0) * 3) / 2;
    gross = pay;
    deltas.set(outcome.seat, -pay);
  } else {
    losers.forEach((k, i) => {
      gross += dues[i];
      deltas.set(k.c.seat, -dues[i]);
    });
  }
  const fee = Math.floor((gross * feeRate) / 100);
  deltas.set(winner.c.seat, gross - fee);
  for (const line of lines) line.delta = deltas.get(contestants.find((c) => c.id === line.player)!.seat) ?? 0;
  lines.unshift({
    player: winner.c.id,
    hand: winner.c.hand,
    score: winner.score,
    rank: 1,
    base: 0,
    multipliers: [],
    due: 0,
    delta: gross - fee,
  });

  return {
    summary: {
      winner: winner.c.id,
      winType: outcome.type,
      special: outcome.type === 'special' ? (outcome.special ?? null) : null,
      byThankYou: outcome.type === 'hula' && outcome.thankYouFrom != null,
      thankYouFrom:
        outcome.type === 'hula' && outcome.thankYouFrom != null
          ? contestants.find((c) => c.seat === outcome.thankYouFrom)!.id
          : null,
      stopper: outcome.type === 'stop' ? contestants.find((c) => c.seat === outcome.seat)!.id : null,
      stopFailed,
      bonusApplied,
      lines,
      gross,
      fee,
      feeRate,
    },
    winnerSeat: winner.c.seat,
    deltas,
    bonusAfter: options.bonus
      ? nextBonus(bonus, winner.c.id, outcome.type)
      : { owner: winner.c.id, multiplier: 1, streak: bonus.owner === winner.c.id ? bonus.streak + 1 : 1 },
  };
}

/**
 * §6.6 배판: the multiplier belongs to the last winner. A new winner takes
 * ownership at ×1 and a streak of 1; then 훌라 and special wins add one at
 * once, stop/exhaustion wins from the second win in a row. Capped at 5.
 */
export function nextBonus(bonus: BonusState, winner: PlayerId, type: WinType): BonusState {
  const same = bonus.owner === winner;
  const streak = same ? bonus.streak + 1 : 1;
  let multiplier = same ? bonus.multiplier : 1;
  if (type === 'hula' || type === 'special' || streak >= 2) multiplier += 1;
  return { owner: winner, multiplier: Math.min(5, multiplier), streak };
}
