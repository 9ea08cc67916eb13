/**
 * The lobby's ears on the bus for room lifecycle (rooms/presence.ts): the
 * room workers' `roomOccupancy` facts and the other replicas' `lobbySeen`
 * marks come in; this replica's own marks go out once per tick, batched.
 * No queue group on either: every replica keeps the whole picture.
 */
import { randomBytes } from 'node:crypto';
import { contract, emit, listen } from '@joke/protocol';
import type { Bus } from '@joke/bus';
import type { Logger } from 'pino';
import type { PresenceBoard } from './rooms/presence.ts';

export interface PresenceBus {
  /** Publishes the marks seen since the last flush. */
  flush(): void;
  close(): void;
}

export function connectPresence(bus: Bus, board: PresenceBoard, log: Logger, onFact: () => void): PresenceBus {
  const me = `lobby-${randomBytes(4).toString('hex')}`;
  const subs = [
    listen(bus, contract.roomOccupancy, (fact) => {
      board.occupancy(fact);
      onFact();
    }),
    listen(bus, contract.lobbySeen, (msg) => {
      if (msg.from !== me) board.seenElsewhere(msg);
    }),
  ];
  return {
    flush() {
      const marks = board.takeOutbox();
      if (marks.length === 0) return;
      try {
        emit(bus, contract.lobbySeen, { v: 1, from: me, marks });
      } catch (err) {
        log.warn({ err }, 'could not share presence marks');
      }
    },
    close() {
      for (const s of subs) s.unsubscribe();
    },
  };
}
