/**
 * What arrives from the bus for this gateway: deliveries of pre-encoded frames
 * (forwarded untouched to the viewers' sockets), quick-match results, and worker
 * heartbeats (room ownership and liveness).
 */
import { v, type Core } from './core.ts';
import type { Requester } from './requests.ts';
import type { Memberships } from './membership.ts';

export interface Inbound {
  onDelivery(data: string): void;
  onMatched(data: string): void;
  onWorkerHeartbeat(data: string): void;
}

export function createInbound(core: Core, requests: Requester, rooms: Memberships): Inbound {
  const { log, metrics, reg, detach, send, sendView } = core;
  const { refreshRoom } = rooms;

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
    requests.workerSeen(owner);
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

  return { onDelivery, onMatched, onWorkerHeartbeat };
}
