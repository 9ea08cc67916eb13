/**
 * A table source that runs any engine game inside the page: the engine's
 * pure setup/apply/view, its own bot for the other seats (and for the viewer
 * with `autoplay`), its own timeouts when a deadline passes. The first-game
 * tutorial plays on it (no server, no sign-in); the dev harness renders
 * every table over it for screenshot and story tests.
 */
import {
  Rng,
  type AnyGame,
  type GameAction,
  type GameEvent,
  type GameStateBase,
  type GameViewBase,
  type PlayerInfo,
} from '@joke/engine/client';
import type { ActResult } from '../net/gateway.ts';
import type { ResultOf, TableHandlers, TableSource } from '../table-kit/source.ts';
import { TurnBuzz } from '../sound/turn-buzz.ts';
import { FrameLog } from '../frame-log.ts';

export interface GameLocalConfig {
  game: AnyGame;
  players: number;
  options: Record<string, unknown>;
  seed: string;
  /** Seat index of the viewer; null = spectator. */
  viewer: number | null;
  /** Milliseconds between bot moves; 0 freezes the table. */
  botDelayMs: number;
  /** The viewer's seat is played by the bot too (a table that plays itself to the end). */
  autoplay: boolean;
  /** Rearranges the fresh state into a situation to look at (still a state the engine reads). */
  prepare?: (state: GameStateBase, players: string[]) => void;
  /** Bots stop once this holds (a table frozen at a moment worth looking at). */
  pauseWhen?: (state: GameStateBase) => boolean;
  /**
   * false: no deadline ever expires (a learner takes the time they need). 'others': a deadline expires
   * only while the game waits on someone other than the viewer, so the viewer's own clock never plays for
   * them while the table still moves on (a browser test that takes its time at my seat on a loaded box).
   * Default true.
   */
  timeouts?: boolean | 'others';
  /** Seat names, seat 0 first (long nicknames for fit checks); missing ones are 나, 민수, 지영, … */
  names?: string[];
  /** Moves the bots play for every seat (the viewer's too) before `prepare` and before the table shows. */
  warmup?: number;
  /** Seat indexes shown as disconnected / away (presence is the runtime's, not the engine's). */
  offline?: number[];
  away?: number[];
}

const NAMES = ['나', '민수', '지영', '현우', '서연', '도윤', '하은', '준호', '수아', '태민'];

export class GameLocalSource<A extends GameAction, V extends GameViewBase> implements TableSource<A, V> {
  readonly roomId = 'local';
  readonly spectate: boolean;
  private state: GameStateBase;
  private readonly players: PlayerInfo[];
  private readonly rng: Rng;
  private handlers: TableHandlers<V> | null = null;
  /** §9: the harness and tutorial tables buzz on the viewer's turn like network tables. */
  private readonly buzz = new TurnBuzz();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly sent = new FrameLog();
  private stopped = false;

  constructor(private readonly cfg: GameLocalConfig) {
    this.spectate = cfg.viewer === null;
    this.players = Array.from({ length: cfg.players }, (_, i) => ({
      id: `p${i}`,
      name: cfg.names?.[i] || (NAMES[i] ?? `플레이어${i}`),
    }));
    const options = cfg.game.optionsSchema.parse(cfg.options);
    this.state = cfg.game.setup({ seed: cfg.seed, players: this.players, options, now: Date.now() }) as GameStateBase;
    this.rng = Rng.fromSeed(cfg.seed, 'harness-bots');
    for (let i = 0; i < (cfg.warmup ?? 0); i++) if (!this.step(true)) break;
    if (cfg.prepare) {
      this.state = structuredClone(this.state);
      cfg.prepare(
        this.state,
        this.players.map((p) => p.id),
      );
    }
  }

  private get viewerId(): string | null {
    return this.cfg.viewer === null ? null : this.players[this.cfg.viewer].id;
  }

  start(h: TableHandlers<V>): void {
    this.handlers = h;
    h.connection('online');
    this.emit([]);
    this.schedule();
  }

  private emit(events: GameEvent[]): void {
    if (!this.handlers) return;
    const g = this.cfg.game;
    const v = this.viewerId;
    const frame = {
      seq: this.state.seq,
      role: v === null ? ('spectator' as const) : ('player' as const),
      view: g.view(this.state, v) as V,
      events: events.map((e) => g.eventView(e, v)).filter((e): e is GameEvent => e !== null),
      presence: this.players.map((p, i) => {
        const connected = !this.cfg.offline?.includes(i);
        const away = !!this.cfg.away?.includes(i);
        return { id: p.id, connected, away, bot: p.id !== v && connected && !away };
      }),
      result: g.result(this.state) as ResultOf<V> | null,
    };
    this.sent.record(() => JSON.stringify({ t: 'view', ...frame }));
    this.buzz.frame(frame.view);
    this.handlers.frame(frame);
  }

  /** Whether the deadline of state `s` may expire (`timeouts`). */
  private clockRuns(s: GameStateBase): boolean {
    const t = this.cfg.timeouts ?? true;
    if (t !== 'others') return t;
    const me = this.viewerId;
    return me === null || !this.cfg.game.activePlayers(s).includes(me);
  }

  /** One move: an expired deadline first, else the first seat whose bot has something to do (any seat when `allSeats`). */
  private step(allSeats = false): boolean {
    const g = this.cfg.game;
    const s = this.state;
    if (g.result(s) || this.cfg.pauseWhen?.(s)) return false;
    const due = this.clockRuns(s) ? g.deadline(s) : null;
    if (due !== null && due <= Date.now()) {
      const r = g.onTimeout(s, Date.now());
      if (r.ok) {
        this.state = r.state as GameStateBase;
        this.emit(r.events);
        return true;
      }
    }
    for (const p of this.players) {
      if (p.id === this.viewerId && !this.cfg.autoplay && !allSeats) continue;
      const action = g.bot(g.view(s, p.id), this.rng);
      if (!action) continue;
      const r = g.apply(s, p.id, action, Date.now());
      if (r.ok) {
        this.state = r.state as GameStateBase;
        this.emit(r.events);
        return true;
      }
    }
    return false;
  }

  private schedule(): void {
    if (this.stopped || this.cfg.botDelayMs <= 0 || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.stopped) return;
      this.step();
      this.schedule();
    }, this.cfg.botDelayMs);
  }

  async act(action: A): Promise<ActResult> {
    const me = this.viewerId;
    if (!me) return { ok: false, reason: '관전 중에는 할 수 없어요' };
    const r = this.cfg.game.apply(this.state, me, action, Date.now());
    if (!r.ok) return { ok: false, reason: r.reason };
    this.state = r.state as GameStateBase;
    this.emit(r.events);
    this.schedule();
    return { ok: true, seq: this.state.seq };
  }

  /** The engine's answer to a move without making it: null when it would be accepted, else its reason. */
  judge(action: A): string | null {
    const me = this.viewerId;
    if (!me) return '관전 중에는 할 수 없어요';
    const r = this.cfg.game.apply(this.state, me, action, Date.now());
    return r.ok ? null : r.reason;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  serverNow(): number {
    return Date.now();
  }

  frames(): string[] {
    return this.sent.list();
  }

  /** The engine state (for the tutorial's tests and its end check; never sent to a view). */
  get current(): GameStateBase {
    return this.state;
  }

  get playerIds(): string[] {
    return this.players.map((p) => p.id);
  }

  /** Whether the bots stopped at `pauseWhen` or the game ended. */
  get over(): boolean {
    return !!this.cfg.game.result(this.state) || !!this.cfg.pauseWhen?.(this.state);
  }
}
