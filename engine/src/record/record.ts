/**
 * A game record holds everything needed to replay a game exactly and to
 * check that its shuffle was committed to before the first deal:
 * setup inputs, the seed and its commitment, and every accepted transition.
 */
import { seedCommitment } from '../core/commit.ts';
import { UNVERSIONED } from '../core/versions.ts';
import type { AnyGame, GameResult, PlayerId, PlayerInfo } from '../core/types.ts';

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

/** Replays `record` through `game` and checks commitment, every step, and the final result. */
export function verifyRecord(game: AnyGame, record: GameRecord): VerifyOutcome {
  const problems: string[] = [];
  if (seedCommitment(record.seed) !== record.seedCommit) problems.push('seed does not match its commitment');
  const parsed = game.optionsSchema.safeParse(record.options);
  if (!parsed.success) return { ok: false, problems: [...problems, 'options invalid'], steps: 0, result: null };
  // Replayed under the rules it was played with, so a later rule fix cannot break an old record.
  const rulesVersion = record.rulesVersion ?? UNVERSIONED;
  if (game.rulesVersion !== undefined && rulesVersion > game.rulesVersion)
    return { ok: false, problems: [...problems, `played under newer rules (${rulesVersion})`], steps: 0, result: null };
  let state = game.setup({
    seed: record.seed,
    players: record.players,
    options: parsed.data,
    now: record.startedAt,
    rulesVersion,
  });
  if (state.seedCommit !== record.seedCommit) problems.push('setup committed to a different seed');
  let steps = 0;
  for (const step of record.actions) {
    const r =
      'timeout' in step ? game.onTimeout(state, step.now) : game.apply(state, step.actor, step.action, step.now);
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
