/**
 * Versioned rules. Every state carries the `rulesVersion` it was set up
 * under and every reducer decides rule by rule on that version, so a rule
 * fix rolled out mid-game does not run new rules on an old game, and an old
 * record still replays exactly (`verifyRecord` sets up with the record's
 * version). A snapshot is checked before it is trusted: `restoreState`
 * validates its shape with zod, refuses one written under rules newer than
 * this engine knows, and migrates an older shape (missing fields) while
 * keeping its rules version. It copies nothing it does not change: the state
 * it returns is `raw` itself when nothing was missing (else a new object that
 * shares what it did not fill in), so the caller hands over what it decoded
 * and keeps no other reference to it; `raw` is never written to.
 *
 * Version 1 is every state written before versions existed (no field).
 */
import { z as zod, type z } from 'zod';
import type { GameId, RestoreResult } from './types.ts';

/** States written before `rulesVersion` existed count as version 1. */
export const UNVERSIONED = 1;

export function rulesVersionOf(state: { rulesVersion?: number }): number {
  return state.rulesVersion ?? UNVERSIONED;
}

/** Checks the version a setup asks for: 1 … current. */
export function setupVersion(requested: number | undefined, current: number): number {
  const v = requested ?? current;
  if (!Number.isInteger(v) || v < 1 || v > current) throw new Error(`unknown rulesVersion ${v} (1…${current})`);
  return v;
}

export interface RestoreSpec {
  game: GameId;
  current: number;
  /** The shape of a state at the current version (after migration). */
  schema: z.ZodType;
  /**
   * Fills what an older snapshot lacks. `raw` is the caller's and must not be written to: return a new
   * state (copying only the objects on the path to what is filled in), or nothing when nothing is missing.
   * Copy-on-write instead of a clone of every snapshot: most restores are of current shapes, and a
   * failover restores many rooms back to back on one CPU.
   */
  migrate(raw: Readonly<Record<string, unknown>>, from: number): Record<string, unknown> | void;
}

/** The `restoreState` of a game, from its version, schema and migration. */
export function makeRestore<S>(spec: RestoreSpec): (raw: unknown) => RestoreResult<S> {
  return (raw) => {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
      return { ok: false, code: 'malformed', reason: '스냅샷 상태가 객체가 아니에요' };
    const obj = raw as Record<string, unknown>;
    if (obj.game !== spec.game)
      return { ok: false, code: 'wrongGame', reason: `다른 게임의 스냅샷이에요 (${String(obj.game)})` };
    const version = obj.rulesVersion === undefined ? UNVERSIONED : obj.rulesVersion;
    if (typeof version !== 'number' || !Number.isInteger(version) || version < 1)
      return { ok: false, code: 'malformed', reason: '스냅샷의 규칙 버전이 잘못됐어요' };
    if (version > spec.current)
      return {
        ok: false,
        code: 'newerRules',
        reason: `이 서버보다 새 규칙(${version}판, 서버는 ${spec.current}판)으로 만든 스냅샷이에요`,
      };
    const filled = spec.migrate(obj, version) ?? null;
    let state = filled ?? obj;
    // Unversioned: the version is written into the state (a new top-level object; `raw` stays as it was).
    if (obj.rulesVersion === undefined) state = { ...state, rulesVersion: version };
    const parsed = spec.schema.safeParse(state);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return {
        ok: false,
        code: 'malformed',
        reason: `스냅샷 상태가 잘못됐어요: ${issue.path.join('.')} ${issue.message}`,
      };
    }
    // The validated input, not zod's copy of it: that copy puts known keys first, and the state's own key
    // order is what the next snapshot writes.
    return { ok: true, state: state as S, rulesVersion: version, migrated: state !== obj };
  };
}

/** Fields every game state has (GameStateBase), as a zod shape to extend per game. */
export function baseStateShape<G extends GameId>(game: G) {
  return {
    game: zod.literal(game),
    rulesVersion: zod.number().int().min(1),
    seq: zod.number().int().min(0),
    seedCommit: zod.string().regex(/^[0-9a-f]{64}$/),
    seed: zod.string().min(1),
    rng: zod.array(zod.number().int()).length(4),
    players: zod.array(zod.looseObject({ id: zod.string().min(1), name: zod.string() })).min(1),
  };
}
