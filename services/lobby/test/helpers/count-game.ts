/**
 * A tiny game for the lobby's tests: players take turns saying the next
 * number; whoever says the target wins. It implements the full engine
 * contract (seed commitment, options with Korean messages, playerRange by
 * mode) so the lobby is exercised exactly as with a real game, without the
 * tests depending on one card game's rules.
 */
import { z } from 'zod';
import {
  buildOptions,
  COMMON_REASONS,
  opt,
  reject,
  Rng,
  seedCommitment,
  type AnyGame,
  type GameId,
  type GameRecord,
  type GameStateBase,
  type RecordedStep,
} from '@joke/engine';

const { schema, fields } = buildOptions(
  {
    mode: opt.choice(
      '모드',
      [
        ['classic', '기본'],
        ['duel', '1:1'],
      ],
      'classic',
    ),
    target: opt.integer('목표 숫자', 3, 30, 5),
  },
  (o, ctx) => {
    if (o.mode === 'duel' && o.target > 10)
      ctx.addIssue({ code: 'custom', path: ['target'], message: '1:1 모드에서는 목표 숫자가 10 이하여야 해요' });
  },
);

interface CountState extends GameStateBase {
  count: number;
  turn: number;
  target: number;
  winner: string | null;
}

const actionSchema = z.object({ type: z.literal('say') });

export const countGame: AnyGame = {
  id: 'count' as GameId,
  name: '숫자 세기',
  modes: [
    { id: 'classic', name: '기본' },
    { id: 'duel', name: '1:1' },
  ],
  minPlayers: 2,
  maxPlayers: 4,
  optionsSchema: schema,
  optionFields: fields,
  actionSchema,
  playerRange: (o) => (o.mode === 'duel' ? { min: 2, max: 2 } : { min: 3, max: 4 }),
  setup({ seed, players, options }): CountState {
    const rng = Rng.fromSeed(seed);
    return {
      game: 'count' as GameId,
      seq: 0,
      seedCommit: seedCommitment(seed),
      seed,
      players,
      turn: rng.int(players.length),
      rng: rng.state(),
      count: 0,
      target: options.target,
      winner: null,
    };
  },
  apply(state: CountState, actor, action) {
    const seat = state.players.findIndex((p) => p.id === actor);
    if (seat < 0) return reject(COMMON_REASONS.notAPlayer);
    if (state.winner) return reject(COMMON_REASONS.finished);
    if (!actionSchema.safeParse(action).success) return reject(COMMON_REASONS.malformed);
    if (seat !== state.turn) return reject(COMMON_REASONS.notYourTurn);
    const count = state.count + 1;
    return {
      ok: true,
      state: {
        ...state,
        seq: state.seq + 1,
        count,
        turn: (state.turn + 1) % state.players.length,
        winner: count >= state.target ? actor : null,
      },
      events: [{ type: 'said', player: actor, count }],
    };
  },
  view(state: CountState, viewer) {
    return {
      game: state.game,
      seq: state.seq,
      seedCommit: state.seedCommit,
      viewer,
      players: state.players,
      deadline: null,
      finished: state.winner !== null,
      count: state.count,
      turn: state.turn,
    };
  },
  eventView: (e) => e,
  activePlayers: (state: CountState) => (state.winner ? [] : [state.players[state.turn].id]),
  phase: (state: CountState) => (state.winner ? 'finished' : 'turn'),
  deadline: () => null,
  onTimeout: () => reject(COMMON_REASONS.noTimeout),
  result(state: CountState) {
    if (!state.winner) return null;
    return {
      ranking: state.players.map((p) => ({ player: p.id, rank: p.id === state.winner ? 1 : 2 })),
      winners: [state.winner],
      summary: `${state.players.find((p) => p.id === state.winner)!.name} 님이 ${state.target}을(를) 외쳐 이겼어요`,
      seed: state.seed,
    };
  },
  bot: (view: any) => (view.players[view.turn]?.id === view.viewer ? { type: 'say' } : null),
};

/** Plays a whole game through the engine contract, as a room worker would, and returns its record. */
export function playToEnd(
  game: AnyGame,
  players: { id: string; name: string }[],
  rawOptions: Record<string, unknown>,
  seed: string,
): GameRecord {
  const options = game.optionsSchema.parse(rawOptions);
  const startedAt = 1_800_000_000_000;
  let state = game.setup({ seed, players, options, now: startedAt });
  const actions: RecordedStep[] = [];
  let now = startedAt;
  for (let i = 0; i < 10_000 && !game.result(state); i++) {
    const moved = players.some((p) => {
      const action = game.bot(game.view(state, p.id), Rng.fromSeed(`${seed}:${i}`));
      if (!action) return false;
      now += 100;
      const r = game.apply(state, p.id, action, now);
      if (!r.ok) throw new Error(r.reason);
      state = r.state;
      actions.push({ actor: p.id, action, now });
      return true;
    });
    if (!moved) {
      const deadline = game.deadline(state);
      if (deadline === null) throw new Error('stuck');
      now = deadline;
      const r = game.onTimeout(state, now);
      if (!r.ok) throw new Error(r.reason);
      state = r.state;
      actions.push({ timeout: true, now });
    }
  }
  return {
    game: game.id,
    options: options as Record<string, unknown>,
    players,
    startedAt,
    seedCommit: state.seedCommit,
    seed,
    actions,
    result: game.result(state),
  };
}
