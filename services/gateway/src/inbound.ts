/**
 * What arrives from the bus for this gateway: deliveries of pre-encoded frames
 * (written to the viewers' sockets as the worker encoded them), quick-match
 * results, and worker heartbeats (liveness only).
 *
 * A delivery is read from its binary header alone (room, seq, owner, and per
 * frame its kind and viewer); the frames' bytes go to `ws.send` unchanged.
 * Spectator frames go out with ONE topic publish per room; the writes to each
 * player socket are corked, so a socket gets one write syscall per delivery.
 */
import { contract, listen, type bus as wire } from '@joke/protocol';
import type { BusSubscription } from '@joke/bus';
import { v, type Core } from './core.ts';
import type { Requester } from './requests.ts';
import type { Memberships } from './membership.ts';
import type { RoomEntry, Sock } from './rooms.ts';
import { spectatorTopic } from './topics.ts';

export function subscribeInbound(core: Core, requests: Requester, rooms: Memberships): BusSubscription[] {
  const { cfg, log, metrics, reg, detach, send, sendView } = core;

  const toSocket = (ws: Sock, roomId: string, seq: number, f: wire.DeliveryFrame): void => {
    const m = ws.getUserData().rooms.get(roomId);
    if (m) ws.cork(() => sendView(ws, m, seq, f.kind, f.bytes));
  };

  const toSpectators = (r: RoomEntry, roomId: string, seq: number, f: wire.DeliveryFrame): void => {
    if (r.spectators.size === 0) return;
    if (f.kind === 'view') {
      if (seq <= r.spectatorSeq) return;
      r.spectatorSeq = seq;
    } else if (seq < r.spectatorSeq) return;
    core.publishTopic(spectatorTopic(roomId), f.bytes);
    metrics.messagesOut.inc(r.spectators.size);
  };

  const onDelivery = (d: wire.Delivery): void => {
    const r = reg.rooms.get(d.roomId);
    if (!r) return;
    if (r.owner !== d.owner) {
      // A room that changed hands (failover, migration): the new owner may have lost a frame in the move.
      if (r.owner !== null) {
        log.info({ roomId: d.roomId, from: r.owner, to: d.owner }, 'room changed owner, re-joining its viewers');
        detach(rooms.refreshRoom(d.roomId));
      }
      r.owner = d.owner;
      // Commands still waiting on the old owner (dead, or handing over) go to the new one now, not after a timeout.
      requests.roomMoved(d.roomId);
    }
    for (const f of d.frames) {
      if (f.viewer === null) toSpectators(r, d.roomId, d.seq, f);
      else {
        const socks = r.players.get(f.viewer);
        if (socks) for (const ws of socks) toSocket(ws, d.roomId, d.seq, f);
      }
      if (r.joining.size > 0)
        for (const ws of r.joining) {
          const m = ws.getUserData().rooms.get(d.roomId);
          if (m?.early && m.early.length < 64)
            m.early.push({ viewer: f.viewer, seq: d.seq, kind: f.kind, frame: f.bytes.slice() });
        }
    }
  };

  const onMatched = (q: wire.QueueMatched): void => {
    const socks = reg.users.get(q.userId);
    if (!socks) return;
    const text = JSON.stringify({ v, t: 'matched', roomId: q.roomId, game: q.game, mode: q.mode });
    reg.queued.delete(q.userId);
    for (const ws of socks) send(ws, text);
  };

  const onQueueStatus = (q: wire.QueueStatus): void => {
    // Only while still waiting: a status overtaken by `matched` or a cancel would revive the waiting screen.
    if (!reg.queued.has(q.userId)) return;
    const socks = reg.users.get(q.userId);
    if (!socks) return;
    const { userId: _user, v: _v, ...status } = q;
    const text = JSON.stringify({ v, t: 'queueStatus', ...status });
    for (const ws of socks) send(ws, text);
  };

  return [
    listen(core.bus, contract.gatewayDeliver.at(cfg.gatewayId), onDelivery, () =>
      metrics.busErrors.inc({ op: 'deliver' }),
    ),
    listen(core.bus, contract.gatewayMatched.at(cfg.gatewayId), onMatched, () =>
      metrics.busErrors.inc({ op: 'matched' }),
    ),
    listen(core.bus, contract.gatewayQueueStatus.at(cfg.gatewayId), onQueueStatus, () =>
      metrics.busErrors.inc({ op: 'queueStatus' }),
    ),
    // A worker restarted under the same id is a new incarnation that knows none of our viewers.
    listen(core.bus, contract.workerHeartbeat, (hb) => requests.workerSeen(`${hb.workerId}/${hb.incarnation ?? ''}`)),
  ];
}
