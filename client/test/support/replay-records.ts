/**
 * Finished games made by the engine's own bots, as a room worker would record them (every accepted step,
 * timeouts included), for the 복기 tests: unit tests replay them, the browser test stores them in the
 * stack's lobby through its bus as a finished game. Deterministic for a seed.
 */
import { Rng, type GameRecord, type RecordedStep } from '@joke/engine/client';
import { games } from '@joke/engine/client';

export function botRecord(
  id: keyof typeof games,
  rawOptions: Record<string, unknown>,
  players: { id: string; name: string }[],
  seed: string,
): GameRecord {
  const game = games[id];
  const options = game.optionsSchema.parse(rawOptions);
  const startedAt = 1_800_000_000_000;
  let state = game.setup({ seed, players, options, now: startedAt });
  const actions: RecordedStep[] = [];
  let now = startedAt;
  for (let i = 0; i < 20_000 && !game.result(state); i++) {
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
    rulesVersion: game.rulesVersion,
    seedCommit: state.seedCommit,
    seed,
    actions,
    result: game.result(state),
  };
}

/** One card of one action swapped for another card of the deck: the first step that plays a card. */
export function tamper(record: GameRecord): { record: GameRecord; step: number; from: string; to: string } {
  const copy = structuredClone(record);
  for (const [i, s] of copy.actions.entries()) {
    if ('timeout' in s) continue;
    const a = s.action as { cardIds?: string[]; cardId?: string };
    const from = a.cardIds?.[0] ?? a.cardId;
    if (!from) continue;
    // 원카드 ids are c0…c53, 훌라's spell the card: pick a different card of the same kind.
    const to = /^c\d+$/.test(from) ? `c${(Number(from.slice(1)) + 17) % 52}` : from.startsWith('S') ? 'H13' : 'S13';
    if (a.cardIds) a.cardIds[0] = to;
    else a.cardId = to;
    return { record: copy, step: i + 1, from, to };
  }
  throw new Error('no card played');
}
