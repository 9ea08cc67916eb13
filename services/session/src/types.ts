/**
 * The shapes a session's user sees: its status, an action's result, the events it reports
 * (`SessionHandler`: one object of optional methods, so a process with 20,000 bot sessions holds
 * no listener sets) and its options. No logic here.
 */
import type { PresenceEntry, ServerMessage } from '@joke/protocol';
import type { Backoff } from '@joke/bus/retry-budget';
import type { SessionClock } from './clock.ts';
import type { Connect } from './transport.ts';
import type { WireView } from './rooms.ts';

export type ConnStatus = 'idle' | 'connecting' | 'online' | 'reconnecting' | 'closed';

/**
 * `code`: the refusal's machine code when the server gave one, or the session's own (`timeout`: no
 * answer in time; `gaveUp`: the retry budget ran out; `closed`). `race`: the move was chosen on a view
 * the room had already left (`stale`): someone else moved first, the newer view is on its way.
 */
export type ActResult = { ok: true; seq: number } | { ok: false; reason: string; code?: string; race?: boolean };

export type ErrorMessage = Extract<ServerMessage, { t: 'error' }>;
export type WelcomeMessage = Extract<ServerMessage, { t: 'welcome' }>;
/** Everything the session passes on without acting on it itself. */
export type OtherMessage = Extract<ServerMessage, { t: 'queued' | 'queueStatus' | 'matched' | 'chat' | 'pong' }>;

export interface SessionHandler {
  status?(s: ConnStatus): void;
  welcome?(msg: WelcomeMessage): void;
  /** A whole view (fixed members in `frame.view`) and the room's presence list; `raw` as received, if known. */
  view?(frame: WireView, presence: PresenceEntry[], raw: string | null): void;
  presence?(roomId: string, presence: PresenceEntry[]): void;
  /** Half a view was dropped; a resync join went unless one went in the last RESYNC_EVERY_MS. */
  resync?(roomId: string, seq: number, missing: 'fixed' | 'presence'): void;
  /** An error the session did not absorb (an action's `unavailable` it retries is absorbed). */
  error?(msg: ErrorMessage, fatal: boolean): void;
  /** The join retry budget for a room ran out: the gateway could not get it answered. */
  joinGaveUp?(roomId: string): void;
  /** An action went unanswered for `actionResendMs` and is sent again (or given up). */
  unanswered?(roomId: string, actionId: string, action: unknown): void;
  other?(msg: OtherMessage): void;
  /** A socket closed; `reconnectIn` the wait before the next one, null when the session stops. */
  closed?(code: number, reconnectIn: number | null): void;
}

export interface SessionOptions {
  connect: Connect;
  /** The hello's token, read on each connect; null: not signed in (the session closes, fatal). */
  token: () => string | null;
  handler: SessionHandler;
  clock?: SessionClock;
  /** Draws from [0, 1) for the jitter. */
  random?: () => number;
  /** Check every frame against the protocol's schemas (default true); bots that parse by hand pass false. */
  validate?: boolean;
  /** Reconnect back-off; its budget counts reconnects without a welcome in between. */
  reconnect?: Partial<Backoff>;
  /**
   * Overrides the reconnect wait for one close (e.g. 0 for a gateway's 1012 "move"); null stops. `planned`:
   * the back-off's own wait, or -1 when its budget ran out.
   */
  reconnectDelay?: (code: number, attempt: number, planned: number) => number | null;
  /** Joins the gateway answered `unavailable`/`capacity`/`busy`: tried again on this back-off. */
  joinRetry?: Partial<Backoff>;
  /** Actions answered `unavailable`/`busy`/… under their id: sent again on this back-off. */
  actionRetry?: Partial<Backoff>;
  /** Send an unanswered action again after this long (the gateway itself retries for ~10 s). */
  actionResendMs?: number;
  /** Give up on an action after this long. */
  actionGiveUpMs?: number;
  /** Ping this often (0: never); close and reconnect when nothing arrived for `silenceMs`. */
  pingEveryMs?: number;
  silenceMs?: number;
}
