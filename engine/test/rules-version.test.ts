/**
 * Versioned rules (docs/engine.md "Rules versions"): a record and a snapshot
 * written under version N still verify / restore after a rule change to N+1,
 * and keep playing by the rules of N. Version 1 is everything written before
 * versions existed; version 2 has the fixes of issue 12; poker's version 3 the
 * clarifications 16 and 17 of issue 40.
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../src/core/rng.ts';
import { games } from '../src/games/index.ts';
import { oneCard } from '../src/games/one-card/index.ts';
import { poker } from '../src/games/poker/index.ts';
import type { OneCardState } from '../src/games/one-card/types.ts';
import type { PokerState } from '../src/games/poker/types.ts';
import { verifyRecord, type GameRecord, type RecordedStep } from '../src/record/record.ts';
import { simPlayers } from '../src/sim/runner.ts';
import { act, order, setStacks, start } from './poker/helpers.ts';

const T0 = 1_800_000_000_000;

/** A snapshot as the room worker stores it: JSON of the state. */
const snapshot = (s: object): Record<string, unknown> => JSON.parse(JSON.stringify(s));
/** A snapshot as it was written before rules versions existed. */
function unversioned(s: object): Record<string, unknown> {
  const raw = snapshot(s);
  delete raw.rulesVersion;
  const hand = raw.hand as Record<string, unknown> | null | undefined;
  if (hand) delete hand.potResults;
  return raw;
}

describe('rules versions and snapshot restore', () => {
  for (const [id, game] of Object.entries(games)) {
    it(`${id}: a current snapshot restores as is; an unversioned one migrates to version 1; newer, malformed or foreign ones are refused`, () => {
      const s = game.setup({ seed: `v-${id}`, players: simPlayers(3), options: game.optionsSchema.parse({}), now: T0 });
      expect(s.rulesVersion).toBe(game.rulesVersion);
      expect(game.view(s, null).rulesVersion).toBe(game.rulesVersion);
      const same = game.restoreState!(snapshot(s));
      expect(same).toMatchObject({ ok: true, rulesVersion: game.rulesVersion, migrated: false });
      if (same.ok) expect(same.state).toEqual(snapshot(s));
      const old = game.restoreState!(unversioned(s));
      expect(old).toMatchObject({ ok: true, rulesVersion: 1, migrated: true });
      const newer = game.restoreState!({ ...snapshot(s), rulesVersion: game.rulesVersion! + 1 });
      expect(newer).toMatchObject({ ok: false, code: 'newerRules' });
      expect(game.restoreState!({ ...snapshot(s), seq: 'x' })).toMatchObject({ ok: false, code: 'malformed' });
      expect(game.restoreState!({ ...snapshot(s), rng: [1, 2] })).toMatchObject({ ok: false, code: 'malformed' });
      expect(game.restoreState!({ ...snapshot(s), game: 'other' })).toMatchObject({ ok: false, code: 'wrongGame' });
      expect(game.restoreState!('{"game":1}')).toMatchObject({ ok: false, code: 'malformed' });
    });
  }

  it('a restore copies nothing it does not change and never writes to the snapshot it is given', () => {
    for (const [id, game] of Object.entries(games)) {
      const s = game.setup({ seed: `c-${id}`, players: simPlayers(3), options: game.optionsSchema.parse({}), now: T0 });
      const current = snapshot(s);
      const same = game.restoreState!(current);
      // The decoded snapshot is handed over as it is: no clone per restore.
      expect(same.ok && same.state).toBe(current);
      const old = unversioned(s);
      const before = JSON.stringify(old);
      const migrated = game.restoreState!(old);
      expect(migrated).toMatchObject({ ok: true, rulesVersion: 1, migrated: true });
      expect(JSON.stringify(old)).toBe(before);
      if (!migrated.ok) continue;
      expect(migrated.state).not.toBe(old);
      expect((migrated.state as { rulesVersion: number }).rulesVersion).toBe(1);
      // A newer snapshot is refused whatever it was handed as.
      expect(game.restoreState!({ ...current, rulesVersion: game.rulesVersion! + 1 })).toMatchObject({
        ok: false,
        code: 'newerRules',
      });
    }
  });

  it('포커: a hand without its pot record is filled in on a copy; the snapshot given keeps its own hand', () => {
    const s = start({ mode: 'holdem' }, 4);
    const raw = snapshot(s);
    const hand = raw.hand as Record<string, unknown>;
    delete hand.potResults;
    const r = poker.restoreState!(raw);
    expect(r).toMatchObject({ ok: true, rulesVersion: poker.rulesVersion, migrated: true });
    if (!r.ok) return;
    const restored = r.state as PokerState;
    expect(restored.hand!.potResults).toBeNull();
    expect('potResults' in hand).toBe(false);
    // What the migration did not touch is shared, not copied.
    expect(restored.seats).toBe(raw.seats);
  });

  it('포커: a version-1 snapshot restored after the §5.2 fix keeps the old rule (the lone matched big blind still gets a turn); a version-2 game does not', () => {
    let s = start({ mode: 'holdem' }, 4);
    const [SB, BB, U, D] = order(s);
    s = setStacks(s, { [U]: 8, [D]: 10, [SB]: 3 }, BB);
    const restored = poker.restoreState!(unversioned(s));
    if (!restored.ok) throw new Error(restored.reason);
    let old = restored.state as PokerState;
    for (const id of [U, D, SB]) {
      s = act(s, id, { type: 'nl.allIn' });
      old = act(old, id, { type: 'nl.allIn' });
    }
    expect(s.hand!.phase).toBe('handEnd');
    expect(old.rulesVersion).toBe(1);
    expect(old.hand!.betting!.toAct).toBe(BB);
  });

  it('포커: a version-2 record in which a player left mid-hand (folded on the spot) still verifies after clarification 17; replayed under version 3 (the leaver stays in the hand) it would not', () => {
    const record = leaverRecord();
    expect(record.rulesVersion).toBe(2);
    expect(verifyRecord(poker, record)).toMatchObject({ ok: true, problems: [] });
    const underNewRules = verifyRecord(poker, { ...record, rulesVersion: 3 });
    expect(underNewRules.ok).toBe(false);
    expect(underNewRules.problems).toContain('replayed result differs from the recorded one');
    expect(verifyRecord(poker, { ...record, rulesVersion: 4 }).ok).toBe(false);
  });

  it('원카드: a record played under version 1 (multiPlay after a draw) still verifies after the §8.2 fix; replayed under version 2 it would not', () => {
    const record = oldMultiPlayRecord();
    expect(record.rulesVersion).toBe(1);
    expect(verifyRecord(oneCard, record)).toMatchObject({ ok: true, problems: [] });
    // Records written before versions existed carry no version: they are version 1.
    const { rulesVersion: _v, ...unversionedRecord } = record;
    expect(verifyRecord(oneCard, unversionedRecord).ok).toBe(true);
    const underNewRules = verifyRecord(oneCard, { ...record, rulesVersion: 2 });
    expect(underNewRules.ok).toBe(false);
    expect(underNewRules.problems.join()).toContain(
      'rejected on replay: 뽑은 뒤에는 방금 뽑은 카드 1장만 낼 수 있어요',
    );
    expect(verifyRecord(oneCard, { ...record, rulesVersion: 3 }).ok).toBe(false);
  });
});

/**
 * A version-2 five-card draw game: in hand 1 everyone checks, the third player leaves during the draw, the
 * others pass and check to the showdown; the later hands are folded at once. Seeds are tried until the leaver's hand would have won it, so that
 * the version-3 replay (the leaver stays live, clarification 17) ends differently.
 */
function leaverRecord(): GameRecord {
  const options = poker.optionsSchema.parse({ mode: 'fiveDraw', betting: 'noLimit', handLimit: 10 });
  for (let g = 0; g < 40; g++) {
    const seed = `leaver-${g}`;
    const players = simPlayers(3);
    let s: PokerState = poker.setup({ seed, players, options, now: T0, rulesVersion: 2 });
    const [A, B, C] = order(s);
    const actions: RecordedStep[] = [];
    const step = (actor: string, action: Record<string, unknown>) => {
      const now = T0 + 1000 * (actions.length + 1);
      s = act(s, actor, action, now);
      actions.push({ actor, action, now });
    };
    for (const id of [A, B, C]) step(id, { type: 'nl.check' });
    step(C, { type: 'leave' });
    step(A, { type: 'draw', cardIds: [] });
    step(B, { type: 'draw', cardIds: [] });
    step(A, { type: 'nl.check' });
    step(B, { type: 'nl.check' });
    // The other nine hands (the leaver is folded after the antes): whoever acts first folds.
    while (s.phase === 'playing') {
      const h = s.hand!;
      if (h.phase === 'handEnd') for (const id of [A, B]) step(id, { type: 'ready' });
      else step(h.betting!.toAct!, { type: 'nl.fold' });
    }
    const record: GameRecord = {
      game: 'poker',
      options: JSON.parse(JSON.stringify(options)),
      players,
      startedAt: T0,
      rulesVersion: s.rulesVersion,
      seedCommit: s.seedCommit,
      seed,
      actions,
      result: poker.result(s),
    };
    if (record.result && !verifyRecord(poker, { ...record, rulesVersion: 3 }).ok) return record;
  }
  throw new Error('no seed gave the leaver the best hand');
}

/** Plays version-1 원카드 games until one contains the old afterDraw multi-play, and returns its record. */
function oldMultiPlayRecord(): GameRecord {
  const options = oneCard.optionsSchema.parse({ multiPlay: true, playAfterDraw: true });
  for (let g = 0; g < 300; g++) {
    const seed = `old-${g}`;
    const players = simPlayers(2);
    let s: OneCardState = oneCard.setup({ seed, players, options, now: T0, rulesVersion: 1 });
    const rng = Rng.fromSeed(seed);
    const actions: RecordedStep[] = [];
    let now = T0;
    let usedOldRule = false;
    for (let step = 0; step < 2000 && oneCard.result(s) === null; step++) {
      now += 100;
      let done = false;
      for (const p of players) {
        const v = oneCard.view(s, p.id);
        let a: unknown = null;
        if (v.phase.kind === 'afterDraw' && v.phase.drawnCardId && v.legalCardIds.includes(v.phase.drawnCardId)) {
          const drawn = v.hand!.find((c) => c.id === v.phase.drawnCardId)!;
          const mate = v.hand!.find(
            (c) => c !== drawn && c.kind === 'std' && drawn.kind === 'std' && c.rank === drawn.rank,
          );
          if (mate && drawn.kind === 'std' && drawn.rank !== 7 && v.hand!.length > 2) {
            a = { type: 'play', cardIds: [drawn.id, mate.id] };
            usedOldRule = true;
          }
        }
        a ??= oneCard.bot(v, rng);
        if (a === null) continue;
        const r = oneCard.apply(s, p.id, a, now);
        if (!r.ok) throw new Error(r.reason);
        s = r.state;
        actions.push({ actor: p.id, action: a, now });
        done = true;
        break;
      }
      if (!done) {
        now = Math.max(now, oneCard.deadline(s)!);
        const r = oneCard.onTimeout(s, now);
        if (!r.ok) throw new Error(r.reason);
        s = r.state;
        actions.push({ timeout: true, now });
      }
    }
    if (!usedOldRule || oneCard.result(s) === null) continue;
    return {
      game: 'one-card',
      options: JSON.parse(JSON.stringify(options)),
      players,
      startedAt: T0,
      rulesVersion: s.rulesVersion,
      seedCommit: s.seedCommit,
      seed,
      actions,
      result: oneCard.result(s),
    };
  }
  throw new Error('no game used the old rule');
}
