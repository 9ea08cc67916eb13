/**
 * Who sends and who receives each subject of the contract, and from that the
 * NATS permissions of each service's user: a service may publish only what it
 * sends and subscribe only to what it receives, so a compromised gateway
 * cannot forge a worker's delivery or a matchmaker's placement. The chart's
 * NATS users (helm/joke-app/files/nats-permissions.json) are generated from
 * here (`npm run nats-permissions`), and contract.test.ts checks these ends
 * against the calls in production code, so neither list can drift.
 *
 * Exact, not wildcarded (issue 36): no service may create or delete a JetStream stream or consumer (the
 * `admin` user of the `joke-streams` setup job does, at install), a durable route's consumer may only read,
 * pull and ack its own durable consumer and park into its own dead-letter subject, and each user's replies
 * arrive under its own inbox (`_INBOX.<user>.>`, the bus's `inboxPrefix`), so no credential can read the
 * replies of another service. The bus's stream names (`EV_<subject with _>`, @joke/bus nats-durable.ts)
 * and dead-letter subjects (`dead.<subject>`) are mirrored here; the NATS-permissions test runs both.
 */
import { contract, type ContractName } from './contract.ts';

/** A NATS user: one per service (the room worker's is `worker`). */
export type BusUser = 'gateway' | 'lobby' | 'matchmaker' | 'worker';
export const BUS_USERS: readonly BusUser[] = ['gateway', 'lobby', 'matchmaker', 'worker'];
/** The NATS user of the `joke-streams` setup job: manages streams and consumers; no service runs as it. */
export const ADMIN_USER = 'admin';
/** Every user of the chart's NATS: the services' and the admin's. */
export const NATS_USERS = [...BUS_USERS, ADMIN_USER] as const;
export type NatsUser = (typeof NATS_USERS)[number];

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

/** Where replies to `user`'s requests arrive (its connection's `inboxPrefix` + `.>`): its own subtree only. */
export const inboxOf = (user: string) => `_INBOX.${user}.>`;

/** The JetStream stream of a durable subject (as @joke/bus names it): `EV_` + the subject with `_` for `.`. */
export const durableStream = (subject: string) => `EV_${subject.replace(/[^A-Za-z0-9_-]/g, '_')}`;
/** Where a durable subject's consumer parks what it cannot handle (its dead-letter stream's subject). */
export const deadLetterOf = (subject: string) => `dead.${subject}`;

/**
 * What the consumer `durable` of a durable subject may send: read its own consumer's info, pull from it,
 * ack/nak/term its messages, and park into the subject's dead-letter stream. No CREATE, no DELETE.
 */
export function jetStreamConsumer(subject: string, durable: string): string[] {
  const stream = durableStream(subject);
  return [
    `$JS.API.CONSUMER.INFO.${stream}.${durable}`,
    `$JS.API.CONSUMER.MSG.NEXT.${stream}.${durable}`,
    `$JS.ACK.${stream}.${durable}.>`,
    deadLetterOf(subject),
  ];
}

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
export function natsPermissions(user: NatsUser, prefix = ''): NatsPermissions {
  const p = (s: string) => (prefix ? `${prefix}.${s}` : s);
  const publish = new Set<string>();
  const subscribe = new Set<string>([inboxOf(user)]);
  let allowResponses = false;
  for (const name of Object.keys(ROUTE_ENDS) as ContractName[]) {
    const { from, to } = ROUTE_ENDS[name];
    const request = contract[name].kind === 'request';
    const durable = (contract[name] as { durable?: string }).durable;
    // A durable route's producer publishes into the stream (the stream's ack comes to its inbox).
    if (from.includes(user as BusUser)) publish.add(p(routeSubject(name)));
    if (to.includes(user as BusUser)) {
      const family = familyOf(name);
      if (request) allowResponses = true;
      // A durable route's consumer pulls from its durable consumer instead of subscribing to the subject.
      if (durable) for (const s of jetStreamConsumer(p(routeSubject(name)), durable)) publish.add(s);
      else subscribe.add(p(family ? familyPattern(family) : routeSubject(name)));
    }
    // The setup job: creates the streams and consumers, reads and replays dead letters (joke-streams).
    if (user === ADMIN_USER && durable) publish.add(p(routeSubject(name)));
  }
  if (user === ADMIN_USER) publish.add('$JS.API.>');
  return { publish: [...publish].sort(), subscribe: [...subscribe].sort(), allowResponses };
}
