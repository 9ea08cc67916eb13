/**
 * `@joke/session`: the one client session of the gateway protocol, shared by the browser client, the
 * load-test bots and the gateway's tests. Browser-safe: nothing here imports Node (the `ws` transport
 * is its own entry, `@joke/session/ws`).
 */
export { Session } from './session.ts';
export { helloMessage } from './connection.ts';
export { newActionId, type PendingAction } from './actions.ts';
export { globalClock, type SessionClock } from './clock.ts';
export {
  RESYNC_EVERY_MS,
  completeView,
  newRoom,
  takeView,
  type Room,
  type ViewVerdict,
  type WireView,
} from './rooms.ts';
export type { Connect, Transport, TransportEvents } from './transport.ts';
export type * from './types.ts';
