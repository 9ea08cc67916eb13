/**
 * A table source that runs the one-card engine inside the page: the same
 * pure functions the room worker runs, with the engine's own bot policy for
 * the other seats. For visual checks and screenshot tests of any situation
 * without a server — never the product path.
 */
import { Rng } from '@joke/engine/core/rng';
import type { GameEvent, PlayerInfo } from '@joke/engine/core/types';
import { oneCard } from '@joke/engine/games/one-card/index';
import type { Card, OneCardOptions, OneCardState } from '@joke/engine/games/one-card/types';
import type { OneCardAction, OneCardView } from '../cards/model.ts';
import type { ActResult } from '../net/gateway.ts';
import type { TableHandlers, TableSource } from '../table/source.ts';

export interface LocalConfig {
  players: number;
  options: Partial<OneCardOptions> & { mode: OneCardOptions['mode'] };
  seed: string;
  /** Seat index of the viewer; null = spectator. */
  viewer: number | null;
  /** Milliseconds a bot waits before moving; 0 stops bots (a frozen table for screenshots). */
  botDelayMs: number;
  /** Moves to play (by bots for every seat) before showing the table. */
  warmup: number;
  /** A prepared situation to look at (see SCENARIOS). */
  scenario?: string;
  /** Seat indexes shown as disconnected / away (presence is the runtime's, not the engine's). */
  offline?: number[];
  away?: number[];
}

const NAMES = ['나', '민수', '지영', '현우', '서연', '도윤', '하은', '준호', '수아', '태민'];

export class LocalSource implements TableSource {
  readonly roomId = 'local';
  readonly spectate: boolean;
  private state: OneCardState;
  private readonly players: PlayerInfo[];
  private readonly rng: Rng;
  private handlers: TableHandlers | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly sent: string[] = [];
  private stopped = false;

  constructor(private readonly cfg: LocalConfig) {
    this.spectate = cfg.viewer === null;
    this.players = Array.from({ length: cfg.players }, (_, i) => ({ id: `p${i}`, name: NAMES[i] ?? `플레이어${i}` }));
    const options = oneCard.optionsSchema.parse(cfg.options) as OneCardOptions;
    this.state = oneCard.setup({ seed: cfg.seed, players: this.players, options, now: Date.now() }) as OneCardState;
    this.rng = Rng.fromSeed(cfg.seed, 'harness-bots');
    for (let i = 0; i < cfg.warmup && this.state.phase.kind !== 'finished'; i++) if (!this.botStep(true)) break;
    const scenario = cfg.scenario ? SCENARIOS[cfg.scenario] : undefined;
    if (scenario) {
      this.state = structuredClone(this.state);
      scenario(
        this.state,
        this.players.map((p) => p.id),
      );
    }
  }

  private get viewerId(): string | null {
    return this.cfg.viewer === null ? null : this.players[this.cfg.viewer].id;
  }

  start(h: TableHandlers): void {
    this.handlers = h;
    h.connection('online');
    this.emit([]);
    this.schedule();
  }

  private emit(events: GameEvent[]): void {
    if (!this.handlers) return;
    const v = this.viewerId;
    const view = oneCard.view(this.state, v) as OneCardView;
    const evs = events.map((e) => oneCard.eventView(e, v)).filter((e): e is GameEvent => e !== null);
    const result = oneCard.result(this.state);
    const frame = {
      seq: this.state.seq,
      role: v === null ? ('spectator' as const) : ('player' as const),
      view,
      events: evs,
      presence: this.players.map((p, i) => ({
        id: p.id,
        connected: !(this.cfg.offline ?? []).includes(i),
        away: (this.cfg.away ?? []).includes(i),
        bot: p.id !== v && !(this.cfg.offline ?? []).includes(i) && !(this.cfg.away ?? []).includes(i),
      })),
      result,
    };
    this.sent.push(JSON.stringify({ t: 'view', ...frame }));
    this.handlers.frame(frame);
  }

  /** One bot move for whoever must move (any seat when `all`); false when nobody can. */
  private botStep(all: boolean): boolean {
    const s = this.state;
    if (s.phase.kind === 'finished') return false;
    for (const p of s.seats) {
      if (!all && p === this.viewerId) continue;
      const action = oneCard.bot(oneCard.view(s, p), this.rng);
      if (!action) continue;
      const r = oneCard.apply(s, p, action, Date.now());
      if (r.ok) {
        this.state = r.state as OneCardState;
        if (!all) this.emit(r.events);
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
      this.botStep(this.viewerId === null);
      this.schedule();
    }, this.cfg.botDelayMs);
  }

  async act(action: OneCardAction): Promise<ActResult> {
    const me = this.viewerId;
    if (!me) return { ok: false, reason: '관전 중에는 할 수 없어요' };
    const r = oneCard.apply(this.state, me, action, Date.now());
    if (!r.ok) return { ok: false, reason: r.reason };
    this.state = r.state as OneCardState;
    this.emit(r.events);
    this.schedule();
    return { ok: true, seq: this.state.seq };
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  serverNow(): number {
    return Date.now();
  }

  frames(): string[] {
    return this.sent;
  }
}

const std = (id: string, suit: 'S' | 'H' | 'D' | 'C', rank: number): Card => ({ id, kind: 'std', suit, rank });

/**
 * Situations that are rare in a random game but must look right: the state is
 * rearranged (still a valid engine state) and the engine computes the views.
 * Seat 0 is the viewer.
 */
export const SCENARIOS: Record<string, (s: OneCardState, seats: string[]) => void> = {
  /** Under a stacked attack of 7 with counters in hand (§9 "N장 먹기", blockers highlighted). */
  attack(s, [me, b]) {
    s.current = me;
    s.discard = [std('x-top0', 'H', 6), std('x-top1', 'H', 2), std('x-top', 'C', 2)];
    s.pendingAttack = 7;
    s.hands[me] = [
      std('x1', 'D', 2),
      std('x2', 'H', 9),
      { id: 'x3', kind: 'joker', joker: 'color' },
      std('x4', 'C', 3),
      std('x5', 'S', 11),
      std('x6', 'D', 13),
      std('x7', 'S', 5),
    ];
    s.hands[b] = s.hands[b].slice(0, 1);
    s.oneCardWindow = { player: b, declared: true, openedSeq: s.seq };
    s.direction = -1;
  },
  /** Colour cards: a wild in hand opens the colour picker (§9 four big buttons). */
  pick(s, [me]) {
    s.current = me;
    s.discard = [{ id: 'x-top', kind: 'num', color: 'B', value: 5 }];
    s.declaredColor = null;
    s.hands[me] = [
      { id: 'x1', kind: 'wild' },
      { id: 'x2', kind: 'num', color: 'R', value: 7 },
      { id: 'x3', kind: 'skip', color: 'B' },
      { id: 'x4', kind: 'reverse', color: 'G' },
      { id: 'x5', kind: 'draw2', color: 'Y' },
      { id: 'x6', kind: 'wild4' },
      { id: 'x7', kind: 'num', color: 'B', value: 9 },
    ];
  },
  /** Someone else is down to one card and has not called it: the button shakes and catches. */
  onecard(s, [me, b, c]) {
    s.current = c ?? me;
    s.hands[b] = s.hands[b].slice(0, 1);
    s.oneCardWindow = { player: b, declared: false, openedSeq: s.seq };
  },
  /** A colour-card +4 was just played on us under the challenge rule: 의심하기 or 받아들이기. */
  wild4(s, [me, b]) {
    s.current = me;
    s.discard = [
      { id: 'x-top0', kind: 'num', color: 'R', value: 3 },
      { id: 'x-top', kind: 'wild4' },
    ];
    s.declaredColor = 'G';
    s.pendingAttack = 4;
    s.phase = {
      kind: 'wild4Response',
      by: b,
      target: me,
      prevColor: 'R',
      illegal: true,
      handAtPlay: s.hands[b].length,
    };
  },
  /** Two cards left, both playable: choosing one offers "원카드 외치며 내기". */
  declare(s, [me]) {
    s.current = me;
    s.discard = [std('x-top', 'H', 4)];
    s.declaredSuit = null;
    s.hands[me] = [std('x1', 'H', 8), std('x2', 'H', 10)];
  },
};
