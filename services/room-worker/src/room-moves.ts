/**
 * The items that change the game: a player's command, an expired deadline, a
 * bot's move and the AI substitute's move for a disconnected seat. Each is
 * judged against the room's current state and, if the game accepts it, handed
 * to the room as a transition (`accept`), which records and numbers it.
 *
 * Failure modes, each answered here: a retried command gets its remembered
 * reply (never applied twice); a bot seat, a finished game, a move chosen on
 * an older view than the current one (`stale`) or a runtime-only field is
 * refused with its code; game code that throws becomes `internal`
 * (guard in game-calls.ts), a refusal by the rules `illegal`; a timer that
 * fires early (someone acted first, the deadline moved on) does nothing.
 */
import { COMMON_REASONS, type AnyGame, type GameEvent, type GameStateBase, type Rng } from '@joke/engine';
import { refuse, type RefusalCode } from '@joke/protocol';
import { dueSeats, hasRuntimeOnlyField, type Safely } from './game-calls.ts';
import { okReply, type ActionMemory } from './idempotency.ts';
import type { RoomTimers } from './room-timers.ts';
import type { Item, Reply, RoomData, RoomHost, StepRec, Transition } from './room-types.ts';

/** Timers run on a monotonic clock and may fire a millisecond before the wall clock (Clock.now) reaches the deadline. */
const EARLY_TIMER_SLACK_MS = 20;

/** What one batch produced: replies held back until its write, transitions to publish after it. */
export interface Batch {
  replies: Reply[];
  transitions: Transition[];
  /** Seats or viewers changed: the snapshot re-encodes the room's metadata. */
  metaChanged: boolean;
  /** The deadline or the substitutes must be armed again even without a transition. */
  rearm: boolean;
  /** People whose player entry the batch removed by a leave or a lapsed grace, and why (departures.ts). */
  removed?: Map<string, 'left' | 'graceLapsed'>;
  /** Viewer keys whose join the batch answers: the reply carries the whole view, fixed members included. */
  joined?: string[];
}

/** What the moves read from and hand back to their room. */
export interface MovingRoom {
  readonly id: string;
  readonly game: AnyGame;
  readonly data: RoomData;
  readonly seq: number;
  /** The seq of the last accepted state (room.ts): what a move's view seq is compared with. */
  readonly stateSeq: number;
  readonly finished: boolean;
  isConnected(userId: string): boolean;
  accept(out: Transition[], state: GameStateBase, events: GameEvent[], step: StepRec): void;
}

export class RoomMoves {
  constructor(
    private readonly room: MovingRoom,
    private readonly host: RoomHost,
    private readonly safely: Safely,
    private readonly botRng: Rng,
    private readonly replies: ActionMemory,
    private readonly timers: RoomTimers,
  ) {}

  command(item: Extract<Item, { kind: 'cmd' }>, out: Batch): void {
    const { room, host } = this;
    const { metrics } = host;
    const { cmd } = item;
    const known = this.replies.get(cmd.userId, cmd.actionId);
    if (known !== undefined) {
      metrics.duplicates.inc();
      out.replies.push({ send: () => item.respond(known) });
      return;
    }
    const seat = room.data.seats.find((s) => s.id === cmd.userId);
    let code: RefusalCode | null = null;
    let reason: string | undefined;
    if (seat?.bot) code = 'botSeat';
    else if (room.finished) code = 'finished';
    // Chosen on an older view than the current one: someone moved first. Refused as the race it is,
    // without asking the game (which might even accept it, against a state its sender never saw) — but
    // for the game's view-free actions (answers several players give at once, which the game orders).
    else if (cmd.viewSeq !== undefined && cmd.viewSeq < room.stateSeq && !viewFree(room.game, cmd.action))
      code = 'stale';
    else if (hasRuntimeOnlyField(room.game, cmd.action)) [code, reason] = ['malformed', COMMON_REASONS.malformed];
    if (code === null) {
      const now = this.host.clock.now();
      const r = this.safely(() => room.game.apply(room.data.state, cmd.userId, cmd.action, now));
      if (r.ok) {
        room.accept(out.transitions, r.state, r.events, {
          s: 0,
          n: now,
          a: cmd.userId,
          x: cmd.action,
          i: cmd.actionId,
        });
        if (seat && (seat.away || seat.timeouts > 0)) {
          seat.away = false;
          seat.timeouts = 0;
          out.metaChanged = true;
        }
        const seq = room.seq;
        const data = okReply(seq);
        this.replies.acknowledged(cmd.userId, cmd.actionId, seq);
        const reply: Reply = { send: () => item.respond(data), at: item.at };
        if (cmd.framesInReply)
          reply.withFrames = {
            gatewayId: cmd.gatewayId,
            send: (delivery) => item.respond({ ok: true, seq, delivery }),
          };
        out.replies.push(reply);
        metrics.transitions.inc({ kind: 'action' });
        return;
      }
      // A view-free answer the game refused, chosen on an older view: someone answered first (another
      // player's 외치기 or 땡큐 claim closed the window) — the race it is, with the game's own reason.
      const lost = cmd.viewSeq !== undefined && cmd.viewSeq < room.stateSeq;
      code = 'crashed' in r ? 'internal' : lost ? 'stale' : 'illegal';
      reason = r.reason;
    }
    metrics.rejected.inc();
    const data = refuse(code, reason);
    this.replies.refused(cmd.userId, cmd.actionId, data);
    out.replies.push({ send: () => item.respond(data), at: item.at });
  }

  timeout(out: Batch): void {
    const { room, host } = this;
    if (room.finished) return;
    out.rearm = true;
    const deadline = room.game.deadline(room.data.state);
    const now = this.host.clock.now();
    // Well before the deadline means someone acted first and the deadline moved on.
    if (deadline === null || now < deadline - EARLY_TIMER_SLACK_MS) return;
    const due = dueSeats(room.game, room.data.state, room.data.seats);
    const at = Math.max(now, deadline);
    const r = this.safely(() => room.game.onTimeout(room.data.state, at));
    if (!r.ok) {
      host.log.debug({ roomId: room.id, reason: r.reason }, 'timeout refused');
      return;
    }
    room.accept(out.transitions, r.state, r.events, { s: 0, n: at, t: 1 });
    for (const s of due) {
      s.timeouts++;
      if (s.timeouts >= host.cfg.awayAfterTimeouts) s.away = true;
    }
    if (due.length > 0) out.metaChanged = true;
    host.metrics.transitions.inc({ kind: 'timeout' });
  }

  /** Bots choose from their own view only; their randomness is not part of the game (their moves are recorded). */
  bot(seatId: string, out: Batch): void {
    const { room, host } = this;
    this.timers.botFired(seatId);
    if (room.finished) return;
    const view = room.game.view(room.data.state, seatId);
    const action = this.safely(() => ({ ok: true as const, a: room.game.bot(view, this.botRng) }));
    if (!action.ok || action.a === null) return;
    const now = this.host.clock.now();
    const r = this.safely(() => room.game.apply(room.data.state, seatId, action.a, now));
    if (!r.ok) {
      host.log.warn({ roomId: room.id, seat: seatId, reason: r.reason }, 'bot chose a refused action');
      return;
    }
    room.accept(out.transitions, r.state, r.events, { s: 0, n: now, a: seatId, x: action.a });
    host.metrics.transitions.inc({ kind: 'bot' });
  }

  /**
   * One move of the AI substitute for a disconnected seat, applied like any
   * action and recorded under that seat (so the record replays). Nothing if the
   * player came back, nothing is due yet, or the game has no move for them.
   */
  substitute(seatId: string, out: Batch): void {
    out.rearm = true;
    if (this.substituteMove(seatId, out.transitions)) this.host.metrics.transitions.inc({ kind: 'substitute' });
  }

  private substituteMove(seatId: string, transitions: Transition[]): boolean {
    const { room } = this;
    const sub = room.game.substitute;
    if (!sub || room.finished || room.isConnected(seatId)) return false;
    const now = this.host.clock.now();
    const since = room.data.seats.find((s) => s.id === seatId)?.disconnectedSince ?? null;
    const due = this.safely(() => ({ ok: true as const, at: sub.due(room.data.state, seatId, since) }));
    if (!due.ok || due.at === null) return false;
    if (now < due.at - EARLY_TIMER_SLACK_MS) {
      this.timers.forgetFiredSubstitutes(seatId);
      return false;
    }
    const at = Math.max(now, due.at);
    const action = this.safely(() => ({ ok: true as const, a: sub.action(room.data.state, seatId, at, since) }));
    if (!action.ok || action.a === null) return false;
    const r = this.safely(() => room.game.apply(room.data.state, seatId, action.a, at));
    if (!r.ok) {
      this.host.log.warn({ roomId: room.id, seat: seatId, reason: r.reason }, 'substitute move refused');
      return false;
    }
    room.accept(transitions, r.state, r.events, { s: 0, n: at, a: seatId, x: action.a });
    return true;
  }
}

/** The action's type is one the game judges on the current state whatever view it was chosen on. */
function viewFree(game: AnyGame, action: unknown): boolean {
  const free = game.viewFreeActions;
  if (!free || typeof action !== 'object' || action === null || !('type' in action)) return false;
  return typeof action.type === 'string' && free.includes(action.type);
}
