/** Plays bot games step by step for property tests (bots act from their own views, timers sometimes run out). */
import { poker } from '../../src/games/poker/index.ts';
import { Rng } from '../../src/core/rng.ts';
import { simPlayers } from '../../src/sim/runner.ts';
import type { GameEvent, PlayerId } from '../../src/core/types.ts';
import type { PokerState, PokerView } from '../../src/games/poker/types.ts';
import { playerRange } from '../../src/games/poker/options.ts';

export const MODES = ['holdem', 'omaha', 'sevenPoker', 'sevenHiLo', 'badugi', 'fiveDraw', 'indian'] as const;

export type Step = { actor: PlayerId; action: unknown; now: number } | { timeout: true; now: number };

export interface Game {
  seed: string;
  options: Record<string, unknown>;
  players: number;
}

export function gameFor(i: number, extra: Record<string, unknown> = {}): Game {
  const mode = MODES[i % MODES.length];
  // The loose 쉬움 policy by default: it tries every action type on purpose, which is what these
  // whole-game property tests want, and costs no Monte-Carlo rollouts (bots/levels.test.ts plays 보통/어려움).
  const options: Record<string, unknown> = { mode, handLimit: 10, botLevel: 'easy', ...extra };
  if (mode === 'indian') {
    options.indianCards = (i >> 3) % 2 ? 2 : 1;
    options.indianReshuffle = (i >> 4) % 2 ? 'everyHand' : 'whenEmpty';
  }
  if (i % 5 === 0) options.betting = ['korean', 'noLimit', 'potLimit'][(i / 5) % 3];
  if (i % 11 === 0) options.endCondition = 'lastStanding';
  if (i % 13 === 0) options.rebuy = 'limited';
  const max = playerRange(poker.optionsSchema.parse(options)).max;
  return { seed: `prop-${i}`, options, players: 2 + (i % Math.min(5, max - 1)) };
}

export type Views = Map<PlayerId | null, PokerView>;

/**
 * Runs one game; `each` sees every state after setup and after each transition, with the events
 * that produced it and every viewer's view (players and the spectator), which the bots then play
 * from. Stops at the end of the game or once `until` says so. Returns the steps and the final state.
 */
export function play(
  g: Game,
  each: (s: PokerState, events: GameEvent[], views: Views) => void,
  until: (s: PokerState) => boolean = () => false,
): { steps: Step[]; final: PokerState } {
  const players = simPlayers(g.players);
  const rng = Rng.fromSeed(`play:${g.seed}`);
  let now = 1_800_000_000_000;
  let s = poker.setup({ seed: g.seed, players, options: poker.optionsSchema.parse(g.options), now });
  const viewsOf = (st: PokerState): Views =>
    new Map([...players.map((p) => [p.id, poker.view(st, p.id)] as const), [null, poker.view(st, null)]]);
  let views = viewsOf(s);
  each(s, [], views);
  const steps: Step[] = [];
  while (!poker.result(s) && !until(s)) {
    const moves: { actor: PlayerId; action: unknown }[] = [];
    for (const p of players) {
      const a = poker.bot(views.get(p.id)!, rng);
      if (a) moves.push({ actor: p.id, action: a });
    }
    const due = poker.deadline(s);
    let r;
    if (moves.length === 0 || (due !== null && rng.float() < 0.03)) {
      now = Math.max(now, due!);
      r = poker.onTimeout(s, now);
      steps.push({ timeout: true, now });
    } else {
      const m = moves[rng.int(moves.length)];
      now += 1 + rng.int(1000);
      if (due !== null && now >= due) now = due - 1;
      r = poker.apply(s, m.actor, m.action, now);
      steps.push({ ...m, now });
    }
    if (!r.ok) throw new Error(`bot move rejected: ${r.reason}`);
    s = r.state;
    views = viewsOf(s);
    each(s, r.events, views);
  }
  return { steps, final: s };
}
