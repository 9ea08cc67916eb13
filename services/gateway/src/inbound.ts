/**
 * What arrives from the bus for this gateway: deliveries of pre-encoded frames (handed to the room's
 * RoomRoute, which writes them to the viewers' sockets as the worker encoded them), quick-match results,
 * and worker heartbeats (liveness only).
 *
 * State: none of its own (the routes and sessions are the Registry's).
 * Failure modes: a delivery for a room no socket here is in is dropped (not acknowledged); a delivery from
 * a new owner (failover, migration) re-joins the room's viewers here, since the new owner may have lost a
 * frame in the move, and sends the commands still waiting on the old owner to the new one at once. A bus
 * message that does not decode is counted in joke_gateway_bus_errors_total{op} and dropped.
 */
import type { Logger } from 'pino';
import { contract, listen, type bus as wire } from '@joke/protocol';
import { encodeError, encodeMatched, encodeQueueStatus } from '@joke/protocol/wire';
import type { Bus, BusSubscription } from '@joke/bus';
import type { GatewayConfig } from './config.ts';
import type { GatewayMetrics } from './metrics.ts';
import type { Requester } from './requests.ts';
import type { Memberships } from './membership.ts';
import type { Registry } from './rooms.ts';
import type { ActorAck } from './room-route.ts';

export interface InboundOptions {
  cfg: GatewayConfig;
  bus: Bus;
  log: Logger;
  metrics: GatewayMetrics;
  registry: Registry;
  requests: Requester;
  memberships: Memberships;
  detach(p: Promise<void>): void;
}

export class Inbound {
  constructor(private readonly o: InboundOptions) {}

  /**
   * The one way a Delivery reaches sockets, whether it came on `gw.<id>.deliver` or in a command's reply
   * (client.ts, with the actor's `ack`): notes the room's owner, then RoomRoute.deliver. Returns whether
   * the ack went out with the actor's view.
   */
  readonly deliver = (d: wire.Delivery, ack?: ActorAck): boolean => {
    const r = this.o.registry.rooms.get(d.roomId);
    if (!r) return false;
    if (r.owner !== d.owner) {
      // A room that changed hands (failover, migration): the new owner may have lost a frame in the move.
      if (r.owner !== null) {
        this.o.log.info({ roomId: d.roomId, from: r.owner, to: d.owner }, 'room changed owner, re-joining its viewers');
        this.o.detach(this.o.memberships.refreshRoom(d.roomId));
      }
      r.owner = d.owner;
      // Commands still waiting on the old owner (dead, or handing over) go to the new one now, not after a timeout.
      this.o.requests.roomMoved(d.roomId);
    }
    return r.deliver(d, ack);
  };

  /** The subscriptions of this gateway's own subjects and of the workers' heartbeats. */
  subscribe(): BusSubscription[] {
    const { bus, cfg, metrics, requests } = this.o;
    return [
      listen(
        bus,
        contract.gatewayDeliver.at(cfg.gatewayId),
        (d) => void this.deliver(d),
        () => metrics.busErrors.inc({ op: 'deliver' }),
      ),
      listen(bus, contract.gatewayMatched.at(cfg.gatewayId), this.onMatched, () =>
        metrics.busErrors.inc({ op: 'matched' }),
      ),
      listen(bus, contract.gatewayQueueStatus.at(cfg.gatewayId), this.onQueueStatus, () =>
        metrics.busErrors.inc({ op: 'queueStatus' }),
      ),
      // A worker restarted under the same id is a new incarnation that knows none of our viewers.
      listen(bus, contract.workerHeartbeat, (hb) => requests.workerSeen(`${hb.workerId}/${hb.incarnation ?? ''}`)),
    ];
  }

  private readonly onMatched = (q: wire.QueueMatched): void => {
    const { registry } = this.o;
    const sessions = registry.users.get(q.userId);
    if (!sessions) return;
    const text = encodeMatched(q);
    registry.queued.delete(q.userId);
    for (const s of sessions) s.send(text);
  };

  private readonly onQueueStatus = (q: wire.QueueStatus): void => {
    const { registry, metrics } = this.o;
    // Only while still waiting: a status overtaken by `matched` or a cancel would revive the waiting screen.
    if (!registry.queued.has(q.userId)) return;
    const sessions = registry.users.get(q.userId);
    if (!sessions) return;
    const { userId: _user, v: _v, refused, ...status } = q;
    // Taken out of the queue instead of seated (a per-address budget, services/matchmaker/src/budgets.ts):
    // the client hears it as a refused request and stops waiting.
    if (refused) {
      registry.queued.delete(q.userId);
      metrics.rejects.inc({ reason: 'queue' });
    }
    const text = refused
      ? encodeError('queueRejected', refused.reason, { refusal: refused.code })
      : encodeQueueStatus(status);
    for (const s of sessions) s.send(text);
  };
}
