/**
 * What arrives from the bus for this gateway: deliveries of pre-encoded frames
 * (written to the viewers' sockets as the worker encoded them), quick-match
 * results, and worker heartbeats (liveness only).
 *
 * A delivery is read from its binary header alone (room, seq, owner, and per
 * frame its kind and viewer); the frames' bytes go to `ws.send` unchanged.
 * Spectator frames go out with ONE topic publish per room; the writes to each
 * player socket are corked, so a socket gets one write syscall per delivery.
 * Under pressure spectator frames and presence notices are shed first (shed.ts).
 */
import { contract, listen, type bus as wire } from '@joke/protocol';
import { encodeError, encodeMatched, encodeQueueStatus } from '@joke/protocol/wire';
import type { BusSubscription } from '@joke/bus';
import type { Core } from './core.ts';
import type { Requester } from './requests.ts';
import type { Memberships } from './membership.ts';
import type { RoomEntry, Sock } from './rooms.ts';
import { spectatorTopic } from './topics.ts';

/** The acknowledgement of the action a delivery answers, for the acting socket. */
export interface ActorAck {
  ws: Sock;
  text: string;
}

/**
 * Hands a delivery's frames to the sockets. With `ack` (the delivery came as the reply to that socket's
 * action, RoomCommand.framesInReply), the acting socket gets the ack and its view in one corked write;
 * returns whether the ack went out that way (else the caller sends it on its own).
 */
export type Deliver = (d: wire.Delivery, ack?: ActorAck) => boolean;

export function createDeliver(core: Core, requests: Requester, rooms: Memberships): Deliver {
  const { log, metrics, reg, detach, send, sendView } = core;

  const toSocket = (ws: Sock, roomId: string, seq: number, f: wire.DeliveryFrame, ack: ActorAck | undefined) => {
    const m = ws.getUserData().rooms.get(roomId);
    if (!m) return false;
    if (ack?.ws !== ws) {
      ws.cork(() => sendView(ws, m, seq, f.kind, f.bytes));
      return false;
    }
    ws.cork(() => {
      send(ws, ack.text);
      sendView(ws, m, seq, f.kind, f.bytes);
    });
    return true;
  };

  const toSpectators = (r: RoomEntry, roomId: string, seq: number, f: wire.DeliveryFrame): void => {
    if (r.spectators.size === 0) return;
    if (f.kind === 'view') {
      if (seq <= r.spectatorSeq) return;
      r.spectatorSeq = seq;
    } else if (seq < r.spectatorSeq) return;
    // Behind: spectators go without (and join again once it passed, shed.ts); players' frames still go.
    if (!core.shed.spectatorFrame(roomId)) return;
    core.publishTopic(spectatorTopic(roomId), f.bytes);
    metrics.messagesOut.inc(r.spectators.size);
  };

  return (d, ack) => {
    let acked = false;
    const r = reg.rooms.get(d.roomId);
    if (!r) return false;
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
        if (socks) for (const ws of socks) if (toSocket(ws, d.roomId, d.seq, f, acked ? undefined : ack)) acked = true;
      }
      if (r.joining.size > 0)
        for (const ws of r.joining) {
          const m = ws.getUserData().rooms.get(d.roomId);
          if (m?.early && m.early.length < 64)
            m.early.push({ viewer: f.viewer, seq: d.seq, kind: f.kind, frame: f.bytes.slice() });
        }
    }
    return acked;
  };
}

export function subscribeInbound(core: Core, requests: Requester, deliver: Deliver): BusSubscription[] {
  const { cfg, metrics, reg, send } = core;
  const onDelivery = (d: wire.Delivery): void => void deliver(d);

  const onMatched = (q: wire.QueueMatched): void => {
    const socks = reg.users.get(q.userId);
    if (!socks) return;
    const text = encodeMatched(q);
    reg.queued.delete(q.userId);
    for (const ws of socks) send(ws, text);
  };

  const onQueueStatus = (q: wire.QueueStatus): void => {
    // Only while still waiting: a status overtaken by `matched` or a cancel would revive the waiting screen.
    if (!reg.queued.has(q.userId)) return;
    const socks = reg.users.get(q.userId);
    if (!socks) return;
    const { userId: _user, v: _v, refused, ...status } = q;
    // Taken out of the queue instead of seated (a per-address budget, services/matchmaker/src/budgets.ts):
    // the client hears it as a refused request and stops waiting.
    if (refused) {
      reg.queued.delete(q.userId);
      metrics.rejects.inc({ reason: 'queue' });
    }
    const text = refused
      ? encodeError('queueRejected', refused.reason, { refusal: refused.code })
      : encodeQueueStatus(status);
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
