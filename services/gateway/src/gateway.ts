/**
 * The WebSocket gateway: authenticates sockets, turns client messages into bus
 * requests to the room's owner, and forwards each Delivery's pre-encoded frames
 * to the sockets of the viewers it hosts without touching the views inside.
 */
import { performance } from 'node:perf_hooks';
import { pino, type Logger } from 'pino';
import { ClientMessage, ERRORS, PROTOCOL_VERSION, subjects, type ErrorCode } from '@joke/protocol';
import { verifyPlayerToken } from '@joke/protocol/auth';
import type { Bus, BusSubscription } from '@joke/bus';
import uws, { uwsBinary, uwsNative, type us_listen_socket } from './uws.ts';
import { GatewayConfig, type GatewayConfigInput } from './config.ts';
import { createMetrics, type GatewayMetrics } from './metrics.ts';
import { Registry, type Membership, type QueueParams, type Role, type Sock, type SocketData } from './rooms.ts';
import { mountHttp } from './http.ts';

export interface GatewayDeps {
  bus: Bus;
  logger?: Logger;
  /** Node's default process metrics in this gateway's registry (off when embedded next to other services). */
  defaultMetrics?: boolean;
}

export interface Gateway {
  port: number;
  gatewayId: string;
  metrics: GatewayMetrics;
  /** Number of open sockets. */
  sockets(): number;
  close(): Promise<void>;
}

const TOO_MANY_ROOMS = '동시에 들어가 있을 수 있는 방이 너무 많아요. 다른 방에서 나간 뒤 다시 시도해 주세요';
const KNOWN_TYPES = new Set(['hello', 'join', 'leave', 'action', 'queue', 'unqueue', 'ping']);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const v = PROTOCOL_VERSION;

export async function startGateway(input: GatewayConfigInput, deps: GatewayDeps): Promise<Gateway> {
  const cfg = GatewayConfig.parse(input);
  const { bus } = deps;
  const log = (deps.logger ?? pino({ name: 'gateway' })).child({ gatewayId: cfg.gatewayId });
  if (uwsNative) log.info({ uwsNative, binary: uwsBinary }, 'uWebSockets.js native binary loaded');
  else log.warn({ uwsNative, binary: uwsBinary }, 'uWebSockets.js fell back to its slow JS implementation');

  const metrics = createMetrics(cfg.gatewayId, deps.defaultMetrics ?? false);
  const reg = new Registry();
  const subs: BusSubscription[] = [];
  let closing = false;
  let nextSocketId = 1;
  /** Handlers run detached from uWS callbacks; a bug in one must be logged, never crash the process. */
  const detach = (p: Promise<void>): void => {
    p.catch((err) => log.error({ err: String(err) }, 'message handler failed'));
  };

  // ---- sending -------------------------------------------------------------------------------

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

  // ---- bus requests with retry ---------------------------------------------------------------

  /**
   * A request that survives a room worker crash: each attempt waits commandTimeoutMs; a timeout
   * or "no responders" (the room is being restored elsewhere) is retried with the same payload,
   * so the same actionId, with a short backoff until retryBudgetMs. null = gave up.
   */
  const requestWithRetry = async (
    subject: string,
    data: string,
    op: string,
    roomId?: string,
  ): Promise<{ reply: string; tries: number } | null> => {
    const deadline = Date.now() + cfg.retryBudgetMs;
    for (let tries = 1; ; tries++) {
      try {
        const attempt = bus.request(subject, data, cfg.commandTimeoutMs);
        return { reply: await (roomId === undefined ? attempt : unlessOwnerDies(attempt, roomId)), tries };
      } catch (err) {
        metrics.busErrors.inc({ op });
        if (tries === 1) log.debug({ subject, err: String(err) }, 'bus request failed, retrying');
        // Capped low: the room usually reappears on another worker within DEAD_AFTER_MS, and every
        // ms of backoff past that moment adds to the resume pause (a "no responders" retry is cheap).
        const wait = Math.min(25 * 2 ** tries, 150);
        if (closing || Date.now() + wait >= deadline) {
          log.warn({ subject, tries }, 'bus request gave up');
          return null;
        }
        await sleep(wait);
      }
    }
  };

  /** Last heartbeat of each worker incarnation (`workerId/incarnation`), performance.now() ms. */
  const workerSeenAt = new Map<string, number>();
  const ownerSilent = (roomId: string): boolean => {
    const owner = reg.rooms.get(roomId)?.owner;
    const seen = owner ? workerSeenAt.get(owner) : undefined;
    return seen !== undefined && performance.now() - seen > cfg.ownerSilentMs;
  };

  /**
   * A request in flight to a worker that has just died would otherwise wait out the whole
   * commandTimeoutMs. When the room's owner misses its heartbeats the attempt is abandoned
   * (its late answer, if any, is ignored: the retry carries the same actionId) and retried
   * at once, which finds the room as soon as another worker has restored it.
   */
  const unlessOwnerDies = (attempt: Promise<string>, roomId: string): Promise<string> =>
    new Promise<string>((resolve, reject) => {
      let timer: NodeJS.Timeout | null = null;
      const check = () => {
        if (ownerSilent(roomId)) {
          timer = null;
          reject(new Error('room owner stopped sending heartbeats'));
        } else timer = setTimeout(check, 100);
      };
      timer = setTimeout(check, 250);
      attempt.then(
        (v) => {
          if (timer) clearTimeout(timer);
          resolve(v);
        },
        (e) => {
          if (timer) clearTimeout(timer);
          reject(e);
        },
      );
    });

  // ---- room membership -----------------------------------------------------------------------

  const frameSeq = (frame: string): number => {
    // Join replies are rare, so reading their seq by parsing is fine (deliveries carry it outside the frame).
    const seq = (JSON.parse(frame) as { seq?: unknown }).seq;
    return typeof seq === 'number' ? seq : 0;
  };

  const joinRequest = (roomId: string, userId: string, spectate: boolean) =>
    requestWithRetry(
      subjects.roomJoin(roomId),
      JSON.stringify({ v, userId, spectate, gatewayId: cfg.gatewayId }),
      'join',
    );

  const onJoin = async (ws: Sock, roomId: string, spectate: boolean): Promise<void> => {
    const d = ws.getUserData();
    const user = d.user!;
    let m = d.rooms.get(roomId);
    if (!m && d.rooms.size >= cfg.maxRoomsPerSocket) {
      metrics.rejects.inc({ reason: 'tooManyRooms' });
      sendJson(ws, { v, t: 'error', code: 'tooManyRooms', message: TOO_MANY_ROOMS, roomId });
      return;
    }
    if (!m) {
      m = { role: null, lastSeq: -1, early: [], wantsSpectate: spectate, joined: null };
      d.rooms.set(roomId, m);
      reg.room(roomId).joining.add(ws);
    }
    m.wantsSpectate = spectate;
    let settle = () => {};
    const joined = new Promise<void>((r) => (settle = r));
    m.joined = joined;
    try {
      await joinAnswered(ws, d, m, roomId, user.sub, spectate);
    } finally {
      if (m.joined === joined) m.joined = null;
      settle();
    }
  };

  const joinAnswered = async (
    ws: Sock,
    d: SocketData,
    m: Membership,
    roomId: string,
    userId: string,
    spectate: boolean,
  ): Promise<void> => {
    const user = { sub: userId };
    const res = await joinRequest(roomId, user.sub, spectate);
    if (d.closed || d.rooms.get(roomId) !== m) return;
    let reply: { ok: boolean; role?: Role; frame?: string; reason?: string } | null = null;
    try {
      reply = res ? JSON.parse(res.reply) : null;
    } catch {
      metrics.busErrors.inc({ op: 'join' });
    }
    if (!reply || !reply.ok || !reply.frame || (reply.role !== 'player' && reply.role !== 'spectator')) {
      if (m.role === null) {
        d.rooms.delete(roomId);
        reg.leaveRoom(roomId, user.sub, ws, null);
      }
      if (reply && !reply.ok && reply.reason) {
        metrics.rejects.inc({ reason: 'join' });
        sendJson(ws, { v, t: 'error', code: 'noRoom', message: reply.reason, roomId });
      } else protoError(ws, res ? 'unavailable' : 'noRoom');
      return;
    }
    const role = reply.role;
    m.role = role;
    reg.setRole(roomId, user.sub, ws, role);
    const early = m.early;
    m.early = null;
    // Resume: the join frame is the latest view even when this socket saw the same seq before.
    const seq = frameSeq(reply.frame);
    if (seq >= m.lastSeq) {
      m.lastSeq = seq - 1;
      sendView(ws, m, seq, reply.frame);
    }
    if (early)
      for (const f of early) if (f.viewer === (role === 'player' ? user.sub : null)) sendView(ws, m, f.seq, f.frame);
  };

  const publishPresence = (roomId: string, userId: string, left: boolean): void => {
    try {
      bus.publish(
        subjects.roomPresence(roomId),
        JSON.stringify({ v, userId, gatewayId: cfg.gatewayId, connected: false, ...(left ? { left: true } : {}) }),
      );
    } catch (err) {
      metrics.busErrors.inc({ op: 'presence' });
      log.warn({ roomId, err: String(err) }, 'presence publish failed');
    }
  };

  const leave = (ws: Sock, roomId: string, left: boolean): void => {
    const d = ws.getUserData();
    const m = d.rooms.get(roomId);
    if (!m || !d.user) return;
    d.rooms.delete(roomId);
    if (reg.leaveRoom(roomId, d.user.sub, ws, m.role)) publishPresence(roomId, d.user.sub, left);
  };

  /**
   * After a room changed owner (crash failover), the new owner may not know this gateway's
   * viewers yet: joining again registers them and brings each the latest view.
   */
  const refreshRoom = async (roomId: string): Promise<void> => {
    const r = reg.rooms.get(roomId);
    if (!r || r.refreshing) return;
    r.refreshing = true;
    try {
      const jobs: Promise<void>[] = [];
      for (const userId of [...r.players.keys()]) {
        jobs.push(
          joinRequest(roomId, userId, false).then((res) => {
            if (!res) return;
            const reply = JSON.parse(res.reply) as { ok: boolean; frame?: string };
            const socks = r.players.get(userId);
            if (!reply.ok || !reply.frame || !socks) return;
            const seq = frameSeq(reply.frame);
            for (const ws of socks) {
              const m = ws.getUserData().rooms.get(roomId);
              if (m) sendView(ws, m, seq, reply.frame);
            }
          }),
        );
      }
      const specUsers = new Set<string>();
      for (const ws of r.spectators) specUsers.add(ws.getUserData().user!.sub);
      for (const userId of specUsers) {
        jobs.push(
          joinRequest(roomId, userId, true).then((res) => {
            if (!res) return;
            const reply = JSON.parse(res.reply) as { ok: boolean; role?: Role; frame?: string };
            if (!reply.ok || !reply.frame || reply.role !== 'spectator') return;
            const seq = frameSeq(reply.frame);
            for (const ws of r.spectators) {
              const m = ws.getUserData().rooms.get(roomId);
              if (m && ws.getUserData().user!.sub === userId) sendView(ws, m, seq, reply.frame);
            }
          }),
        );
      }
      await Promise.allSettled(jobs);
    } finally {
      r.refreshing = false;
    }
  };

  // ---- client messages -----------------------------------------------------------------------

  const onAction = async (ws: Sock, roomId: string, actionId: string, action: unknown): Promise<void> => {
    const d = ws.getUserData();
    let m = d.rooms.get(roomId);
    if (m?.joined) {
      await m.joined;
      if (d.closed) return;
      m = d.rooms.get(roomId);
    }
    if (!m || m.role === null) {
      metrics.rejects.inc({ reason: 'notJoined' });
      sendJson(ws, { v, t: 'rejected', roomId, actionId, reason: ERRORS.notJoined });
      return;
    }
    const t0 = performance.now();
    // userId is always the token's subject: a client cannot act for anyone else.
    const cmd = JSON.stringify({ v, userId: d.user!.sub, actionId, action, gatewayId: cfg.gatewayId, at: Date.now() });
    const res = await requestWithRetry(subjects.roomCommand(roomId), cmd, 'command', roomId);
    if (d.closed) return;
    if (!res) {
      protoError(ws, 'unavailable', undefined, { roomId, actionId });
      return;
    }
    let reply: { ok: boolean; seq?: number; reason?: string };
    try {
      reply = JSON.parse(res.reply);
    } catch {
      metrics.busErrors.inc({ op: 'command' });
      protoError(ws, 'unavailable', undefined, { roomId, actionId });
      return;
    }
    if (reply.ok) sendJson(ws, { v, t: 'ack', roomId, actionId, seq: reply.seq });
    else {
      metrics.rejects.inc({ reason: 'game' });
      sendJson(ws, { v, t: 'rejected', roomId, actionId, reason: String(reply.reason) });
    }
    metrics.actionLatency.observe((performance.now() - t0) / 1000);
    if (res.tries > 1) detach(refreshRoom(roomId));
  };

  const queueRequest = (user: { sub: string; name: string }, q: QueueParams, cancel: boolean) =>
    requestWithRetry(
      subjects.queue,
      JSON.stringify({
        v,
        userId: user.sub,
        name: user.name,
        gatewayId: cfg.gatewayId,
        ...q,
        ...(cancel ? { cancel } : {}),
      }),
      'queue',
    );

  const onQueue = async (ws: Sock, q: QueueParams): Promise<void> => {
    const d = ws.getUserData();
    const user = d.user!;
    reg.queued.set(user.sub, q);
    const res = await queueRequest(user, q, false);
    const reply = res ? (JSON.parse(res.reply) as { ok: boolean; reason?: string }) : null;
    if (!reply?.ok && reg.queued.get(user.sub) === q) reg.queued.delete(user.sub);
    if (d.closed) return;
    if (reply?.ok) sendJson(ws, { v, t: 'queued', ...q });
    else if (reply) {
      metrics.rejects.inc({ reason: 'queue' });
      sendJson(ws, { v, t: 'error', code: 'queueRejected', message: String(reply.reason) });
    } else protoError(ws, 'unavailable');
  };

  const cancelQueue = (user: { sub: string; name: string }, q: QueueParams): void => {
    detach(queueRequest(user, q, true).then(() => undefined));
  };

  const onHello = async (ws: Sock, token: string): Promise<void> => {
    const d = ws.getUserData();
    d.authing = true;
    let claims: { sub: string; name: string } | null = null;
    try {
      claims = await verifyPlayerToken(cfg.jwtSecret, token);
    } catch (err) {
      log.debug({ socket: d.id, err: String(err) }, 'bad token');
    }
    d.authing = false;
    if (d.closed) return;
    if (!claims || (d.user && d.user.sub !== claims.sub)) protoError(ws, 'badToken');
    else {
      if (!d.user) {
        d.user = claims;
        reg.addUserSocket(claims.sub, ws);
        if (d.helloTimer) clearTimeout(d.helloTimer);
        d.helloTimer = null;
      }
      sendJson(ws, { v, t: 'welcome', userId: claims.sub, name: claims.name, serverTime: Date.now() });
    }
    const held = d.held;
    d.held = [];
    for (const text of held) if (!d.closed) handleText(ws, text);
  };

  const handleText = (ws: Sock, text: string): void => {
    const d = ws.getUserData();
    let raw: any;
    try {
      raw = JSON.parse(text);
    } catch {
      metrics.messagesIn.inc({ type: 'invalid' });
      return protoError(ws, 'malformed', 'JSON이 아니에요');
    }
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      metrics.messagesIn.inc({ type: 'invalid' });
      return protoError(ws, 'malformed', '객체가 아니에요');
    }
    if (raw.v !== PROTOCOL_VERSION) {
      metrics.messagesIn.inc({ type: 'invalid' });
      return protoError(ws, 'versionMismatch');
    }
    if (!KNOWN_TYPES.has(raw.t)) {
      metrics.messagesIn.inc({ type: 'invalid' });
      return protoError(ws, 'malformed', `알 수 없는 종류: ${String(raw.t).slice(0, 24)}`);
    }
    const parsed = ClientMessage.safeParse(raw);
    if (!parsed.success) {
      metrics.messagesIn.inc({ type: 'invalid' });
      const issue = parsed.error.issues[0];
      return protoError(ws, 'malformed', `${raw.t}: ${issue ? issue.path.join('.') || '형식' : '형식'} 확인 필요`);
    }
    const msg = parsed.data;
    metrics.messagesIn.inc({ type: msg.t });
    if (msg.t === 'hello') return detach(onHello(ws, msg.token));
    if (!d.user) return protoError(ws, 'unauthenticated');
    if (msg.t === 'ping') return sendJson(ws, { v, t: 'pong', at: msg.at, serverTime: Date.now() });
    switch (msg.t) {
      case 'join':
        return detach(onJoin(ws, msg.roomId, msg.spectate ?? false));
      case 'leave':
        return leave(ws, msg.roomId, true);
      case 'action':
        return detach(onAction(ws, msg.roomId, msg.actionId, msg.action));
      case 'queue':
        return detach(onQueue(ws, { game: msg.game, mode: msg.mode, players: msg.players }));
      case 'unqueue': {
        const q = reg.queued.get(d.user.sub);
        reg.queued.delete(d.user.sub);
        if (q) cancelQueue(d.user, q);
        return;
      }
    }
  };

  /** Token bucket: refilled continuously at ratePerSecond up to rateBurst. */
  const takeToken = (d: SocketData): boolean => {
    const now = performance.now();
    d.tokens = Math.min(cfg.rateBurst, d.tokens + ((now - d.refilledAt) / 1000) * cfg.ratePerSecond);
    d.refilledAt = now;
    if (d.tokens < 1) return false;
    d.tokens -= 1;
    return true;
  };

  // ---- bus subscriptions ---------------------------------------------------------------------

  const onDelivery = (data: string): void => {
    let del: { roomId: string; seq: number; frames: { viewer: string | null; frame: string }[] };
    try {
      del = JSON.parse(data);
    } catch {
      metrics.busErrors.inc({ op: 'deliver' });
      return;
    }
    const r = reg.rooms.get(del.roomId);
    if (!r || !Array.isArray(del.frames)) return;
    for (const f of del.frames) {
      if (f.viewer === null) {
        for (const ws of r.spectators) {
          const m = ws.getUserData().rooms.get(del.roomId);
          if (m) sendView(ws, m, del.seq, f.frame);
        }
      } else {
        const socks = r.players.get(f.viewer);
        if (socks)
          for (const ws of socks) {
            const m = ws.getUserData().rooms.get(del.roomId);
            if (m) sendView(ws, m, del.seq, f.frame);
          }
      }
      if (r.joining.size > 0)
        for (const ws of r.joining) {
          const m = ws.getUserData().rooms.get(del.roomId);
          if (m?.early && m.early.length < 64) m.early.push({ viewer: f.viewer, seq: del.seq, frame: f.frame });
        }
    }
  };

  const onMatched = (data: string): void => {
    let q: { userId: string; roomId: string; game: string; mode: string };
    try {
      q = JSON.parse(data);
    } catch {
      metrics.busErrors.inc({ op: 'matched' });
      return;
    }
    const socks = reg.users.get(q.userId);
    if (!socks) return;
    const text = JSON.stringify({ v, t: 'matched', roomId: q.roomId, game: q.game, mode: q.mode });
    reg.queued.delete(q.userId);
    for (const ws of socks) send(ws, text);
  };

  const onWorkerHeartbeat = (data: string): void => {
    let hb: { workerId: string; roomIds: string[]; draining: boolean; incarnation?: string };
    try {
      hb = JSON.parse(data);
    } catch {
      return;
    }
    // A worker restarted under the same id is a new process that knows none of our viewers.
    const owner = `${hb.workerId}/${hb.incarnation ?? ''}`;
    workerSeenAt.set(owner, performance.now());
    // A draining worker still lists rooms it is handing over; only a live owner's claim counts.
    if (hb.draining || !Array.isArray(hb.roomIds)) return;
    for (const roomId of hb.roomIds) {
      const r = reg.rooms.get(roomId);
      if (!r) continue;
      if (r.owner !== null && r.owner !== owner) {
        log.info({ roomId, from: r.owner, to: owner }, 'room changed owner, re-joining its viewers');
        detach(refreshRoom(roomId));
      }
      r.owner = owner;
    }
  };

  subs.push(bus.subscribe(subjects.gatewayDeliver(cfg.gatewayId), (m) => onDelivery(m.data)));
  subs.push(bus.subscribe(subjects.gatewayMatched(cfg.gatewayId), (m) => onMatched(m.data)));
  subs.push(bus.subscribe(subjects.workerHeartbeat, (m) => onWorkerHeartbeat(m.data)));

  let busHealthy = true;
  const heartbeat = (): void => {
    // Forget workers gone for a minute (their rooms have long moved).
    const cutoff = performance.now() - 60_000;
    for (const [w, at] of workerSeenAt) if (at < cutoff) workerSeenAt.delete(w);
    try {
      bus.publish(
        subjects.gatewayHeartbeat,
        JSON.stringify({ v, gatewayId: cfg.gatewayId, sockets: reg.sockets.size, at: Date.now() }),
      );
      busHealthy = true;
    } catch (err) {
      busHealthy = false;
      metrics.busErrors.inc({ op: 'heartbeat' });
      log.warn({ err: String(err) }, 'heartbeat publish failed');
    }
  };
  heartbeat();
  const heartbeatTimer = setInterval(heartbeat, cfg.heartbeatMs);

  // ---- uWS app -------------------------------------------------------------------------------

  const app = uws.App();
  app.ws<SocketData>('/ws', {
    // Above the soft limit (answered with `error tooLarge`) uWS closes the socket itself.
    maxPayloadLength: cfg.hardMaxFrameBytes,
    maxBackpressure: cfg.maxBackpressureBytes,
    closeOnBackpressureLimit: 0,
    idleTimeout: cfg.idleTimeoutSec,
    sendPingsAutomatically: true,
    compression: uws.DISABLED,
    upgrade: (res, req, context) => {
      if (closing) {
        res.writeStatus('503 Service Unavailable').end('closing');
        return;
      }
      const data: SocketData = {
        id: nextSocketId++,
        user: null,
        authing: false,
        held: [],
        tokens: cfg.rateBurst,
        refilledAt: performance.now(),
        rateErrorAt: 0,
        rooms: new Map(),
        closed: false,
        dropping: false,
        helloTimer: null,
      };
      res.upgrade(
        data,
        req.getHeader('sec-websocket-key'),
        req.getHeader('sec-websocket-protocol'),
        req.getHeader('sec-websocket-extensions'),
        context,
      );
    },
    open: (ws) => {
      reg.sockets.add(ws);
      metrics.sockets.set(reg.sockets.size);
      const d = ws.getUserData();
      d.helloTimer = setTimeout(() => {
        if (d.closed || d.user) return;
        protoError(ws, 'unauthenticated', '시간 초과');
        ws.end(4401, 'no hello');
      }, cfg.helloTimeoutMs);
    },
    message: (ws, message) => {
      const d = ws.getUserData();
      if (!takeToken(d)) {
        const now = performance.now();
        metrics.rejects.inc({ reason: 'rateLimited' });
        // One error per second at most, so a flood cannot turn the gateway into an amplifier.
        if (now - d.rateErrorAt >= 1000) {
          d.rateErrorAt = now;
          sendJson(ws, { v, t: 'error', code: 'rateLimited', message: ERRORS.rateLimited });
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
    },
    close: (ws) => {
      const d = ws.getUserData();
      d.closed = true;
      if (d.helloTimer) clearTimeout(d.helloTimer);
      reg.sockets.delete(ws);
      metrics.sockets.set(reg.sockets.size);
      if (!d.user) return;
      for (const roomId of [...d.rooms.keys()]) {
        const m = d.rooms.get(roomId)!;
        d.rooms.delete(roomId);
        if (reg.leaveRoom(roomId, d.user.sub, ws, m.role)) publishPresence(roomId, d.user.sub, false);
      }
      reg.removeUserSocket(d.user.sub, ws);
      // A user who closed every socket here is no longer waiting for a table.
      const q = reg.queued.get(d.user.sub);
      if (q && !reg.users.has(d.user.sub)) {
        reg.queued.delete(d.user.sub);
        cancelQueue(d.user, q);
      }
    },
  });
  mountHttp(app, { metrics, ready: () => !closing && busHealthy });

  const listenSocket = await new Promise<us_listen_socket>((resolve, reject) => {
    app.listen(cfg.host, cfg.port, (ls) =>
      ls ? resolve(ls) : reject(new Error(`cannot listen on ${cfg.host}:${cfg.port}`)),
    );
  });
  const port = uws.us_socket_local_port(listenSocket as never);
  log.info({ host: cfg.host, port }, 'gateway listening (WebSocket /ws, GET /healthz /readyz /metrics)');

  return {
    port,
    gatewayId: cfg.gatewayId,
    metrics,
    sockets: () => reg.sockets.size,
    close: async () => {
      if (closing) return;
      closing = true;
      clearInterval(heartbeatTimer);
      for (const s of subs) s.unsubscribe();
      uws.us_listen_socket_close(listenSocket);
      for (const ws of [...reg.sockets]) if (!ws.getUserData().closed) ws.end(1001, 'server shutting down');
      log.info('gateway closed');
    },
  };
}
