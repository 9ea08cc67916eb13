/**
 * Room membership of sockets: join (with the frames that race the join reply),
 * leave, presence towards the room's worker, and re-joining a room's viewers
 * after the room changed owner.
 */
import { contract, emit, type bus as wire } from '@joke/protocol';
import { encodeError } from '@joke/protocol/wire';
import { v, type Core } from './core.ts';
import type { Requester } from './requests.ts';
import { createAccessCheck } from './access.ts';
import type { Membership, Role, Sock, SocketData } from './rooms.ts';

export interface Memberships {
  join(ws: Sock, roomId: string, spectate: boolean): Promise<void>;
  leave(ws: Sock, roomId: string, left: boolean): void;
  /** The user's last socket here in `role` left or closed: the room worker forgets or marks that viewer. */
  publishPresence(roomId: string, userId: string, left: boolean, role: Role | null): void;
  refreshRoom(roomId: string): Promise<void>;
  /** Spectators that missed frames to shedding (shed.ts) join again: the reply is the whole view. */
  resyncSpectators(roomId: string, only?: Sock): void;
}

export function createMemberships(core: Core, requests: Requester): Memberships {
  const { cfg, bus, log, metrics, reg, send, sendView, protoError } = core;
  const requestWithRetry = requests.request;
  const access = createAccessCheck(core, requests);

  /** The join's reply (null = no worker answered within the retry budget); it also tells who runs the room. */
  const joinRequest = async (
    roomId: string,
    userId: string,
    spectate: boolean,
    wanted: () => boolean,
    heard?: { someone: boolean },
  ): Promise<wire.JoinReply | null> => {
    const res = await requestWithRetry(
      contract.roomJoin.at(roomId),
      { v, userId, spectate, gatewayId: cfg.gatewayId },
      'join',
      undefined,
      wanted,
      undefined,
      heard,
    );
    if (res?.reply.ok) {
      const r = reg.rooms.get(roomId);
      if (r && r.owner !== res.reply.owner) {
        const moved = r.owner !== null;
        r.owner = res.reply.owner;
        // A join answered by a new owner is the same sign as its first delivery (inbound.ts).
        if (moved) requests.roomMoved(roomId);
      }
    }
    return res ? res.reply : null;
  };

  const onJoin = async (ws: Sock, roomId: string, spectate: boolean): Promise<void> => {
    const d = ws.getUserData();
    const user = d.user!;
    let m = d.rooms.get(roomId);
    if (!m && d.rooms.size >= cfg.maxRoomsPerSocket) {
      metrics.rejects.inc({ reason: 'tooManyRooms' });
      send(ws, encodeError('tooManyRooms', undefined, { roomId }));
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
    if (cfg.roomAccess === 'lobby') {
      const allowed = await access.allowed(userId, roomId, () => !d.closed && d.rooms.get(roomId) === m);
      if (d.closed || d.rooms.get(roomId) !== m) return;
      if (allowed !== true) {
        if (m.role === null) {
          d.rooms.delete(roomId);
          reg.leaveRoom(roomId, userId, ws, null);
        }
        protoError(ws, allowed === false ? 'privateRoom' : 'unavailable', undefined, { roomId });
        return;
      }
    }
    // Retried only while this socket is open and still in the room (a leave or close stops it).
    const heard = { someone: false };
    const reply = await joinRequest(roomId, user.sub, spectate, () => !d.closed && d.rooms.get(roomId) === m, heard);
    if (d.closed || d.rooms.get(roomId) !== m) return;
    if (!reply || !reply.ok) {
      if (m.role === null) {
        d.rooms.delete(roomId);
        reg.leaveRoom(roomId, user.sub, ws, null);
      }
      if (reply && reply.code === 'busy') protoError(ws, 'busy', undefined, { roomId });
      // The worker is behind on its playing tables and deferred this join past its wait (room-worker
      // intake.ts): a refusal with its own code (issue 37: counted as shed load, not as an error); the room
      // is there, so the client joins again shortly, as after a timed-out join.
      else if (reply && reply.code === 'capacity') protoError(ws, 'capacity', undefined, { roomId });
      else if (reply && reply.code === 'spectatorsFull') protoError(ws, 'spectatorsFull', undefined, { roomId });
      else if (reply) {
        metrics.rejects.inc({ reason: 'join' });
        send(ws, encodeError('noRoom', reply.reason, { roomId }));
      }
      // No answer: "no responders" all along means nobody holds the room; an attempt that timed out means a
      // worker holds it but was too slow (an overloaded box), and the client joins again shortly.
      else if (heard.someone) protoError(ws, 'unavailable', undefined, { roomId });
      else protoError(ws, 'noRoom');
      return;
    }
    const role: Role = reply.role;
    const before = m.role;
    m.role = role;
    reg.setRole(roomId, user.sub, ws, role);
    // A socket that switched roles (watching its own table as a spectator, or back): the worker keeps one
    // viewer per role, so the old role's viewer goes once no socket of the user here holds it.
    if (before !== null && before !== role && !reg.hasRole(roomId, user.sub, before))
      publishPresence(roomId, user.sub, true, before);
    const early = m.early;
    m.early = null;
    // Resume: the join frame is the latest view even when this socket saw the same seq before.
    const seq = reply.seq;
    if (seq >= m.lastSeq) {
      m.lastSeq = seq - 1;
      sendView(ws, m, seq, 'view', reply.frame);
    }
    if (early)
      for (const f of early)
        if (f.viewer === (role === 'player' ? user.sub : null)) sendView(ws, m, f.seq, f.kind, f.frame);
  };

  const publishPresence = (roomId: string, userId: string, left: boolean, role: Role | null): void => {
    // A socket that never got its role (join unanswered) has no viewer at the worker to change.
    if (role === null) return;
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
  };

  const leave = (ws: Sock, roomId: string, left: boolean): void => {
    const d = ws.getUserData();
    const m = d.rooms.get(roomId);
    if (!m || !d.user) return;
    d.rooms.delete(roomId);
    if (reg.leaveRoom(roomId, d.user.sub, ws, m.role)) publishPresence(roomId, d.user.sub, left, m.role);
  };

  /**
   * After a room changed owner (crash failover), the new owner may not know this gateway's
   * viewers yet: joining again registers them and brings each the latest view.
   */
  const refreshRoom = async (roomId: string): Promise<void> => {
    const r = reg.rooms.get(roomId);
    if (!r || r.refreshing) return;
    r.refreshing = true;
    // Worth retrying only while this gateway still hosts viewers of the room.
    const wanted = () => !core.closing() && reg.rooms.get(roomId) === r;
    try {
      const jobs: Promise<void>[] = [];
      for (const userId of [...r.players.keys()]) {
        jobs.push(
          joinRequest(roomId, userId, false, wanted).then((reply) => {
            const socks = r.players.get(userId);
            if (!reply?.ok || !socks) return;
            for (const ws of socks) {
              const m = ws.getUserData().rooms.get(roomId);
              if (m) sendView(ws, m, reply.seq, 'view', reply.frame);
            }
          }),
        );
      }
      const specUsers = new Set<string>();
      for (const ws of r.spectators) specUsers.add(ws.getUserData().user!.sub);
      for (const userId of specUsers) {
        jobs.push(
          joinRequest(roomId, userId, true, wanted).then((reply) => {
            if (!reply?.ok || reply.role !== 'spectator') return;
            for (const ws of r.spectators) {
              const m = ws.getUserData().rooms.get(roomId);
              if (m && ws.getUserData().user!.sub === userId) sendView(ws, m, reply.seq, 'view', reply.frame);
            }
          }),
        );
      }
      await Promise.allSettled(jobs);
    } finally {
      r.refreshing = false;
    }
  };

  const resyncSpectators = (roomId: string, only?: Sock): void => {
    const r = reg.rooms.get(roomId);
    if (!r) return;
    for (const ws of only ? [only] : [...r.spectators]) {
      const d = ws.getUserData();
      if (!d.closed && d.user && r.spectators.has(ws)) core.detach(onJoin(ws, roomId, true));
    }
  };

  return { join: onJoin, leave, publishPresence, refreshRoom, resyncSpectators };
}
