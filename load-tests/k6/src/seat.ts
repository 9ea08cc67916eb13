/**
 * One seat of a k6 table run: a `k6/websockets` socket that says hello, quick-matches, joins the
 * table it is matched to and plays from its own view with the engine's bot policy
 * (bots.ts: the function behind `games[id].bot(view, rng)`, which the Node swarm and the room
 * worker's bot seats call), measuring each action from send to the first view that reflects it. Messages are typed by
 * services/protocol's zod schemas (`ClientMessage`), and the first of each kind a VU sends, and every
 * `checkEvery`-th message it receives, is parsed with those schemas too.
 *
 * State: room, the table's fixed view members, the pending action, its think and ack timers. It
 * ends itself at `deadline` (closes its socket, clears every timer) so the VU's event loop empties
 * and k6 never interrupts a timer. Failure modes: a socket refused at the upgrade is tried again
 * with jittered back-off (3 times), then the seat gives up (`sockets_refused`); a socket lost while
 * playing reconnects and joins again (5 times, `protocol_errors{kind:disconnected}`); an action with
 * no answer in 15 s is sent again under its id (3 times, then `gaveUp`).
 */
import { WebSocket } from 'k6/websockets';
import { clearTimeout, setTimeout } from 'k6/timers';
import { Rng } from '@joke/engine/core/rng';
import { ClientMessage, PROTOCOL_REVISION, PROTOCOL_VERSION, ServerMessage } from '@joke/protocol/client';
import type { MixEntry } from '../../src/scenario.ts';
import { metrics } from './metrics.ts';
import { botOf, type BotPolicy } from './bots.ts';

const v = PROTOCOL_VERSION;
type ViewMessage = Extract<ServerMessage, { t: 'view' }>;
/** Refusals that are races, as the room worker tells them (actions carry the seq of the view they were chosen on). */
const RACE_CODES: ReadonlySet<unknown> = new Set(['stale', 'finished']);
const ACK_TIMEOUT_MS = 15_000;
/** An action sent later than this after its think time ended counts as not on time. */
const LATE_MS = 1000;
/** Message kinds this VU has checked against ClientMessage once already. */
const checkedKinds = new Set<string>();
let received = 0;

export interface SeatConfig {
  url: string;
  entry: MixEntry;
  token: string;
  /** Seeds the seat's own generator, as the swarm seeds each bot with its user id. */
  seed: string;
  /** Epoch ms at which the seat stops (its stage of the plan ends). */
  deadline: number;
  think: (u: () => number) => number;
  checkEvery: number;
}

interface Pending {
  id: string;
  action: unknown;
  sentAt: number;
  ackSeq: number | null;
  decidedSeq: number;
  resends: number;
}

export class Seat {
  private ws: WebSocket | null = null;
  private readonly bot: BotPolicy;
  private readonly rng: Rng;
  private roomId: string | null = null;
  private fixed: Record<string, unknown> | null = null;
  private lastSeq = -1;
  private next: unknown = null;
  private dueAt = 0;
  private pending: Pending | null = null;
  private thinkTimer: number | null = null;
  private ackTimer: number | null = null;
  private stopTimer: number | null = null;
  private counter = 0;
  private seated = false;
  private opened = false;
  private refusedUpgrades = 0;
  private reconnects = 0;
  private connectingSince = 0;
  private stopped = false;

  private readonly tags: { game: string; mode: string };

  constructor(private readonly cfg: SeatConfig) {
    this.bot = botOf(cfg.entry.game);
    this.tags = { game: cfg.entry.game, mode: cfg.entry.mode };
    this.rng = Rng.fromSeed(cfg.seed, 'k6-bot');
  }

  start(): void {
    this.stopTimer = setTimeout(() => this.stop(), Math.max(0, this.cfg.deadline - Date.now()));
    this.connect();
  }

  private connect(): void {
    this.opened = false;
    this.connectingSince = Date.now();
    const ws = new WebSocket(this.cfg.url);
    this.ws = ws;
    ws.onopen = () => {
      this.opened = true;
      this.send({ v, t: 'hello', token: this.cfg.token, revision: PROTOCOL_REVISION });
    };
    ws.onmessage = (e) => this.onMessage(String(e?.data));
    ws.onerror = () => {};
    ws.onclose = () => {
      if (ws !== this.ws) return;
      this.ws = null;
      this.clearPlayTimers();
      if (this.stopped) return;
      if (!this.opened) {
        // Refused at the upgrade (the gateway's per-address limit, or it is not there): back off with jitter.
        if (++this.refusedUpgrades > 3) {
          metrics.socketsRefused.add(1);
          return this.stop();
        }
        this.later(() => this.connect(), 1000 * 2 ** this.refusedUpgrades * (0.5 + Math.random()));
        return;
      }
      metrics.errors.add(1, { kind: 'disconnected' });
      if (++this.reconnects > 5) return this.stop();
      this.later(() => this.connect(), 250 * this.reconnects * (0.5 + Math.random()));
    };
  }

  /** A one-off timer that does nothing once the seat stopped (the stop timer clears what it can). */
  private later(fn: () => void, ms: number): void {
    this.thinkTimer = setTimeout(() => {
      this.thinkTimer = null;
      if (!this.stopped) fn();
    }, ms);
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    if (!this.seated) metrics.seatedShare.add(false);
    if (this.stopTimer !== null) clearTimeout(this.stopTimer);
    this.stopTimer = null;
    this.clearPlayTimers();
    // An action still unanswered at the end is neither delivered nor lost: the run ended under it.
    this.pending = null;
    if (this.ws) this.ws.close();
  }

  private clearPlayTimers(): void {
    if (this.thinkTimer !== null) clearTimeout(this.thinkTimer);
    if (this.ackTimer !== null) clearTimeout(this.ackTimer);
    this.thinkTimer = this.ackTimer = null;
  }

  private send(msg: ClientMessage): void {
    if (!checkedKinds.has(msg.t)) {
      checkedKinds.add(msg.t);
      if (!ClientMessage.safeParse(msg).success) metrics.errors.add(1, { kind: 'clientSchema' });
    }
    if (this.ws && this.ws.readyState === 1) this.ws.send(JSON.stringify(msg));
  }

  private onMessage(text: string): void {
    if (this.stopped) return;
    // Typed as the schema's message, checked against it every `checkEvery`-th frame only (below): a parse
    // per frame would cost each VU the CPU its sockets need. A frame that is not one falls through the switch.
    let m: ServerMessage;
    try {
      m = JSON.parse(text) as ServerMessage;
    } catch {
      metrics.errors.add(1, { kind: 'badFrame' });
      return;
    }
    if (++received % this.cfg.checkEvery === 0 && !ServerMessage.safeParse(m).success)
      metrics.errors.add(1, { kind: 'serverSchema' });
    const now = Date.now();
    switch (m.t) {
      case 'welcome':
        metrics.connect.add(now - this.connectingSince);
        if (this.roomId) this.send({ v, t: 'join', roomId: this.roomId });
        else this.queue();
        return;
      case 'matched':
        if (this.roomId) return;
        this.roomId = m.roomId;
        this.fixed = null;
        this.lastSeq = -1;
        if (!this.seated) {
          this.seated = true;
          metrics.seated.add(1 / this.cfg.entry.players);
          metrics.seatedShare.add(true);
        }
        this.send({ v, t: 'join', roomId: m.roomId });
        return;
      case 'view':
        return this.onView(m, now);
      case 'ack':
        return this.onAck(m, now);
      case 'rejected': {
        const p = this.pending;
        if (!p || p.id !== m.actionId) return;
        this.settle();
        const raced = RACE_CODES.has(m.code);
        if (raced) metrics.raced.add(1);
        else metrics.errors.add(1, { kind: 'rejected' });
        metrics.delivered.add(raced);
        return;
      }
      case 'error':
        if ((m.code === 'unavailable' || m.code === 'busy') && this.pending && m.actionId === this.pending.id)
          return this.resend();
        metrics.errors.add(1, { kind: String(m.code) });
        return;
    }
  }

  private queue(): void {
    const { game, mode, players } = this.cfg.entry;
    this.send({ v, t: 'queue', game, mode, players });
  }

  private onView(m: ViewMessage, now: number): void {
    if (m.roomId !== this.roomId) return;
    if (m.fixed !== null && typeof m.fixed === 'object') this.fixed = m.fixed;
    else if (this.fixed === null) {
      // A view without the fixed members before any came: join again (the reply carries them).
      metrics.errors.add(1, { kind: 'fixedMissing' });
      this.send({ v, t: 'join', roomId: m.roomId });
      return;
    }
    this.lastSeq = m.seq;
    const p = this.pending;
    if (p && p.ackSeq !== null && m.seq >= p.ackSeq) this.delivered(p, now);
    const view = m.view !== null && typeof m.view === 'object' ? (m.view as Record<string, unknown>) : null;
    if ((m.result !== undefined && m.result !== null) || view?.finished) return this.finish(m.roomId);
    if (view !== null) {
      Object.assign(view, this.fixed);
      this.next = this.bot(view, this.rng);
    } else this.next = null;
    this.schedule();
  }

  private onAck(m: { actionId: string; seq: number }, now: number): void {
    const p = this.pending;
    if (!p || p.id !== m.actionId) return;
    if (this.lastSeq >= m.seq) this.delivered(p, now);
    else p.ackSeq = m.seq;
  }

  private delivered(p: Pending, now: number): void {
    metrics.actionToView.add(now - p.sentAt);
    metrics.actions.add(1, this.tags);
    metrics.delivered.add(true);
    this.settle();
    this.schedule();
  }

  private finish(roomId: string): void {
    metrics.finished.add(1 / this.cfg.entry.players);
    this.clearPlayTimers();
    this.pending = this.next = null;
    this.send({ v, t: 'leave', roomId });
    this.roomId = null;
    this.queue();
  }

  private settle(): void {
    this.pending = null;
    if (this.ackTimer !== null) clearTimeout(this.ackTimer);
    this.ackTimer = null;
  }

  private schedule(): void {
    if (this.pending || this.next === null || this.thinkTimer !== null || this.stopped) return;
    const wait = this.cfg.think(() => this.rng.float());
    this.dueAt = Date.now() + wait;
    this.thinkTimer = setTimeout(() => {
      this.thinkTimer = null;
      this.act();
    }, wait);
  }

  private act(): void {
    const action = this.next;
    if (this.pending || !this.roomId || this.stopped || action === null) return;
    this.next = null;
    const now = Date.now();
    metrics.onTime.add(now - this.dueAt <= LATE_MS);
    this.pending = {
      id: `${this.cfg.seed}.${++this.counter}`,
      action,
      sentAt: now,
      ackSeq: null,
      decidedSeq: this.lastSeq,
      resends: 0,
    };
    this.sendAction(this.roomId, this.pending);
    this.armAck();
  }

  private armAck(): void {
    if (this.ackTimer !== null) clearTimeout(this.ackTimer);
    this.ackTimer = setTimeout(() => {
      this.ackTimer = null;
      metrics.errors.add(1, { kind: this.pending?.ackSeq === null ? 'ackTimeout' : 'viewTimeout' });
      this.resend();
    }, ACK_TIMEOUT_MS);
  }

  /** Same actionId again: the room worker applies it at most once. */
  private resend(): void {
    const p = this.pending;
    if (!p || !this.roomId) return;
    if (p.resends++ >= 3) {
      metrics.errors.add(1, { kind: 'gaveUp' });
      metrics.delivered.add(false);
      this.settle();
      return;
    }
    this.sendAction(this.roomId, p);
    this.armAck();
  }

  /** Every try carries the seq of the view the action was chosen on (none before the first view). */
  private sendAction(roomId: string, p: Pending): void {
    const seq = p.decidedSeq >= 0 ? p.decidedSeq : undefined;
    this.send({ v, t: 'action', roomId, actionId: p.id, action: p.action, seq });
  }
}
