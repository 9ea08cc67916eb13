/**
 * Per-hand facts of one finished poker game, read by replaying its GameRecord through the engine (the same
 * replay verifyRecord does): who was dealt in, who won how many chips from whom, and every betting decision
 * with whom it faced, whether the decider held a strong hand (the replay sees every card) and how long the
 * decider took. Pure: no I/O, no clock. A record the engine refuses to replay (another game, newer rules,
 * a rejected step) yields the hands read before the failure and a `problem`; it never throws on bad data.
 */
import { poker } from '../games/poker/index.ts';
import { scoreOf, omahaScore } from '../games/poker/eval/hands.ts';
import type { Card, PokerMode, PokerState } from '../games/poker/types.ts';
import type { GameRecord } from '../record/record.ts';
import { UNVERSIONED } from '../core/versions.ts';

export type DecisionKind = 'raise' | 'call' | 'fold' | 'check';

export interface Decision {
  actor: string;
  /** The player whose bet the actor faced (the round's last aggressor), or null when nothing was to call. */
  facing: string | null;
  kind: DecisionKind;
  /** The actor held a strong made hand (strongHand below) when deciding. */
  strong: boolean;
  /** Milliseconds since the previous recorded step: the actor's think time. */
  thinkMs: number;
}

export interface HandFacts {
  handNo: number;
  baseUnit: number;
  players: string[];
  /** Chips each dealt-in player ended the hand up (+) or down (−). */
  net: Record<string, number>;
  /** Chips moved from each loser to each winner, shared by the winners' gains. */
  flows: { from: string; to: string; amount: number }[];
  decisions: Decision[];
}

export interface GameFacts {
  hands: HandFacts[];
  problem: string | null;
}

const RAISES = new Set(['k.ping', 'k.ddadang', 'k.quarter', 'k.half', 'k.full', 'nl.raise', 'nl.allIn']);
const FOLDS = new Set(['k.die', 'nl.fold']);
const CHECKS = new Set(['k.check', 'nl.check']);

/**
 * Strong = two pair or better once community cards (or 3+ own cards) are out; a pair of queens or better, or
 * ace-king, before the flop. Modes whose strength is not a plain high hand (badugi, hi-lo, indian) say false:
 * only soft play is measured there.
 */
export function strongHand(
  mode: PokerMode,
  hole: readonly Card[],
  up: readonly Card[],
  board: readonly Card[],
): boolean {
  const own = [...hole, ...up];
  switch (mode) {
    case 'holdem':
    case 'omaha': {
      if (board.length < 3) {
        const ranks = own.map((c) => c.rank).sort((a, b) => b - a);
        const pair = ranks.some((r, i) => ranks.indexOf(r) !== i && r >= 12);
        return pair || (mode === 'holdem' && ranks[0] === 14 && ranks[1] === 13);
      }
      const score = mode === 'omaha' ? omahaScore(own, board) : scoreOf(false, [...own, ...board]);
      return score >>> 20 >= 2;
    }
    case 'fiveDraw':
      return own.length >= 5 && scoreOf(false, own) >>> 20 >= 2;
    case 'sevenPoker':
      return own.length >= 3 && scoreOf(true, own) >>> 22 >= 2;
    default:
      return false;
  }
}

function kindOf(type: string, raised: boolean): DecisionKind | null {
  if (FOLDS.has(type)) return 'fold';
  if (CHECKS.has(type)) return 'check';
  if (RAISES.has(type)) return raised ? 'raise' : 'call';
  if (type === 'k.call' || type === 'nl.call') return 'call';
  return null;
}

function handOver(state: PokerState, handNo: number, decisions: Decision[]): HandFacts {
  const h = state.hand!;
  const net: Record<string, number> = {};
  for (const [id, p] of Object.entries(h.players)) net[id] = -p.committedTotal;
  for (const a of h.awards ?? []) if (a.to in net) net[a.to] += a.amount;
  const winners = Object.entries(net).filter(([, v]) => v > 0);
  const won = winners.reduce((s, [, v]) => s + v, 0);
  const flows: HandFacts['flows'] = [];
  for (const [from, v] of Object.entries(net))
    if (v < 0 && won > 0) for (const [to, w] of winners) flows.push({ from, to, amount: (-v * w) / won });
  return { handNo, baseUnit: state.baseUnit, players: Object.keys(h.players), net, flows, decisions };
}

/** Replays a poker record and returns its hands' facts; other games give no hands. */
export function handsOfRecord(record: GameRecord): GameFacts {
  if (record.game !== 'poker') return { hands: [], problem: `not poker: ${record.game}` };
  const parsed = poker.optionsSchema.safeParse(record.options);
  if (!parsed.success) return { hands: [], problem: 'options invalid' };
  const rulesVersion = record.rulesVersion ?? UNVERSIONED;
  if (rulesVersion > poker.rulesVersion!) return { hands: [], problem: `newer rules (${rulesVersion})` };
  let state = poker.setup({
    seed: record.seed,
    players: record.players,
    options: parsed.data,
    now: record.startedAt,
    rulesVersion,
  });
  const hands: HandFacts[] = [];
  let decisions: Decision[] = [];
  let aggressor: string | null = null;
  let roundKey = '';
  let prevNow = record.startedAt;
  for (const [i, step] of record.actions.entries()) {
    const h = state.hand;
    const b = h?.betting;
    // A new betting round starts with the forced bets' owner (big blind, bring-in) as the one to call.
    const key = h && b ? `${h.handNo}:${b.street}` : '';
    if (key !== roundKey) {
      roundKey = key;
      aggressor = null;
      if (h && b && b.currentBet > 0)
        aggressor = Object.values(h.players).find((p) => p.committedRound === b.currentBet)?.id ?? null;
    }
    let pending: Omit<Decision, 'kind'> | null = null;
    let type = '';
    if (!('timeout' in step) && h && b && b.toAct === step.actor) {
      type = (step.action as { type?: string } | null)?.type ?? '';
      const me = h.players[step.actor];
      if (me && (RAISES.has(type) || FOLDS.has(type) || CHECKS.has(type) || type.endsWith('.call')))
        pending = {
          actor: step.actor,
          facing: b.currentBet > me.committedRound ? aggressor : null,
          strong: strongHand(state.options.mode, me.hole, me.up, h.board),
          thinkMs: Math.max(0, step.now - prevNow),
        };
    }
    const before = b?.currentBet ?? 0;
    const r =
      'timeout' in step ? poker.onTimeout(state, step.now) : poker.apply(state, step.actor, step.action, step.now);
    if (!r.ok) return { hands, problem: `step ${i} rejected on replay: ${r.reason}` };
    prevNow = step.now;
    const after = r.state.hand?.betting;
    const raised = !!after && after.currentBet > before && roundKey === `${r.state.hand!.handNo}:${after.street}`;
    if (pending) {
      const kind = kindOf(type, raised || (RAISES.has(type) && !after));
      if (kind) decisions.push({ ...pending, kind });
      if (kind === 'raise') aggressor = pending.actor;
    }
    state = r.state;
    for (const e of r.events as { type: string; handNo?: number }[])
      if (e.type === 'handEnd' && state.hand) {
        hands.push(handOver(state, e.handNo ?? state.hand.handNo, decisions));
        decisions = [];
      }
  }
  return { hands, problem: null };
}
