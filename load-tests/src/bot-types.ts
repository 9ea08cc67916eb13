/**
 * What a swarm bot is given (BotConfig) and reports (BotSink), and the action
 * it waits on (Pending): the shapes bot.ts works with, apart from its logic.
 */
import type { AnyGame } from '@joke/engine';
import type { ViewGate } from './frames.ts';
import type { WsClient } from './options.ts';
import type { BotSocket, BotSocketEvents } from './bot-socket.ts';

/** What the bot reports to the swarm. */
export interface BotSink {
  matched(roomId: string, userId: string): void;
  view(roomId: string, seq: number, at: number): void;
  finished(roomId: string): void;
  acked(roomId: string, userId: string, actionId: string, action: unknown, seq: number): void;
  latency(ms: number): void;
  /** The game refused an action because another player's move changed the state first (not an error). */
  raced(): void;
  error(kind: string, detail?: string): void;
  /** Socket created → welcome (the gateway accepted the token). */
  connected(ms: number): void;
  /** Socket dropped by a reconnect storm → welcome on the new one. */
  reconnected(ms: number): void;
  /** A socket of this bot opened (+1) or closed (-1). */
  socket(delta: 1 | -1): void;
  /** True once the run is over: no new work starts. */
  stopping(): boolean;
}

export interface Pending {
  actionId: string;
  action: unknown;
  sentAt: number;
  /** Views received since the send, until the ack names the seq to wait for. */
  views: { seq: number; at: number }[];
  ackSeq: number | null;
  /** seq of the view the action was chosen from. */
  decidedSeq: number;
}

export interface BotConfig {
  url: string;
  /** Every gateway of the run: a gateway that closes with the reconnect hint (1012) sends the bot to the next. */
  urls?: readonly string[];
  token: string;
  userId: string;
  game: AnyGame;
  gameId: string;
  mode: string;
  players: number;
  /** Think time before each action, drawn from a uniform [0, 1) source. */
  think: (u: () => number) => number;
  requeue: boolean;
  /** Source address of the socket (spreads bots over 127.0.0.x so one address's ports are not the limit). */
  localAddress?: string;
  /** Reads from a view's bytes whether this bot may act on it (frames.ts); absent = parse every view. */
  gate?: ViewGate;
  /** Of the views the gate lets the bot skip, every this-many-th is parsed and checked instead (1 = all). */
  checkEvery?: number;
  /** The WebSocket client (bot-socket.ts); lean unless told. */
  wsClient?: WsClient;
  /** Tests and benches: the bot's socket, given its events, instead of one to `url`. */
  socket?: (on: BotSocketEvents) => BotSocket;
}
