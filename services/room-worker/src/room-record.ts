/** The room's game record and its `RoomFinished` message, from the snapshot and the steps. */
import type { AnyGame, GameRecord, RecordedStep } from '@joke/engine';
import { PROTOCOL_VERSION, type bus as wire } from '@joke/protocol';
import type { RoomData, StepRec } from './room-types.ts';

export function buildRecord(game: AnyGame, data: RoomData, steps: readonly StepRec[]): GameRecord {
  const actions: RecordedStep[] = steps.map((s) =>
    s.t ? { timeout: true, now: s.n } : { actor: s.a!, action: s.x, now: s.n },
  );
  return {
    game: data.game,
    options: data.options,
    players: data.seats.map((s) => ({ id: s.id, name: s.name })),
    startedAt: data.startedAt,
    rulesVersion: data.state.rulesVersion,
    seedCommit: data.state.seedCommit,
    seed: data.state.seed,
    actions,
    result: game.result(data.state),
  };
}

export function finishedMessage(game: AnyGame, data: RoomData, steps: readonly StepRec[]): wire.RoomFinished {
  const record = buildRecord(game, data, steps);
  const result = record.result;
  if (!result) throw new Error(`room ${data.roomId}: finished without a result`);
  return {
    v: PROTOCOL_VERSION,
    roomId: data.roomId,
    game: data.game,
    mode: data.mode,
    players: data.seats.map((s) => ({ id: s.id, name: s.name, bot: s.bot })),
    // Spread into plain objects: the engine's interfaces carry no index signature, the wire's records do.
    record: { ...record },
    result: { ...result },
    finishedAt: data.finishedAt!,
  };
}
