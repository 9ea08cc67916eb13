/**
 * A room's three subjects: commands and joins (requests) and presence changes,
 * decoded by the contract's codecs and put on the room's queue. A request that
 * does not decode is answered `malformed` at once and never queued. A join goes
 * through the worker's priority intake (intake.ts): while the worker is behind
 * it waits for the commands of the tables already playing, or is refused
 * `capacity` when it waited too long or too many wait.
 */
import { contract, listen, refuse, serve } from '@joke/protocol';
import type { BusClient, BusSubscription } from '@joke/bus';
import type { Item } from './room-types.ts';
import type { PriorityIntake } from './intake.ts';

const malformed = () => refuse('malformed', '잘못된 메시지예요');

export function subscribeRoom(
  bus: BusClient,
  roomId: string,
  enqueue: (item: Item) => void,
  intake?: PriorityIntake,
): BusSubscription[] {
  const join = (item: Extract<Item, { kind: 'join' }>): void => {
    if (!intake) return enqueue(item);
    intake.admit(
      'join',
      () => enqueue(item),
      () => item.respond(refuse('capacity')),
    );
  };
  return [
    serve(
      bus,
      contract.roomCommand.at(roomId),
      // `trace`: the gateway's trace context (NATS headers), present only on a traced action.
      (cmd, respond, trace) => enqueue({ kind: 'cmd', cmd, respond, at: performance.now(), trace }),
      malformed,
    ),
    serve(bus, contract.roomJoin.at(roomId), (req, respond) => join({ kind: 'join', ...req, respond }), malformed),
    listen(bus, contract.roomPresence.at(roomId), (p) => enqueue({ kind: 'presence', ...p, left: p.left ?? false })),
  ];
}
