/**
 * A table source over a replayed record (timeline.ts): the live table scenes draw the 복기 exactly as they
 * draw a game, one frame per position. `show(i)` emits the state after step i as seen from the chosen
 * seat (`viewAs`), with that step's events when moving one step forward (so the table animates it) and
 * none on a jump or a step back. Nothing can be played: `act` refuses in Korean. The clock is the
 * record's: serverNow() is the time of the step shown, so turn timers read as they did then.
 */
import type { GameAction, GameViewBase, GameRecord } from '@joke/engine/client';
import type { ActResult } from '../net/gateway.ts';
import type { ResultOf, TableHandlers, TableSource } from '../table-kit/source.ts';
import type { Timeline } from './timeline.ts';

export class ReplaySource implements TableSource<GameAction, GameViewBase> {
  readonly spectate = false;
  private handlers: TableHandlers<GameViewBase> | null = null;
  private at = 0;
  private seat = 0;

  constructor(
    readonly roomId: string,
    private readonly record: GameRecord,
    private readonly t: Timeline,
    private readonly bots: ReadonlySet<string>,
  ) {}

  get position(): number {
    return this.at;
  }

  get last(): number {
    return this.t.states.length - 1;
  }

  get viewer(): number {
    return this.seat;
  }

  start(h: TableHandlers<GameViewBase>): void {
    this.handlers = h;
    h.connection('online');
    this.show(this.at, false);
  }

  /** Shows position `i` (clamped); `animate`: a single step forward plays that step's events. */
  show(i: number, animate = true): void {
    const prev = this.at;
    this.at = Math.max(0, Math.min(this.last, i));
    const h = this.handlers;
    if (!h || this.last < 0) return;
    const g = this.t.game;
    const state = this.t.states[this.at];
    const viewer = this.record.players[this.seat]?.id ?? null;
    const forward = animate && this.at === prev + 1;
    const events = forward ? this.t.events[this.at] : [];
    h.frame({
      seq: state.seq,
      role: 'player',
      view: g.view(state, viewer) as GameViewBase,
      events: events.map((e) => g.eventView(e, viewer)).filter((e) => e !== null),
      presence: this.record.players.map((p) => ({
        id: p.id,
        connected: true,
        away: false,
        bot: this.bots.has(p.id),
      })),
      result: g.result(state) as ResultOf<GameViewBase> | null,
    });
  }

  /** Looks at the table from another seat (their hand face up at the bottom). */
  viewAs(seat: number): void {
    this.seat = seat;
    this.show(this.at, false);
  }

  async act(): Promise<ActResult> {
    return { ok: false, reason: '복기 중에는 카드를 낼 수 없어요' };
  }

  stop(): void {
    this.handlers = null;
  }

  serverNow(): number {
    const step = this.record.actions[this.at - 1];
    return step ? step.now : this.record.startedAt;
  }

  frames(): string[] {
    return [];
  }
}
