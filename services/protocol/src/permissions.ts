/**
 * Who sends and who receives each subject of the contract, and from that the
 * NATS permissions of each service's user: a service may publish only what it
 * sends and subscribe only to what it receives, so a compromised gateway
 * cannot forge a worker's delivery or a matchmaker's placement. The chart's
 * NATS users (helm/joke-app/files/nats-permissions.json) are generated from
 * here (`npm run nats-permissions`), and contract.test.ts checks these ends
 * against the calls in production code, so neither list can drift.
 */
import { contract, type ContractName } from './contract.ts';

/** A NATS user: one per service (the room worker's is `worker`). */
export type BusUser = 'gateway' | 'lobby' | 'matchmaker' | 'worker';
export const BUS_USERS: readonly BusUser[] = ['gateway', 'lobby', 'matchmaker', 'worker'];

/** `from`: calls/emits the route; `to`: serves/listens to it. */
export const ROUTE_ENDS: Record<ContractName, { from: BusUser[]; to: BusUser[] }> = {
  roomCommand: { from: ['gateway'], to: ['worker'] },
  roomJoin: { from: ['gateway'], to: ['worker'] },
  roomPresence: { from: ['gateway'], to: ['worker'] },
  workerOpen: { from: ['matchmaker'], to: ['worker'] },
  workerMigrate: { from: ['matchmaker'], to: ['worker'] },
  workerPing: { from: ['matchmaker'], to: ['worker'] },
  workerHeartbeat: { from: ['worker'], to: ['gateway', 'matchmaker'] },
  workerDraining: { from: ['worker'], to: ['matchmaker'] },
  createRoom: { from: ['lobby'], to: ['matchmaker'] },
  queue: { from: ['gateway'], to: ['matchmaker'] },
  reassign: { from: ['worker'], to: ['matchmaker'] },
  // `npm run rebalance` and the auto-rebalance leader ask the matchmakers' queue group.
  rebalance: { from: ['matchmaker'], to: ['matchmaker'] },
  gatewayDeliver: { from: ['worker'], to: ['gateway'] },
  gatewayMatched: { from: ['matchmaker'], to: ['gateway'] },
  gatewayQueueStatus: { from: ['matchmaker'], to: ['gateway'] },
  gatewayHeartbeat: { from: ['gateway'], to: ['worker'] },
  roomFinished: { from: ['worker'], to: ['lobby'] },
  roomClosed: { from: ['worker'], to: ['lobby'] },
  playerLeft: { from: ['worker'], to: ['lobby'] },
  roomLost: { from: ['worker'], to: ['lobby'] },
  roomAccess: { from: ['gateway'], to: ['lobby'] },
  roomOccupancy: { from: ['worker'], to: ['lobby'] },
  // Lobby replicas share who is present in their waiting rooms.
  lobbySeen: { from: ['lobby'], to: ['lobby'] },
  roomChat: { from: ['gateway'], to: ['worker'] },
  gatewayChat: { from: ['worker'], to: ['gateway'] },
};

/**
 * Routes their consumer serves over ONE wildcard subscription per key (`@joke/bus` SubjectFamily): keyed
 * routes whose subjects differ in their last token only. The room worker serves each room's commands,
 * joins, presence and chat as `joke.v1.room.<id>.*`, so its NATS user may subscribe to the family's
 * pattern (`joke.v1.room.*.*`) instead of each route's; contract.test.ts checks that no other route's
 * subject falls under a family's pattern, so the permission is no wider than the four routes.
 */
export const ROUTE_FAMILIES: Record<string, readonly ContractName[]> = {
  room: ['roomCommand', 'roomJoin', 'roomPresence', 'roomChat'],
};

/** A family's subscription pattern: its routes' common `<stem>` + `.*` (throws when they share none). */
export function familyPattern(names: readonly ContractName[]): string {
  const stems = new Set(names.map((n) => routeSubject(n).slice(0, routeSubject(n).lastIndexOf('.'))));
  if (stems.size !== 1) throw new Error(`routes ${names.join(', ')} do not differ in their last token only`);
  return `${[...stems][0]}.*`;
}

const familyOf = (name: ContractName): readonly ContractName[] | undefined =>
  Object.values(ROUTE_FAMILIES).find((f) => f.includes(name));

/** Where replies to a request arrive (nats.js's muxed inbox); requesters subscribe to it. */
export const INBOX = '_INBOX.>';

/**
 * JetStream API subjects of a durable route (bus nats-durable.ts: one stream `EV_<subject>` per
 * durable subject). The producer checks the account and creates its stream, then publishes and reads
 * the stream's ack on its inbox; the consumer also creates its durable pull consumer, pulls and acks.
 */
// NATS wildcards match whole tokens only, so the stream names (`EV_…`, one token) cannot be narrowed further.
export const JETSTREAM_PRODUCER = ['$JS.API.INFO', '$JS.API.STREAM.CREATE.*', '$JS.API.STREAM.INFO.*'];
export const JETSTREAM_CONSUMER = [...JETSTREAM_PRODUCER, '$JS.API.CONSUMER.>', '$JS.ACK.>'];

export interface NatsPermissions {
  publish: string[];
  subscribe: string[];
  /** Serves requests: may publish on the reply subject of a request it received, and nowhere else in _INBOX. */
  allowResponses: boolean;
}

/** The subject (keyed routes: its `*` pattern) of a route, without a namespace prefix. */
export function routeSubject(name: ContractName): string {
  const def = contract[name] as { subject?: string; pattern?: string };
  return def.pattern ?? def.subject!;
}

/** A user's permissions; `prefix` is the deployment's JOKE_NAMESPACE (subjects get `<prefix>.` in front). */
export function natsPermissions(user: BusUser, prefix = ''): NatsPermissions {
  const p = (s: string) => (prefix ? `${prefix}.${s}` : s);
  const publish = new Set<string>();
  const subscribe = new Set<string>();
  let allowResponses = false;
  for (const name of Object.keys(ROUTE_ENDS) as ContractName[]) {
    const { from, to } = ROUTE_ENDS[name];
    const request = contract[name].kind === 'request';
    const durable = 'durable' in contract[name];
    if (from.includes(user)) {
      publish.add(p(routeSubject(name)));
      if (request || durable) subscribe.add(INBOX);
      if (durable) for (const s of JETSTREAM_PRODUCER) publish.add(s);
    }
    if (to.includes(user)) {
      // A durable route's consumer pulls from the stream instead of subscribing to the subject.
      const family = familyOf(name);
      if (!durable) subscribe.add(p(family ? familyPattern(family) : routeSubject(name)));
      if (request) allowResponses = true;
      if (durable) {
        subscribe.add(INBOX);
        for (const s of JETSTREAM_CONSUMER) publish.add(s);
      }
    }
  }
  return { publish: [...publish].sort(), subscribe: [...subscribe].sort(), allowResponses };
}
