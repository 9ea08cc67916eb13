/**
 * The WebSocket gateway: authenticates sockets, turns client messages into bus
 * requests to the room's owner, and forwards each Delivery's pre-encoded frames
 * to the sockets of the viewers it hosts without touching the views inside.
 * A socket handler that throws closes only that socket (1011, logged); an
 * upgrade that throws is answered 500; neither reaches the event loop.
 */
import { pino, type Logger } from 'pino';
import { contract, emit, listen } from '@joke/protocol';
import { encodeError } from '@joke/protocol/wire';
import type { Bus, BusSubscription } from '@joke/bus';
import { systemClock, type Clock } from '@joke/bus/clock';
import uws, {
  LISTEN_EXCLUSIVE_PORT,
  uwsBinary,
  uwsNative,
  type HttpRequest,
  type HttpResponse,
  type us_listen_socket,
  type us_socket_context_t,
} from './uws.ts';
import { GatewayConfig, type GatewayConfigInput } from './config.ts';
import { createMetrics, type GatewayMetrics } from './metrics.ts';
import { Registry, type Sock, type SocketData } from './rooms.ts';
import { mountHttp } from './http.ts';
import { createCore, v } from './core.ts';
import { createRequester } from './requests.ts';
import { createMemberships } from './membership.ts';
import { createClientHandlers } from './client.ts';
import { createDeliver, subscribeInbound } from './inbound.ts';
import { createChat } from './chat.ts';
import { createSocketLimits } from './limits.ts';

export interface GatewayDeps {
  bus: Bus;
  logger?: Logger;
  /** Node's default process metrics in this gateway's registry (off when embedded next to other services). */
  defaultMetrics?: boolean;
  /** Time of the gateway's own timers (hello timeout, heartbeat, request retries, rate bucket); tests pass a FakeClock. */
  clock?: Clock;
}

export interface Gateway {
  port: number;
  gatewayId: string;
  metrics: GatewayMetrics;
  /** Number of open sockets. */
  sockets(): number;
  /** May take sockets: not closing or draining, and its bus is up (readiness). */
  ready(): boolean;
  /** Rolling-update shutdown (shutdown.ts): refuse new sockets and turn not-ready; open sockets keep working. */
  stopAccepting(): void;
  /** The open sockets now, each closable once (closing one already gone does nothing). */
  openSockets(): { end(code: number, reason: string): void }[];
  close(): Promise<void>;
}

export async function startGateway(input: GatewayConfigInput, deps: GatewayDeps): Promise<Gateway> {
  const cfg = GatewayConfig.parse(input);
  const { bus } = deps;
  const clock = deps.clock ?? systemClock;
  const log = (deps.logger ?? pino({ name: 'gateway' })).child({ gatewayId: cfg.gatewayId });
  if (uwsNative) log.info({ uwsNative, binary: uwsBinary }, 'uWebSockets.js native binary loaded');
  else log.warn({ uwsNative, binary: uwsBinary }, 'uWebSockets.js fell back to its slow JS implementation');

  const metrics = createMetrics(cfg.gatewayId, deps.defaultMetrics ?? false);
  const reg = new Registry();
  const subs: BusSubscription[] = [];
  let closing = false;
  let accepting = true;
  let nextSocketId = 1;
  const core = createCore(cfg, bus, log, metrics, reg, () => closing, clock.real);
  const { protoError, send } = core;
  const requests = createRequester(core, clock);
  const rooms = createMemberships(core, requests);
  const chat = createChat(core);
  const limits = createSocketLimits(core);
  const deliver = createDeliver(core, requests, rooms);
  const { handleText, takeToken, cancelQueue } = createClientHandlers(
    core,
    requests,
    rooms,
    chat,
    limits,
    clock,
    deliver,
  );
  const { publishPresence } = rooms;
  subs.push(
    listen(bus, contract.gatewayChat.at(cfg.gatewayId), chat.onChatDelivery, () =>
      metrics.busErrors.inc({ op: 'chat' }),
    ),
  );

  let busHealthy = true;
  const heartbeat = (): void => {
    requests.prune();
    // Topic publishes do not report a full socket: spectators past the bound are found here.
    for (const ws of reg.sockets) core.dropSlow(ws);
    core.shed.tick(reg, core.flushPresence, rooms.resyncSpectators);
    try {
      emit(bus, contract.gatewayHeartbeat, { v, gatewayId: cfg.gatewayId, sockets: reg.sockets.size, at: clock.now() });
      busHealthy = true;
    } catch (err) {
      busHealthy = false;
      metrics.busErrors.inc({ op: 'heartbeat' });
      log.warn({ err: String(err) }, 'heartbeat publish failed');
    }
  };
  // ---- uWS app -------------------------------------------------------------------------------

  const app = uws.App();
  core.publishTopic = (topic, frame) => void app.publish(topic, frame, false, false);
  subs.push(...subscribeInbound(core, requests, deliver));
  heartbeat();
  const heartbeatTimer = clock.setInterval(heartbeat, cfg.heartbeatMs);

  /**
   * A socket handler that throws (a bug: every frame is checked before it is acted on) closes that socket
   * with 1011 and is logged; the process and every other socket go on.
   */
  const guarded =
    <A extends unknown[]>(fn: (ws: Sock, ...rest: A) => void) =>
    (ws: Sock, ...rest: A): void => {
      try {
        fn(ws, ...rest);
      } catch (err) {
        const d = ws.getUserData();
        log.error({ err, socket: d.id }, 'socket handler failed');
        metrics.rejects.inc({ reason: 'internal' });
        if (!d.closed) ws.end(1011, 'internal error');
      }
    };

  /** A new socket's HTTP upgrade: refused (503, 429) or accepted with its per-socket state. */
  const upgrade = (res: HttpResponse, req: HttpRequest, context: us_socket_context_t): void => {
    if (closing || !accepting) {
      res.writeStatus('503 Service Unavailable').end('closing');
      return;
    }
    const ip = limits.addressOf(res, req);
    if (!limits.admitAddress(ip)) {
      res.writeStatus('429 Too Many Requests').end('too many sockets from this address');
      return;
    }
    const data: SocketData = {
      id: nextSocketId++,
      user: null,
      authing: false,
      held: [],
      tokens: cfg.rateBurst,
      refilledAt: clock.now(),
      rateErrorAt: -Infinity, // so the first flood is told even in a process younger than a second
      rooms: new Map(),
      closed: false,
      dropping: false,
      helloTimer: null,
      ip,
      pending: 0,
    };
    res.upgrade(
      data,
      req.getHeader('sec-websocket-key'),
      req.getHeader('sec-websocket-protocol'),
      req.getHeader('sec-websocket-extensions'),
      context,
    );
  };

  app.ws<SocketData>('/ws', {
    // Above the soft limit (answered with `error tooLarge`) uWS closes the socket itself.
    maxPayloadLength: cfg.hardMaxFrameBytes,
    maxBackpressure: cfg.maxBackpressureBytes,
    closeOnBackpressureLimit: 0,
    idleTimeout: cfg.idleTimeoutSec,
    sendPingsAutomatically: true,
    compression: uws.DISABLED,
    upgrade: (res, req, context) => {
      try {
        upgrade(res, req, context);
      } catch (err) {
        log.error({ err }, 'upgrade handler failed');
        metrics.rejects.inc({ reason: 'internal' });
        try {
          res.writeStatus('500 Internal Server Error').end('internal error');
        } catch {
          // Already answered or upgraded: nothing left to tell this request.
        }
      }
    },
    open: guarded((ws) => {
      reg.sockets.add(ws);
      metrics.sockets.set(reg.sockets.size);
      const d = ws.getUserData();
      limits.opened(d.ip);
      d.helloTimer = clock.setTimeout(() => {
        if (d.closed || d.user) return;
        protoError(ws, 'unauthenticated', '시간 초과');
        ws.end(4401, 'no hello');
      }, cfg.helloTimeoutMs);
    }),
    message: guarded((ws, message: ArrayBuffer) => {
      const d = ws.getUserData();
      if (!takeToken(d)) {
        const now = clock.now();
        metrics.rejects.inc({ reason: 'rateLimited' });
        // One error per second at most, so a flood cannot turn the gateway into an amplifier.
        if (now - d.rateErrorAt >= 1000) {
          d.rateErrorAt = now;
          send(ws, encodeError('rateLimited'));
        }
        return;
      }
      if (message.byteLength > cfg.maxFrameBytes) return protoError(ws, 'tooLarge', `최대 ${cfg.maxFrameBytes}바이트`);
      // The ArrayBuffer is neutered when this callback returns: decode now.
      const text = Buffer.from(message).toString('utf8');
      if (d.authing) {
        if (d.held.length >= cfg.maxPendingBeforeAuth) return protoError(ws, 'rateLimited');
        d.held.push(text);
        return;
      }
      handleText(ws, text);
    }),
    close: guarded((ws) => {
      const d = ws.getUserData();
      d.closed = true;
      clock.clearTimeout(d.helloTimer);
      reg.sockets.delete(ws);
      metrics.sockets.set(reg.sockets.size);
      limits.closed(d.ip);
      if (!d.user) return;
      for (const roomId of [...d.rooms.keys()]) {
        const m = d.rooms.get(roomId)!;
        d.rooms.delete(roomId);
        if (reg.leaveRoom(roomId, d.user.sub, ws, m.role)) publishPresence(roomId, d.user.sub, false, m.role);
      }
      reg.removeUserSocket(d.user.sub, ws);
      // A user who closed every socket here is no longer waiting for a table.
      const q = reg.queued.get(d.user.sub);
      if (q && !reg.users.has(d.user.sub)) {
        reg.queued.delete(d.user.sub);
        cancelQueue(d.user, q);
      }
    }),
  });
  const ready = (): boolean => !closing && accepting && busHealthy && (bus.connected?.() ?? true);
  mountHttp(app, { ready });

  const listenSocket = await new Promise<us_listen_socket>((resolve, reject) => {
    // Exclusive (LIBUS_LISTEN_EXCLUSIVE_PORT): uWS's default SO_REUSEPORT lets a second gateway share the
    // port silently. The (host, port, options) overload is declared in uws.ts.
    app.listen(cfg.host, cfg.port, LISTEN_EXCLUSIVE_PORT, (ls) =>
      ls ? resolve(ls) : reject(new Error(`cannot listen on ${cfg.host}:${cfg.port} (port in use?)`)),
    );
  });
  const port = uws.us_socket_local_port(listenSocket as never);
  log.info({ host: cfg.host, port }, 'gateway listening (WebSocket /ws, GET /healthz /readyz)');

  return {
    port,
    gatewayId: cfg.gatewayId,
    metrics,
    sockets: () => reg.sockets.size,
    ready,
    stopAccepting: () => {
      accepting = false;
    },
    openSockets: () =>
      [...reg.sockets].map((ws) => ({
        end: (code: number, reason: string) => {
          if (!ws.getUserData().closed) ws.end(code, reason);
        },
      })),
    close: async () => {
      if (closing) return;
      closing = true;
      clock.clearInterval(heartbeatTimer);
      core.shed.close();
      for (const s of subs) s.unsubscribe();
      uws.us_listen_socket_close(listenSocket);
      for (const ws of [...reg.sockets]) if (!ws.getUserData().closed) ws.end(1001, 'server shutting down');
      log.info('gateway closed');
    },
  };
}
