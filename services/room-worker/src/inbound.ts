/**
 * A room's three subjects: commands and joins (requests) and presence changes,
 * parsed and put on the room's queue. Malformed requests are answered at once.
 */
import { bus as wire, subjects } from '@joke/protocol';
import type { Bus, BusSubscription } from '@joke/bus';
import type { Item } from './room-types.ts';

const BAD_COMMAND = '잘못된 메시지예요';

export function subscribeRoom(bus: Bus, roomId: string, enqueue: (item: Item) => void): BusSubscription[] {
  return [
    bus.subscribe(subjects.roomCommand(roomId), (m) => {
      if (!m.respond) return;
      const p = wire.RoomCommand.safeParse(safeJson(m.data));
      if (!p.success) return m.respond(JSON.stringify({ ok: false, reason: BAD_COMMAND }));
      enqueue({ kind: 'cmd', cmd: p.data, respond: m.respond, at: performance.now() });
    }),
    bus.subscribe(subjects.roomJoin(roomId), (m) => {
      if (!m.respond) return;
      const p = wire.JoinRequest.safeParse(safeJson(m.data));
      if (!p.success) return m.respond(JSON.stringify({ ok: false, reason: BAD_COMMAND }));
      enqueue({ kind: 'join', ...p.data, respond: m.respond });
    }),
    bus.subscribe(subjects.roomPresence(roomId), (m) => {
      const p = wire.PresenceChange.safeParse(safeJson(m.data));
      if (p.success) enqueue({ kind: 'presence', ...p.data, left: p.data.left ?? false });
    }),
  ];
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
