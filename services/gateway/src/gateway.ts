/**
 * The WebSocket gateway: authenticates sockets, turns client messages into bus
 * requests to the room's owner, and forwards each Delivery's pre-encoded frames
 * to the sockets of the viewers it hosts without touching the views inside.
 * Wiring: one Session per socket, one RoomRoute per room (in the Registry), one
 * Requester for bus requests, built here in dependency order from the parsed config.
 * State: the open/accepting flags, the heartbeat timer, the bus subscriptions.
 * A socket handler that throws closes only that socket (1011, logged); an
 * upgrade that throws is answered 500; neither reaches the event loop.
 */
import { pino, type Logger } from 'pino';
import { contract, emit, listen, PROTOCOL_VERSION } from '@joke/protocol';
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
import { Registry } from './rooms.ts';
import { Session, type SessionShared, type Sock, type UpgradeData } from './session.ts';
import { Shedder } from './shed.ts';
import { LateCommands } from './late-commands.ts';
import { mountHttp } from './http.ts';
import { Requester } from './requests.ts';
import { AccessCheck } from './access.ts';
import { Memberships } from './membership.ts';
import { ClientHandlers } from './client.ts';
import { Inbound } from './inbound.ts';
import { GatewayChat } from './chat.ts';
import { maxSocketsOf } from './socket-capacity.ts';
import { SocketLimits } from './limits.ts';

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
  const subs: BusSubscription[] = [];
  let closing = false;
  let accepting = true;
  let nextSocketId = 1;
  const isClosing = (): boolean => closing;
  // Handlers run detached from uWS callbacks; a bug in one must be logged, never crash the process.
  const detach = (p: Promise<void>): void => {
    p.catch((err) => log.error({ err: String(err) }, 'message handler failed'));
  };

  // Built in dependency order, each with what it uses, nothing patched in afterwards: the uWS app comes
  // first because the rooms publish their spectator frames on it.
  const app = uws.App();
  // The process's loop delay is measured for shedding on a real clock only (a fake clock's test is not this box).
  const shed = new Shedder(
    { shedLoopLagMs: cfg.shedLoopLagMs, shedBufferedBytes: cfg.shedBufferedBytes },
    { shed: (kind) => metrics.framesShed.inc({ kind }), resync: () => metrics.spectatorResyncs.inc() },
    clock.real,
  );
  const registry = new Registry({
    publish: (topic, frame) => void app.publish(topic, frame, false, false),
    shed,
    metrics,
  });
  const sessionShared: SessionShared = { cfg, log, metrics, shed };
  const requests = new Requester({
    bus,
    cfg,
    metrics,
    log,
    clock,
    ownerOf: (roomId) => registry.ownerOf(roomId),
    closing: isClosing,
  });
  const access = new AccessCheck({ requests, log });
  const memberships = new Memberships({
    cfg,
    bus,
    log,
    metrics,
    registry,
    requests,
    access,
    closing: isClosing,
    detach,
  });
  const chat = new GatewayChat({ cfg, bus, log, metrics, registry });
  const limits = new SocketLimits({ cfg, metrics, log, registry, detach });
  // Past it, new sockets are refused at the upgrade: the crowd this process already holds keeps its descriptors.
  const maxSockets = maxSocketsOf(cfg.maxSockets);
  const inbound = new Inbound({ cfg, bus, log, metrics, registry, requests, memberships, detach });
  const client = new ClientHandlers({
    cfg,
    log,
    metrics,
    registry,
    requests,
    memberships,
    chat,
    limits,
    clock,
    inbound,
    detach,
    lateCommands: new LateCommands(cfg.admitMaxCommandMs),
  });
  subs.push(
    listen(bus, contract.gatewayChat.at(cfg.gatewayId), chat.onChatDelivery, () =>
      metrics.busErrors.inc({ op: 'chat' }),
    ),
    ...inbound.subscribe(),
  );

  let busHealthy = true;
  const heartbeat = (): void => {
    requests.prune();
    // Topic publishes do not report a full socket: spectators past the bound are found here.
    for (const s of registry.sessions.values()) s.dropSlow();
    shed.tick(registry.sessions.values(), memberships.resyncSpectators);
    try {
      emit(bus, contract.gatewayHeartbeat, {
        v: PROTOCOL_VERSION,
        gatewayId: cfg.gatewayId,
        sockets: registry.sessions.size,
        at: clock.now(),
      });
      busHealthy = true;
    } catch (err) {
      busHealthy = false;
      metrics.busErrors.inc({ op: 'heartbeat' });
      log.warn({ err: String(err) }, 'heartbeat publish failed');
    }
  };
  heartbeat();
  const heartbeatTimer = clock.setInterval(heartbeat, cfg.heartbeatMs);

  /**
   * A socket handler that throws (a bug: every frame is checked before it is acted on) closes that socket
   * with 1011 and is logged; the process and every other socket go on.
   */
  const guarded =
    <A extends unknown[]>(fn: (s: Session, ...rest: A) => void) =>
    (ws: Sock, ...rest: A): void => {
      const s = registry.sessions.get(ws);
      if (!s) return;
      try {
        fn(s, ...rest);
      } catch (err) {
        log.error({ err, socket: s.id }, 'socket handler failed');
        metrics.rejects.inc({ reason: 'internal' });
        s.end(1011, 'internal error');
      }
    };

  /** A new socket's HTTP upgrade: refused (503, 429) or accepted with the address it counts against. */
  const upgrade = (res: HttpResponse, req: HttpRequest, context: us_socket_context_t): void => {
    if (closing || !accepting) {
      res.writeStatus('503 Service Unavailable').end('closing');
      return;
    }
    if (registry.sessions.size >= maxSockets) {
      metrics.socketsRefused.inc({ scope: 'gateway' });
      res.writeStatus('503 Service Unavailable').writeHeader('retry-after', '5').end('capacity');
      return;
    }
    const ip = limits.addressOf(res, req);
    if (!limits.admitAddress(ip)) {
      res.writeStatus('429 Too Many Requests').end('too many sockets from this address');
      return;
    }
    const data: UpgradeData = { ip };
    res.upgrade(
      data,
      req.getHeader('sec-websocket-key'),
      req.getHeader('sec-websocket-protocol'),
      req.getHeader('sec-websocket-extensions'),
      context,
    );
  };

  /** The open socket's Session, built with everything it needs, and its hello deadline. */
  const open = (ws: Sock): void => {
    const { ip } = ws.getUserData();
    const s = new Session({ id: nextSocketId++, ws, ip, now: clock.now(), shared: sessionShared });
    registry.sessions.set(ws, s);
    metrics.sockets.set(registry.sessions.size);
    limits.opened(ip);
    s.helloTimer = clock.setTimeout(() => {
      if (s.closed || s.user) return;
      s.protoError('unauthenticated', '시간 초과');
      s.ws.end(4401, 'no hello');
    }, cfg.helloTimeoutMs);
  };

  const close = (s: Session): void => {
    s.closed = true;
    clock.clearTimeout(s.helloTimer);
    registry.sessions.delete(s.ws);
    metrics.sockets.set(registry.sessions.size);
    limits.closed(s.ip);
    if (!s.user) return;
    const user = s.user;
    for (const roomId of [...s.rooms.keys()]) memberships.leave(s, roomId, false);
    registry.removeUserSession(user.sub, s);
    // A user who closed every socket here is no longer waiting for a table.
    const q = registry.queued.get(user.sub);
    if (q && !registry.users.has(user.sub)) {
      registry.queued.delete(user.sub);
      client.cancelQueue(user, q);
    }
  };

  app.ws<UpgradeData>('/ws', {
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
    open: (ws) => {
      try {
        open(ws);
      } catch (err) {
        log.error({ err }, 'socket handler failed');
        metrics.rejects.inc({ reason: 'internal' });
        ws.end(1011, 'internal error');
      }
    },
    message: guarded((s, message: ArrayBuffer) => {
      if (!s.takeToken(clock.now())) {
        const now = clock.now();
        metrics.rejects.inc({ reason: 'rateLimited' });
        // One error per second at most, so a flood cannot turn the gateway into an amplifier.
        if (now - s.rateErrorAt >= 1000) {
          s.rateErrorAt = now;
          s.send(encodeError('rateLimited'));
        }
        return;
      }
      if (message.byteLength > cfg.maxFrameBytes) return s.protoError('tooLarge', `최대 ${cfg.maxFrameBytes}바이트`);
      // The ArrayBuffer is neutered when this callback returns: decode now.
      const text = Buffer.from(message).toString('utf8');
      if (s.authing) {
        if (s.held.length >= cfg.maxPendingBeforeAuth) return s.protoError('rateLimited');
        s.held.push(text);
        return;
      }
      client.handleText(s, text);
    }),
    close: guarded(close),
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
    sockets: () => registry.sessions.size,
    ready,
    stopAccepting: () => {
      accepting = false;
    },
    openSockets: () =>
      [...registry.sessions.values()].map((s) => ({ end: (code: number, reason: string) => s.end(code, reason) })),
    close: async () => {
      if (closing) return;
      closing = true;
      clock.clearInterval(heartbeatTimer);
      shed.close();
      for (const s of subs) s.unsubscribe();
      uws.us_listen_socket_close(listenSocket);
      for (const s of [...registry.sessions.values()]) s.end(1001, 'server shutting down');
      log.info('gateway closed');
    },
  };
}
