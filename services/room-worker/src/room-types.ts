/** The room's data shapes: what is snapshotted, what goes through its queue, and what it needs from its worker. */
import type { GameEvent, GameStateBase } from '@joke/engine';
import type { bus as wire, ChatPolicy } from '@joke/protocol';
import type { Bus, TraceHeaders } from '@joke/bus';
import type { Logger } from '@joke/ops';
import type { SnapshotStore } from '@joke/stores';
import type { Clock } from '@joke/bus/clock';
import type { WorkerConfig } from './config.ts';
import type { PriorityIntake } from './intake.ts';
import type { WorkerMetrics } from './metrics.ts';

export interface SeatMeta {
  id: string;
  name: string;
  bot: boolean;
  /** Shown as "자리 비움" after `awayAfterTimeouts` timeouts in a row; any own action clears it. */
  away: boolean;
  timeouts: number;
  /**
   * Human seats: since when (ms) no player viewer of theirs has been connected, null while
   * one is. Snapshotted so a takeover keeps the clock; absent in snapshots written before it.
   */
  disconnectedSince?: number | null;
}

export interface ViewerMeta {
  userId: string;
  gatewayId: string;
  role: 'player' | 'spectator';
  /** false while the socket is gone but the viewer did not leave: no frames, the seat shows disconnected. */
  connected: boolean;
  /** Since when (ms) `connected` is false; the entry is forgotten after viewerGraceMs (viewers.ts). */
  goneAt?: number;
}

/** The snapshot payload (JSON), with the engine state inside. */
export interface RoomData {
  v: 1;
  roomId: string;
  game: string;
  mode: string;
  /** Parsed options (the record replays with these). */
  options: Record<string, unknown>;
  startedAt: number;
  /**
   * The game's state. The worker holds every game as AnyGame, so it knows only the fields all states
   * share; the game reads the rest. In a decoded snapshot it is unchecked (`SnapshotData`) until
   * the game's `restoreState` has seen it (stored-room.ts).
   */
  state: GameStateBase;
  seats: SeatMeta[];
  viewers: ViewerMeta[];
  finishedAt: number | null;
  finishedPublished: boolean;
  /** Who may chat (chat.ts); from the room's spec, absent in rooms opened without one. */
  chat?: ChatPolicy;
  /** Departures not yet stored by the stream (departures.ts: the outbox); absent when none. */
  departures?: Departure[];
}

/**
 * A room as a snapshot text holds it, whose state only the encoder and the game read: the metadata as
 * written, the state not yet checked by the game (stored-room.ts has `restoreState` check it first).
 */
export type SnapshotData = Omit<RoomData, 'state'> & { state: unknown };

/** A seated person who left a game in progress for good (departures.ts). */
export interface Departure {
  userId: string;
  reason: 'left' | 'graceLapsed';
  /** When the worker saw it (ms); part of the fact's message id. */
  at: number;
}

/** A record step as stored: `s` room seq, `n` now, then either actor `a` + action `x` (+ actionId `i`) or `t` timeout. */
export interface StepRec {
  s: number;
  n: number;
  a?: string;
  x?: unknown;
  i?: string;
  t?: 1;
}

export type Item =
  | {
      kind: 'cmd';
      cmd: wire.RoomCommand;
      respond: (r: wire.CommandReply) => void;
      at: number;
      /** The trace context the command came with (a traced action: batch-trace.ts). */
      trace?: TraceHeaders;
    }
  | { kind: 'join'; userId: string; spectate: boolean; gatewayId: string; respond: (r: wire.JoinReply) => void }
  | {
      kind: 'presence';
      userId: string;
      gatewayId: string;
      connected: boolean;
      left: boolean;
      /** Which of the user's viewers on that gateway; absent from older gateways = both. */
      role?: 'player' | 'spectator';
    }
  | { kind: 'timeout' }
  | { kind: 'bot'; seat: string }
  | { kind: 'substitute'; seat: string }
  | { kind: 'gatewayGone'; gatewayId: string }
  | { kind: 'markPublished' }
  | { kind: 'departuresPublished'; ids: string[] };

/** An answer held back until the batch is persisted; join frames are built then, at the persisted seq. */
export interface Reply {
  send(): void;
  /** performance.now() when the command arrived (latency metric). */
  at?: number;
  /**
   * An accepted command whose gateway asked for its frames in the reply (`RoomCommand.framesInReply`):
   * sends that gateway's delivery of the transition as the reply instead of a reply and a delivery.
   */
  withFrames?: { gatewayId: string; send(delivery: wire.Delivery): void };
}

export interface Transition {
  seq: number;
  state: GameStateBase;
  events: GameEvent[];
}

/**
 * What the worker's callbacks read of a room (room.ts's Room has all of it). Declared here rather than
 * importing Room, because room.ts imports nearly every room module and they import this file: naming
 * Room here tied all twenty into one import cycle (scripts/import-cycles.mjs).
 */
export interface HostedRoom {
  readonly id: string;
  readonly epoch: number;
  readonly seq: number;
  readonly finished: boolean;
  finishedMessage(): wire.RoomFinished;
}

export interface RoomHost {
  bus: Bus;
  store: SnapshotStore;
  cfg: WorkerConfig;
  metrics: WorkerMetrics;
  log: Logger;
  /** Wall time and timers of the rooms (deadlines, bots, substitutes, linger); fake in tests. */
  clock: Clock;
  workerId: string;
  /** `workerId/incarnation`: carried by deliveries and join replies, so gateways learn who runs a room. */
  owner: string;
  /** The room left this worker (dropped, lost its lease, handed over). */
  onGone(room: HostedRoom): void;
  /** Resolves once the result is durably stored (the JetStream stream acknowledged it). */
  onFinished(room: HostedRoom): Promise<void>;
  /** Resolves once the stream stored the departure (PlayerLeft, message id `id`); retried until then. */
  onDeparture(room: HostedRoom, d: Departure, id: string): Promise<void>;
  /** The room is let go for good (its snapshot dropped): the lobby is told durably (RoomClosed), in the background. */
  onClosedForGood(room: HostedRoom): void;
  /** The store lost the room's state (store-loss.ts): report it and tell the lobby. */
  onStoreLost(room: HostedRoom): void;
  onTransition(): void;
  gatewaySeen(gatewayId: string): void;
  /** The worker's priority intake (intake.ts): counts queued items, defers joins while behind. Absent in unit set-ups. */
  intake?: PriorityIntake;
}
