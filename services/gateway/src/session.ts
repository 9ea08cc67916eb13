/**
 * One client socket as the gateway holds it: who it is (after `hello`), the rooms it is in (a Membership
 * each, with the last seq it was sent there), its rate bucket and its count of requests still waiting, and
 * the only ways anything is written to it (`send`, `protoError`, `frame`).
 *
 * State: everything above, owned by this object alone; the socket itself is uWS's. Built by the `open`
 * handler (gateway.ts) with its socket and the gateway's shared parts; `closed` is set once by `close`.
 * Failure modes: a socket whose unsent bytes pass GATEWAY_MAX_BACKPRESSURE_BYTES is dropped as a slow
 * consumer (4008, on a microtask: ending runs the close handler synchronously, and the delivery loop that
 * found it is still iterating); writes to a closed or dropping socket are skipped. A presence notice may be
 * held back under pressure (shed.ts) and goes right before the membership's next view.
 */
import type { Logger } from 'pino';
import type { Timer } from '@joke/bus/clock';
import type { PlayerClaims } from '@joke/protocol/auth';
import { encodeError, wireErrorText, type ErrorPlace, type WireErrorCode } from '@joke/protocol/wire';
import type { GatewayConfig } from './config.ts';
import type { GatewayMetrics } from './metrics.ts';
import type { WebSocket } from './uws.ts';

export type Role = 'player' | 'spectator';
export type FrameKind = 'view' | 'presence';

/** What uWS keeps with a socket from its upgrade to its `open`: the address it counts against (limits.ts). */
export interface UpgradeData {
  ip: string;
}
export type Sock = WebSocket<UpgradeData>;

/** One socket's place in one room. */
export interface Membership {
  /** null while the join request is in flight. */
  role: Role | null;
  /** Highest transition sent to this socket for this room: older or repeated frames are dropped. */
  lastSeq: number;
  /** Frames that arrived while joining (copied: the bus buffer is reused), replayed once the role and seq are known. */
  early: { viewer: string | null; seq: number; kind: FrameKind; frame: Uint8Array }[] | null;
  wantsSpectate: boolean;
  /** Settles when the pending join is answered, so a pipelined action waits for it. */
  joined: Promise<void> | null;
  /** A player's latest presence notice held back under pressure (shed.ts); sent before its next view. */
  heldPresence?: { seq: number; frame: string | Uint8Array } | undefined;
  /** A spectator socket taken off the room's topic while its send buffer was full (shed.ts). */
  paused?: boolean;
}

/** The part of the shedder (shed.ts Shedder) a session asks before writing a presence notice. */
export interface PresenceShedding {
  /** Whether a presence notice for this socket is held back instead of written now. */
  holdPresence(ws: Sock): boolean;
  /** Keeps `frame` (copied) as the membership's one held presence notice. */
  hold(m: Membership, seq: number, frame: string | Uint8Array): void;
}

/** What every session of one gateway shares (one object, built once in gateway.ts). */
export interface SessionShared {
  cfg: GatewayConfig;
  log: Logger;
  metrics: GatewayMetrics;
  shed: PresenceShedding;
}

export interface SessionInit {
  id: number;
  ws: Sock;
  ip: string;
  /** Clock ms now: the rate bucket starts full at this moment. */
  now: number;
  shared: SessionShared;
}

export class Session {
  readonly id: number;
  readonly ws: Sock;
  /** The address this socket counts against (limits.ts). */
  readonly ip: string;
  user: PlayerClaims | null = null;
  authing = false;
  /** Messages received while `hello` was being verified. */
  held: string[] = [];
  readonly rooms = new Map<string, Membership>();
  closed = false;
  dropping = false;
  helloTimer: Timer | null = null;
  /** Requests of this socket not answered yet (limits.ts). */
  pending = 0;
  private tokens: number;
  private refilledAt: number;
  /** So the first flood is told even in a process younger than a second. */
  rateErrorAt = -Infinity;
  private readonly shared: SessionShared;

  /**
   * Whether anyone still waits on this socket's requests (Requester `wanted`): made once per socket, so an
   * action passes it without a closure of its own (tsx names every closure made in an object literal).
   */
  readonly stillOpen = (): boolean => !this.closed;

  constructor(init: SessionInit) {
    this.id = init.id;
    this.ws = init.ws;
    this.ip = init.ip;
    this.shared = init.shared;
    this.tokens = init.shared.cfg.rateBurst;
    this.refilledAt = init.now;
  }

  /** Writes text or a worker's UTF-8 bytes (as a text frame, unchanged). */
  send(data: string | Uint8Array): void {
    if (this.closed || this.dropping) return;
    // 1 = written with nothing left buffered (the common case: no second native call to ask);
    // 0 = backpressure built up, bounded here; 2 = dropped: the socket already holds uWS's own limit.
    const status = this.ws.send(data, false, false);
    this.shared.metrics.messagesOut.inc();
    if (status !== 1 && (status === 2 || this.ws.getBufferedAmount() > this.shared.cfg.maxBackpressureBytes))
      this.drop();
  }

  /** An `error` frame with the code's Korean message (and `detail` after it), counted as a reject. */
  protoError(code: WireErrorCode, detail?: string, extra?: ErrorPlace): void {
    this.shared.metrics.rejects.inc({ reason: code });
    this.send(encodeError(code, detail ? `${wireErrorText(code)} (${detail})` : undefined, extra));
  }

  /**
   * A view or presence frame of a room this socket is in: every such write goes through here. A view goes
   * unless this socket already has that transition or a newer one; a presence notice (which repeats the
   * current seq) goes unless a newer view already did, and waits under pressure (shed.ts). A view never
   * waits, and takes the held notice with it. The kind comes from the delivery's header: the frame itself
   * is never opened.
   */
  frame(m: Membership, seq: number, kind: FrameKind, frame: string | Uint8Array): void {
    if (kind === 'presence') {
      if (seq < m.lastSeq) return;
      if (this.shared.shed.holdPresence(this.ws)) return this.shared.shed.hold(m, seq, frame);
      m.heldPresence = undefined;
      this.send(frame);
      return;
    }
    if (seq <= m.lastSeq) return;
    if (m.heldPresence) this.flushPresence(m);
    m.lastSeq = seq;
    this.send(frame);
  }

  /** Writes the membership's held presence notice now, unless a newer view went meanwhile. */
  flushPresence(m: Membership): void {
    const held = m.heldPresence;
    m.heldPresence = undefined;
    if (held && held.seq >= m.lastSeq) this.send(held.frame);
  }

  /** Drops the socket if its unsent bytes passed the bound (topic publishes do not report it per socket). */
  dropSlow(): boolean {
    if (this.closed || this.dropping || this.ws.getBufferedAmount() <= this.shared.cfg.maxBackpressureBytes)
      return false;
    this.drop();
    return true;
  }

  /** Token bucket: refilled continuously at ratePerSecond up to rateBurst; false = this message is over it. */
  takeToken(now: number): boolean {
    const { rateBurst, ratePerSecond } = this.shared.cfg;
    // A wall clock set back must not drain the bucket.
    const elapsed = Math.max(0, now - this.refilledAt);
    this.tokens = Math.min(rateBurst, this.tokens + (elapsed / 1000) * ratePerSecond);
    this.refilledAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Closes the socket unless it is closed already. */
  end(code: number, reason: string): void {
    if (!this.closed) this.ws.end(code, reason);
  }

  // Holding more than maxBackpressureBytes unsent would let one stalled client grow the gateway's memory
  // without bound, so such a socket is cut loose and resumes by reconnecting.
  private drop(): void {
    this.dropping = true;
    this.shared.metrics.slowConsumers.inc();
    this.shared.log.warn(
      { socket: this.id, user: this.user?.sub, buffered: this.ws.getBufferedAmount() },
      'slow consumer dropped',
    );
    // Ending runs the close handler synchronously; deferring keeps delivery loops simple.
    queueMicrotask(() => this.end(4008, 'slow consumer'));
  }
}
