/**
 * What a session needs of a connection: send text, close, and be told when it opened, got a frame
 * and closed. One transport is one socket; a session asks `Connect` for a new one on each reconnect.
 * Adapters: the browser's WebSocket (client/src/net/gateway.ts), `ws` (ws-transport.ts, tests), the
 * load-test bots' lean RFC 6455 client (load-tests/src/bot.ts), whose frames go through their byte
 * fast path and reach the session as already parsed messages instead of through `message`.
 */

export interface TransportEvents {
  /** The socket is open: the session says hello. */
  open(): void;
  /** One text frame. */
  message(text: string): void;
  /** The socket closed (or never opened); `code` as WebSocket close codes (1006: dropped). */
  close(code: number): void;
}

export interface Transport {
  send(text: string): void;
  /** Close handshake; `close` follows as an event. */
  close(code?: number, reason?: string): void;
}

/** Opens a new socket reporting to `events`. May call `events.close` for a socket that could not be made. */
export type Connect = (events: TransportEvents) => Transport;
