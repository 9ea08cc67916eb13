/**
 * Room membership of sessions: join (with the frames that race the join reply), leave, presence towards
 * the room's worker, and re-joining a room's viewers after the room changed owner.
 * State: per session its Memberships (session.ts) and per room its RoomRoute (room-route.ts); nothing here.
 * Failure modes: a join nobody answers is retried only while its socket is open and still in the room,
 * then refused: `noRoom` if nobody ever served the room, `capacity` if a worker holds it but was too slow
 * to answer within the retry budget or time, or refused it for load (issue 37: shed load, counted in
 * joke_gateway_admission_refused_total, not an error; the client joins again shortly, as it would after
 * `unavailable`), `unavailable` only when the gateway itself is closing; a private room's join waits
 * for the lobby (access.ts); a presence publish that fails is counted and logged (the worker drops a
 * silent gateway's viewers anyway).
 */
import type { Logger } from 'pino';
import type { Bus } from '@joke/bus';
import { contract, emit, PROTOCOL_VERSION as v, type bus as wire } from '@joke/protocol';
import { encodeError } from '@joke/protocol/wire';
import type { GatewayConfig } from './config.ts';
import type { GatewayMetrics } from './metrics.ts';
import { shedReason, type Outcome, type Requester } from './requests.ts';
import type { AccessCheck } from './access.ts';
import type { Registry } from './rooms.ts';
import type { Membership, Role, Session } from './session.ts';

export interface MembershipOptions {
  cfg: GatewayConfig;
  bus: Bus;
  log: Logger;
  metrics: GatewayMetrics;
  registry: Registry;
  requests: Requester;
  access: AccessCheck;
  closing(): boolean;
  detach(p: Promise<void>): void;
}

export class Memberships {
  constructor(private readonly o: MembershipOptions) {}

  /**
   * The join's reply (null = no worker answered within the retry budget); it also tells who runs the room.
   * `client`: a client's join (admission: new work, on the admission retry budget, requests.ts), with what
   * the request heard and why it gave up; without it, a re-join of viewers after the room moved (a playing
   * table's, on the commands' budget).
   */
  private async joinRequest(
    roomId: string,
    ask: { userId: string; spectate: boolean },
    wanted: () => boolean,
    client?: { heard: { someone: boolean }; outcome: Outcome },
  ): Promise<wire.JoinReply | null> {
    const { cfg, registry, requests } = this.o;
    const res = await requests.request(
      contract.roomJoin.at(roomId),
      { v, userId: ask.userId, spectate: ask.spectate, gatewayId: cfg.gatewayId },
      client
        ? { op: 'join', wanted, heard: client.heard, outcome: client.outcome, admission: true }
        : { op: 'join', wanted },
    );
    if (res?.reply.ok) {
      const r = registry.rooms.get(roomId);
      if (r && r.owner !== res.reply.owner) {
        const moved = r.owner !== null;
        r.owner = res.reply.owner;
        // A join answered by a new owner is the same sign as its first delivery (inbound.ts).
        if (moved) requests.roomMoved(roomId);
      }
    }
    return res ? res.reply : null;
  }

  async join(s: Session, roomId: string, spectate: boolean): Promise<void> {
    let m = s.rooms.get(roomId);
    if (!m && s.rooms.size >= this.o.cfg.maxRoomsPerSocket) {
      this.o.metrics.rejects.inc({ reason: 'tooManyRooms' });
      s.send(encodeError('tooManyRooms', undefined, { roomId }));
      return;
    }
    if (!m) {
      m = { role: null, lastSeq: -1, early: [], wantsSpectate: spectate, joined: null };
      s.rooms.set(roomId, m);
      this.o.registry.room(roomId).joining.add(s);
    }
    m.wantsSpectate = spectate;
    let settle = () => {};
    const joined = new Promise<void>((r) => (settle = r));
    m.joined = joined;
    try {
      await this.joinAnswered(s, m, { roomId, spectate });
    } finally {
      if (m.joined === joined) m.joined = null;
      settle();
    }
  }

  private async joinAnswered(s: Session, m: Membership, ask: { roomId: string; spectate: boolean }): Promise<void> {
    const { cfg, metrics, registry } = this.o;
    const { roomId, spectate } = ask;
    const userId = s.user!.sub;
    const stillHere = () => !s.closed && s.rooms.get(roomId) === m;
    if (cfg.roomAccess === 'lobby') {
      const allowed = await this.o.access.allowed(userId, roomId, stillHere);
      if (!stillHere()) return;
      if (allowed !== true) {
        if (m.role === null) {
          s.rooms.delete(roomId);
          registry.leaveRoom(roomId, userId, s, null);
        }
        s.protoError(allowed === false ? 'privateRoom' : 'unavailable', undefined, { roomId });
        return;
      }
    }
    // Retried only while this socket is open and still in the room (a leave or close stops it).
    const client = { heard: { someone: false }, outcome: {} as Outcome };
    const reply = await this.joinRequest(roomId, { userId, spectate }, stillHere, client);
    if (!stillHere()) return;
    if (!reply || !reply.ok) {
      if (m.role === null) {
        s.rooms.delete(roomId);
        registry.leaveRoom(roomId, userId, s, null);
      }
      // Refused for load — the worker deferred this join past its wait (room-worker intake.ts), or the
      // room's queue was full — or no answer from a worker that holds the room but was too slow (an
      // overloaded box): `capacity` (issue 37: shed load, counted, not an error). The room is there, so the
      // client joins again shortly; the commands of the tables already playing went first meanwhile.
      const why = shedReason(reply, client.outcome);
      if (why !== null) {
        metrics.admissionRefused.inc({ op: 'join', why });
        s.protoError('capacity', undefined, { roomId });
      } else if (reply && reply.code === 'spectatorsFull') s.protoError('spectatorsFull', undefined, { roomId });
      else if (reply) {
        metrics.rejects.inc({ reason: 'join' });
        s.send(encodeError('noRoom', reply.reason, { roomId }));
      }
      // A worker held the room but its last attempt did not time out there: it died or the room moved, and
      // the restore took longer than the join's time (or the gateway is closing): the client joins again.
      else if (client.heard.someone) s.protoError('unavailable', undefined, { roomId });
      // "No responders" all along: nobody holds the room.
      else s.protoError('noRoom');
      return;
    }
    const role: Role = reply.role;
    const before = m.role;
    m.role = role;
    const route = registry.room(roomId);
    route.setRole(s, userId, role);
    // A socket that switched roles (watching its own table as a spectator, or back): the worker keeps one
    // viewer per role, so the old role's viewer goes once no socket of the user here holds it.
    if (before !== null && before !== role && !route.hasRole(userId, before))
      this.publishPresence(roomId, userId, { left: true, role: before });
    const early = m.early;
    m.early = null;
    // Resume: the join frame is the latest view even when this socket saw the same seq before.
    const seq = reply.seq;
    if (seq >= m.lastSeq) {
      m.lastSeq = seq - 1;
      s.frame(m, seq, 'view', reply.frame);
    }
    if (early)
      for (const f of early) if (f.viewer === (role === 'player' ? userId : null)) s.frame(m, f.seq, f.kind, f.frame);
  }

  /** The user's last socket here in `role` left or closed: the room worker forgets or marks that viewer. */
  publishPresence(roomId: string, userId: string, change: { left: boolean; role: Role | null }): void {
    const { role, left } = change;
    // A socket that never got its role (join unanswered) has no viewer at the worker to change.
    if (role === null) return;
    const { bus, cfg, log, metrics } = this.o;
    try {
      emit(bus, contract.roomPresence.at(roomId), {
        v,
        userId,
        gatewayId: cfg.gatewayId,
        connected: false,
        ...(left ? { left: true } : {}),
        role,
      });
    } catch (err) {
      metrics.busErrors.inc({ op: 'presence' });
      log.warn({ roomId, err: String(err) }, 'presence publish failed');
    }
  }

  /** Takes the session out of the room; `left`: the user left it (else the socket closed). */
  leave(s: Session, roomId: string, left: boolean): void {
    const m = s.rooms.get(roomId);
    if (!m || !s.user) return;
    s.rooms.delete(roomId);
    if (this.o.registry.leaveRoom(roomId, s.user.sub, s, m.role))
      this.publishPresence(roomId, s.user.sub, { left, role: m.role });
  }

  /**
   * After a room changed owner (crash failover), the new owner may not know this gateway's
   * viewers yet: joining again registers them and brings each the latest view.
   */
  async refreshRoom(roomId: string): Promise<void> {
    const { registry } = this.o;
    const r = registry.rooms.get(roomId);
    if (!r || r.refreshing) return;
    r.refreshing = true;
    // Worth retrying only while this gateway still hosts viewers of the room.
    const wanted = () => !this.o.closing() && registry.rooms.get(roomId) === r;
    try {
      const jobs: Promise<void>[] = [];
      for (const userId of [...r.players.keys()]) {
        jobs.push(
          this.joinRequest(roomId, { userId, spectate: false }, wanted).then((reply) => {
            const socks = r.players.get(userId);
            if (!reply?.ok || !socks) return;
            for (const s of socks) {
              const m = s.rooms.get(roomId);
              if (m) s.frame(m, reply.seq, 'view', reply.frame);
            }
          }),
        );
      }
      const specUsers = new Set<string>();
      for (const s of r.spectators) specUsers.add(s.user!.sub);
      for (const userId of specUsers) {
        jobs.push(
          this.joinRequest(roomId, { userId, spectate: true }, wanted).then((reply) => {
            if (!reply?.ok || reply.role !== 'spectator') return;
            for (const s of r.spectators) {
              const m = s.rooms.get(roomId);
              if (m && s.user!.sub === userId) s.frame(m, reply.seq, 'view', reply.frame);
            }
          }),
        );
      }
      await Promise.allSettled(jobs);
    } finally {
      r.refreshing = false;
    }
  }

  /** Spectators that missed frames to shedding (shed.ts) join again: the reply is the whole view. */
  readonly resyncSpectators = (roomId: string, only?: Session): void => {
    const r = this.o.registry.rooms.get(roomId);
    if (!r) return;
    for (const s of only ? [only] : [...r.spectators])
      if (!s.closed && s.user && r.spectators.has(s)) this.o.detach(this.join(s, roomId, true));
  };
}
