/**
 * §8.6: a player disconnected for LEAVE_AFTER_DISCONNECT_MS has their leave
 * reserved by the substitute (`reserveLeave` with `auto: true`), decided by the
 * engine from the `disconnectedSince` the runtime passes in.
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/core/index.ts';
import type { RecordedStep } from '../../src/record/record.ts';
import { hula } from '../../src/games/hula/index.ts';
import { LEAVE_AFTER_DISCONNECT_MS, SUBSTITUTE_DELAY_MS } from '../../src/games/hula/timers.ts';
import type { HulaState } from '../../src/games/hula/types.ts';
import { expectReplays, options, players, T0 } from './helpers.ts';

const sub = hula.substitute!;
const AUTO_LEAVE = { type: 'reserveLeave', on: true, auto: true };

function fresh(n = 3): HulaState {
  return hula.setup({ seed: 'leave-seed', players: players(n), options: options({ mode: 'monster' }), now: T0 });
}

/** Who is to draw first, and a seated player who is not. */
function seats(s: HulaState): { turn: string; idle: string } {
  if (s.phase.kind !== 'draw') throw new Error(`expected a draw phase, got ${s.phase.kind}`);
  const turn = s.seats[s.phase.seat].id;
  return { turn, idle: s.seats.find((x) => x.id !== turn)!.id };
}

function applyOk(s: HulaState, actor: string, action: unknown, now: number) {
  const r = hula.apply(s, actor, action, now);
  if (!r.ok) throw new Error(`refused: ${r.reason} (${JSON.stringify(action)})`);
  return r;
}

describe('§8.6 automatic leave after 60 s away', () => {
  it('§8.6 — without disconnectedSince the substitute behaves exactly as before (backwards compatible)', () => {
    const s = fresh();
    const { turn, idle } = seats(s);
    expect(sub.due(s, turn)).toBe(s.turnStartedAt + SUBSTITUTE_DELAY_MS);
    expect(sub.due(s, turn, null)).toBe(sub.due(s, turn));
    expect(sub.due(s, turn, undefined)).toBe(sub.due(s, turn));
    expect(sub.due(s, idle)).toBeNull();
    expect(sub.due(s, idle, null)).toBeNull();
    expect(sub.action(s, idle, T0 + 10 * LEAVE_AFTER_DISCONNECT_MS)).toBeNull();
    expect(sub.action(s, turn, T0 + 10 * LEAVE_AFTER_DISCONNECT_MS)).toMatchObject({ type: 'draw', substitute: true });
  });

  it('§8.6 — a player away 60 s is reserved to leave automatically, once, and it shows as a disconnected leave', () => {
    const s = fresh();
    const { idle } = seats(s);
    const since = T0 + 1_234;
    const due = since + LEAVE_AFTER_DISCONNECT_MS;
    expect(LEAVE_AFTER_DISCONNECT_MS).toBe(60_000);
    expect(sub.due(s, idle, since)).toBe(due);
    expect(sub.action(s, idle, due - 1, since)).toBeNull();
    const a = sub.action(s, idle, due, since);
    expect(a).toEqual(AUTO_LEAVE);
    const r = applyOk(s, idle, a, due);
    const x = r.state.seats.find((p) => p.id === idle)!;
    expect(x.leave).toBe('disconnected');
    expect(r.events).toEqual([{ type: 'leaveReserved', player: idle, reason: 'disconnected' }]);
    expect(hula.view(r.state, null).seats.find((p) => p.id === idle)).toMatchObject({ leaveReserved: true });
    // Not again: nothing more is due for them, however long they stay away.
    expect(sub.due(r.state, idle, since)).toBeNull();
    expect(sub.action(r.state, idle, due + 10 * LEAVE_AFTER_DISCONNECT_MS, since)).toBeNull();
  });

  it('§8.6 — on their own turn the earlier of the move and the leave is due; the leave comes first once both are', () => {
    const s = fresh();
    const { turn } = seats(s);
    const move = s.turnStartedAt + SUBSTITUTE_DELAY_MS;
    // Disconnected long ago: the reservation is due before the move.
    const longAgo = s.turnStartedAt - LEAVE_AFTER_DISCONNECT_MS - 1_000;
    expect(sub.due(s, turn, longAgo)).toBe(longAgo + LEAVE_AFTER_DISCONNECT_MS);
    const a = sub.action(s, turn, move, longAgo);
    expect(a).toEqual(AUTO_LEAVE);
    const r = applyOk(s, turn, a, move);
    // Reserving does not end the turn, so the move is due next, at its usual time.
    expect(sub.due(r.state, turn, longAgo)).toBe(move);
    expect(sub.action(r.state, turn, move, longAgo)).toEqual({ type: 'draw', from: 'stock', substitute: true });
    // Just disconnected: the move is due first and is not delayed by the pending reservation.
    const justNow = s.turnStartedAt;
    expect(sub.due(s, turn, justNow)).toBe(move);
    expect(sub.action(s, turn, move, justNow)).toEqual({ type: 'draw', from: 'stock', substitute: true });
  });

  it('§8.6 — a leave already reserved (by request or by timeouts) is not replaced by the automatic one', () => {
    const s = fresh();
    const { idle } = seats(s);
    const requested = applyOk(s, idle, { type: 'reserveLeave', on: true }, T0 + 10).state;
    expect(sub.due(requested, idle, T0)).toBeNull();
    expect(sub.action(requested, idle, T0 + 2 * LEAVE_AFTER_DISCONNECT_MS, T0)).toBeNull();
    const seatsT = requested.seats.map((x) => (x.id === idle ? { ...x, leave: 'timeouts' as const } : x));
    const byTimeouts: HulaState = { ...requested, seats: seatsT };
    expect(sub.due(byTimeouts, idle, T0)).toBeNull();
    expect(sub.action(byTimeouts, idle, T0 + 2 * LEAVE_AFTER_DISCONNECT_MS, T0)).toBeNull();
  });

  it('§8.6 — their own action after coming back cancels the automatic reservation; a new absence reserves again', () => {
    const s = fresh();
    const { turn } = seats(s);
    const since = s.turnStartedAt - LEAVE_AFTER_DISCONNECT_MS;
    const reserved = applyOk(s, turn, sub.action(s, turn, s.turnStartedAt, since), s.turnStartedAt).state;
    expect(reserved.seats.find((x) => x.id === turn)!.leave).toBe('disconnected');
    const back = applyOk(reserved, turn, { type: 'draw', from: 'stock' }, s.turnStartedAt + 100);
    expect(back.events).toContainEqual({ type: 'leaveCancelled', player: turn });
    expect(back.state.seats.find((x) => x.id === turn)!.leave).toBeNull();
    const again = s.turnStartedAt + 200;
    expect(sub.due(back.state, turn, again)).toBe(
      Math.min(again + LEAVE_AFTER_DISCONNECT_MS, back.state.turnStartedAt + SUBSTITUTE_DELAY_MS),
    );
    expect(sub.action(back.state, turn, again + LEAVE_AFTER_DISCONNECT_MS, again)).toEqual(AUTO_LEAVE);
  });

  it('§8.6 — nothing for a player who has left, an unknown player, or a finished game', () => {
    const s = fresh();
    const { idle } = seats(s);
    const gone: HulaState = {
      ...s,
      seats: s.seats.map((x) => (x.id === idle ? { ...x, status: 'left' as const } : x)),
    };
    expect(sub.due(gone, idle, T0)).toBeNull();
    expect(sub.action(gone, idle, T0 + 2 * LEAVE_AFTER_DISCONNECT_MS, T0)).toBeNull();
    expect(sub.due(s, 'nobody', T0)).toBeNull();
    expect(sub.action(s, 'nobody', T0 + 2 * LEAVE_AFTER_DISCONNECT_MS, T0)).toBeNull();
    const over: HulaState = { ...s, phase: { kind: 'finished' } };
    expect(sub.due(over, idle, T0)).toBeNull();
    expect(sub.action(over, idle, T0 + 2 * LEAVE_AFTER_DISCONNECT_MS, T0)).toBeNull();
  });

  it('§8.6 — a player disconnected from the start is reserved after 60 s, stands up at the next deal, and the record replays', () => {
    const rng = Rng.fromSeed('leave-run');
    const seed = 'leave-run-seed';
    const opts = options({ mode: 'monster' });
    let s: HulaState = hula.setup({ seed, players: players(3), options: opts, now: T0 });
    let now = T0;
    const actions: RecordedStep[] = [];
    const auto: number[] = [];
    for (let i = 0; i < 20_000 && !hula.result(s) && s.seats[0].status !== 'left'; i++) {
      const d = hula.deadline(s);
      const due = sub.due(s, 'p1', T0);
      if (due !== null && (d === null || due <= d)) {
        now = Math.max(now, due);
        const a = sub.action(s, 'p1', now, T0);
        expect(a).not.toBeNull();
        if (a!.type === 'reserveLeave') auto.push(now);
        const r = applyOk(s, 'p1', a, now);
        s = r.state;
        actions.push({ actor: 'p1', action: a, now });
        continue;
      }
      const moves = ['p2', 'p3'].map((p) => ({ p, a: hula.bot(hula.view(s, p), rng) })).filter((m) => m.a !== null);
      if (moves.length === 0) {
        now = Math.max(now, d!);
        const r = hula.onTimeout(s, now);
        if (!r.ok) throw new Error(r.reason);
        s = r.state;
        actions.push({ timeout: true, now });
        continue;
      }
      const m = moves[rng.int(moves.length)];
      now += 50 + rng.int(1500);
      if (d !== null && now >= d) now = d - 1;
      s = applyOk(s, m.p, m.a, now).state;
      actions.push({ actor: m.p, action: m.a, now });
    }
    expect(auto).toEqual([T0 + LEAVE_AFTER_DISCONNECT_MS]);
    expect(s.seats[0].status).toBe('left');
    expect(sub.due(s, 'p1', T0)).toBeNull();
    expectReplays(s, opts, 3, seed, actions);
  });
});
