/**
 * What every part of the gateway shares: configuration, bus, logging, metrics,
 * the registry of sockets and rooms, and the ways to write to a socket.
 */
import type { Logger } from 'pino';
import type { Bus } from '@joke/bus';
import { PROTOCOL_VERSION } from '@joke/protocol';
import { encodeError, wireErrorText, type ErrorPlace, type WireErrorCode } from '@joke/protocol/wire';
import type { GatewayConfig } from './config.ts';
import type { GatewayMetrics } from './metrics.ts';
import type { Membership, Registry, Sock } from './rooms.ts';
import { Shedder } from './shed.ts';

export const v = PROTOCOL_VERSION;

export interface Core {
  cfg: GatewayConfig;
  bus: Bus;
  log: Logger;
  metrics: GatewayMetrics;
  reg: Registry;
  closing(): boolean;
  /** Handlers run detached from uWS callbacks; a bug in one must be logged, never crash the process. */
  detach(p: Promise<void>): void;
  /** Writes text or a worker's UTF-8 bytes (as a text frame, unchanged) to one socket. */
  send(ws: Sock, data: string | Uint8Array): void;
  /** An `error` frame with the code's Korean message (and `detail` after it), counted as a reject. */
  protoError(ws: Sock, code: WireErrorCode, detail?: string, extra?: ErrorPlace): void;
  sendView(ws: Sock, m: Membership, seq: number, kind: FrameKind, frame: string | Uint8Array): void;
  /** One write for every subscriber of a uWS topic (the spectators of a room); set once the app exists. */
  publishTopic: (topic: string, frame: Uint8Array) => void;
  /** Drops sockets whose unsent bytes passed the bound (topic publishes do not report it per socket). */
  dropSlow(ws: Sock): boolean;
  /** What is shed first under pressure: spectator frames and presence notices (shed.ts). */
  shed: Shedder;
  /** Writes a player's held presence notice now, unless a newer view went meanwhile. */
  flushPresence(ws: Sock, m: Membership): void;
}

export type FrameKind = 'view' | 'presence';

export function createCore(
  cfg: GatewayConfig,
  bus: Bus,
  log: Logger,
  metrics: GatewayMetrics,
  reg: Registry,
  closing: () => boolean,
  /** Measure the event-loop delay for shedding (off on a fake clock: the box's own lag is not the test's). */
  measureLag = true,
): Core {
  const detach = (p: Promise<void>): void => {
    p.catch((err) => log.error({ err: String(err) }, 'message handler failed'));
  };

  // Holding more than maxBackpressureBytes unsent would let one stalled client grow the gateway's memory
  // without bound, so such a socket is cut loose and resumes by reconnecting.
  const drop = (ws: Sock): void => {
    const d = ws.getUserData();
    d.dropping = true;
    metrics.slowConsumers.inc();
    log.warn({ socket: d.id, user: d.user?.sub, buffered: ws.getBufferedAmount() }, 'slow consumer dropped');
    // Ending runs the close handler synchronously; deferring keeps delivery loops simple.
    queueMicrotask(() => {
      if (!d.closed) ws.end(4008, 'slow consumer');
    });
  };
  const dropSlow = (ws: Sock): boolean => {
    const d = ws.getUserData();
    if (d.closed || d.dropping || ws.getBufferedAmount() <= cfg.maxBackpressureBytes) return false;
    drop(ws);
    return true;
  };
  const send = (ws: Sock, data: string | Uint8Array): void => {
    const d = ws.getUserData();
    if (d.closed || d.dropping) return;
    // 1 = written with nothing left buffered (the common case: no second native call to ask);
    // 0 = backpressure built up, bounded here; 2 = dropped: the socket already holds uWS's own limit.
    const status = ws.send(data, false, false);
    metrics.messagesOut.inc();
    if (status !== 1 && (status === 2 || ws.getBufferedAmount() > cfg.maxBackpressureBytes)) drop(ws);
  };
  const protoError = (ws: Sock, code: WireErrorCode, detail?: string, extra?: ErrorPlace) => {
    metrics.rejects.inc({ reason: code });
    send(ws, encodeError(code, detail ? `${wireErrorText(code)} (${detail})` : undefined, extra));
  };

  /**
   * Sends a view frame unless this socket already has that transition or a newer one.
   * Deliveries also carry `presence` frames, which repeat the current seq: those go out
   * unless a newer view already did. The kind comes from the delivery's header, so the
   * frame itself is never opened.
   */
  const shed = new Shedder(
    { shedLoopLagMs: cfg.shedLoopLagMs, shedBufferedBytes: cfg.shedBufferedBytes },
    { shed: (kind) => metrics.framesShed.inc({ kind }), resync: () => metrics.spectatorResyncs.inc() },
    measureLag,
  );
  const flushPresence = (ws: Sock, m: Membership): void => {
    const held = m.heldPresence;
    m.heldPresence = undefined;
    if (held && held.seq >= m.lastSeq) send(ws, held.frame);
  };
  // Under pressure a presence notice waits (shed.ts); a view never does, and takes the held notice with it.
  const sendView = (ws: Sock, m: Membership, seq: number, kind: FrameKind, frame: string | Uint8Array): void => {
    if (kind === 'presence') {
      if (seq < m.lastSeq) return;
      if (shed.holdPresence(ws)) return shed.hold(m, seq, frame);
      m.heldPresence = undefined;
      send(ws, frame);
      return;
    }
    if (seq <= m.lastSeq) return;
    if (m.heldPresence) flushPresence(ws, m);
    m.lastSeq = seq;
    send(ws, frame);
  };

  const core: Core = {
    cfg,
    bus,
    log,
    metrics,
    reg,
    closing,
    detach,
    send,
    protoError,
    sendView,
    dropSlow,
    shed,
    flushPresence,
    publishTopic: () => {
      throw new Error('publishTopic used before the uWS app exists');
    },
  };
  return core;
}
