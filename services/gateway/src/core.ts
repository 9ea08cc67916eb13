/**
 * What every part of the gateway shares: configuration, bus, logging, metrics,
 * the registry of sockets and rooms, and the ways to write to a socket.
 */
import type { Logger } from 'pino';
import type { Bus } from '@joke/bus';
import { ERRORS, PROTOCOL_VERSION, type ErrorCode } from '@joke/protocol';
import type { GatewayConfig } from './config.ts';
import type { GatewayMetrics } from './metrics.ts';
import type { Membership, Registry, Sock } from './rooms.ts';

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
  send(ws: Sock, text: string): void;
  sendJson(ws: Sock, msg: object): void;
  protoError(ws: Sock, code: ErrorCode, detail?: string, extra?: { roomId: string; actionId: string }): void;
  sendView(ws: Sock, m: Membership, seq: number, frame: string): void;
}

export function createCore(
  cfg: GatewayConfig,
  bus: Bus,
  log: Logger,
  metrics: GatewayMetrics,
  reg: Registry,
  closing: () => boolean,
): Core {
  const detach = (p: Promise<void>): void => {
    p.catch((err) => log.error({ err: String(err) }, 'message handler failed'));
  };

  const send = (ws: Sock, text: string): void => {
    const d = ws.getUserData();
    if (d.closed || d.dropping) return;
    const status = ws.send(text, false, false);
    metrics.messagesOut.inc();
    // 2 = dropped: the socket already holds maxBackpressureBytes unsent. Holding more would let one
    // stalled client grow the gateway's memory without bound, so it is cut loose and resumes by reconnecting.
    if (status === 2 || ws.getBufferedAmount() > cfg.maxBackpressureBytes) {
      d.dropping = true;
      metrics.slowConsumers.inc();
      log.warn({ socket: d.id, user: d.user?.sub, buffered: ws.getBufferedAmount() }, 'slow consumer dropped');
      // Ending runs the close handler synchronously; deferring keeps delivery loops simple.
      queueMicrotask(() => {
        if (!d.closed) ws.end(4008, 'slow consumer');
      });
    }
  };
  const sendJson = (ws: Sock, msg: object): void => send(ws, JSON.stringify(msg));
  const protoError = (ws: Sock, code: ErrorCode, detail?: string, extra?: { roomId: string; actionId: string }) => {
    metrics.rejects.inc({ reason: code });
    const message = detail ? `${ERRORS[code]} (${detail})` : ERRORS[code];
    sendJson(ws, { v, t: 'error', code, message, ...extra });
  };

  /**
   * Sends a view frame unless this socket already has that transition or a newer one.
   * Deliveries also carry `presence` frames, which repeat the current seq: those go out
   * unless a newer view already did. The kind is read from the frame's leading `"t":"…"`
   * (frames are encoded as {v, t, …}) so the view itself is never parsed.
   */
  const sendView = (ws: Sock, m: Membership, seq: number, frame: string): void => {
    const i = frame.indexOf('"t":"');
    if (i >= 0 && i < 32 && !frame.startsWith('view"', i + 5)) {
      if (seq >= m.lastSeq) send(ws, frame);
      return;
    }
    if (seq <= m.lastSeq) return;
    m.lastSeq = seq;
    send(ws, frame);
  };

  return { cfg, bus, log, metrics, reg, closing, detach, send, sendJson, protoError, sendView };
}
