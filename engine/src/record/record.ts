/**
 * A game record holds everything needed to replay a game exactly and to
 * check that its shuffle was committed to before the first deal:
 * setup inputs, the seed and its commitment, and every accepted transition.
 */
import { seedCommitment } from '../core/commit.ts';
import { UNVERSIONED } from '../core/versions.ts';
import type { AnyGame, ApplyResult, GameResult, GameStateBase, PlayerId, PlayerInfo } from '../core/types.ts';

export type RecordedStep = { actor: PlayerId; action: unknown; now: number } | { timeout: true; now: number };

export interface GameRecord {
  game: string;
  options: Record<string, unknown>;
  players: PlayerInfo[];
  /** `now` passed to setup. */
  startedAt: number;
  /** The rules version the game was played under (core/versions.ts); absent in records made before versions = 1. */
  rulesVersion?: number;
  seedCommit: string;
  seed: string;
  actions: RecordedStep[];
  result: GameResult | null;
}

export interface VerifyOutcome {
  ok: boolean;
  problems: string[];
  steps: number;
  result: GameResult | null;
}

/**
 * The game as the record set it up: its options parsed and its rules version honoured (a later rule fix
 * cannot break an old record). Refused when the options do not parse or the record's rules are newer than
 * this engine's. Shared by `verifyRecord` and any step-by-step replay (the client's 복기).
 */
export function setupFromRecord(
  game: AnyGame,
  record: GameRecord,
):
  | { ok: true; state: GameStateBase }
  | { ok: false; problem: 'options' }
  | { ok: false; problem: 'rules'; rulesVersion: number } {
  const parsed = game.optionsSchema.safeParse(record.options);
  if (!parsed.success) return { ok: false, problem: 'options' };
  const rulesVersion = record.rulesVersion ?? UNVERSIONED;
  if (game.rulesVersion !== undefined && rulesVersion > game.rulesVersion)
    return { ok: false, problem: 'rules', rulesVersion };
  const state = game.setup({
    seed: record.seed,
    players: record.players,
    options: parsed.data,
    now: record.startedAt,
    rulesVersion,
  });
  return { ok: true, state };
}

/** One recorded step applied to `state`: a move by its actor, or the clock running out. */
export function applyRecordedStep(game: AnyGame, state: GameStateBase, step: RecordedStep): ApplyResult<GameStateBase> {
  return 'timeout' in step ? game.onTimeout(state, step.now) : game.apply(state, step.actor, step.action, step.now);
}

/** Replays `record` through `game` and checks commitment, every step, and the final result. */
export function verifyRecord(game: AnyGame, record: GameRecord): VerifyOutcome {
  const problems: string[] = [];
  if (seedCommitment(record.seed) !== record.seedCommit) problems.push('seed does not match its commitment');
  const set = setupFromRecord(game, record);
  if (!set.ok) {
    const problem = set.problem === 'options' ? 'options invalid' : `played under newer rules (${set.rulesVersion})`;
    return { ok: false, problems: [...problems, problem], steps: 0, result: null };
  }
  let state = set.state;
  if (state.seedCommit !== record.seedCommit) problems.push('setup committed to a different seed');
  let steps = 0;
  for (const step of record.actions) {
    const r = applyRecordedStep(game, state, step);
    if (!r.ok) {
      problems.push(`step ${steps} rejected on replay: ${r.reason}`);
      break;
    }
    state = r.state;
    steps++;
  }
  const result = game.result(state);
  if (JSON.stringify(result) !== JSON.stringify(record.result))
    problems.push('replayed result differs from the recorded one');
  return { ok: problems.length === 0, problems, steps, result };
}
