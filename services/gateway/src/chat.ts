/**
 * Table chat at the gateway: a `chat` message from a socket that is in the
 * room goes to the room's owner as the token's user (never a name or id the
 * client chose); what the owner relays back arrives on this gateway's chat
 * subject and goes to every socket of the room here, players and spectators.
 *
 * Text that cannot pass (too long, control characters, only invisible
 * characters, a fake "[시스템]" prefix, empty: the shared text policy of
 * @joke/protocol) is refused here already with the same Korean reason the
 * owner would give, sparing a bus trip; the owner also judges the room's chat
 * budget and answers `chatRoomBusy`, which reaches the sender as an error,
 * never a disconnect.
 * A chat request is sent once, not retried: a retry after a lost reply could
 * show the message twice, and a lost chat line is harmless.
 */
import {
  CHAT_ERRORS,
  call,
  cleanChatBody,
  contract,
  PROTOCOL_VERSION,
  ProtocolError,
  type ChatDelivery,
  type ChatReply,
  type ChatRequest,
  type ChatSend,
} from '@joke/protocol';
import { encodeError, isWireErrorCode } from '@joke/protocol/wire';
import type { Logger } from 'pino';
import type { Bus } from '@joke/bus';
import type { GatewayConfig } from './config.ts';
import type { GatewayMetrics } from './metrics.ts';
import type { Registry } from './rooms.ts';
import type { Session } from './session.ts';

export interface ChatOptions {
  cfg: GatewayConfig;
  bus: Bus;
  log: Logger;
  metrics: GatewayMetrics;
  registry: Registry;
}

export class GatewayChat {
  constructor(private readonly o: ChatOptions) {}

  /** A `chat` message from a session: refused here, or sent once to the room's owner. */
  async onChat(s: Session, msg: ChatSend): Promise<void> {
    const { cfg, bus, log, metrics } = this.o;
    let m = s.rooms.get(msg.roomId);
    if (m?.joined) {
      await m.joined;
      if (s.closed) return;
      m = s.rooms.get(msg.roomId);
    }
    if (!m || m.role === null) return this.refuse(s, msg.roomId, 'chatNotInRoom', CHAT_ERRORS.chatNotInRoom);
    const clean = cleanChatBody(msg.body);
    if (!clean.ok) return this.refuse(s, msg.roomId, clean.code, CHAT_ERRORS[clean.code]);
    const req: ChatRequest = {
      v: PROTOCOL_VERSION,
      userId: s.user!.sub,
      name: s.user!.name.slice(0, 32),
      gatewayId: cfg.gatewayId,
      body: clean.body,
    };
    let reply: ChatReply;
    try {
      reply = await call(bus, contract.roomChat.at(msg.roomId), req, cfg.commandTimeoutMs);
    } catch (err) {
      if (err instanceof ProtocolError) metrics.busErrors.inc({ op: 'chat' });
      else log.debug({ roomId: msg.roomId, err: String(err) }, 'chat request failed');
      if (!s.closed) s.protoError('unavailable');
      return;
    }
    if (s.closed) return;
    // Accepted: the sender sees their line when the owner's relay comes back, like everyone else.
    if (!reply.ok) this.refuse(s, msg.roomId, reply.code, reply.reason);
  }

  /** The owner's relay of an accepted line: to every socket of the room here, players and spectators. */
  readonly onChatDelivery = (del: ChatDelivery): void => {
    const r = this.o.registry.rooms.get(del.roomId);
    if (!r) return;
    for (const socks of r.players.values()) for (const s of socks) s.send(del.frame);
    for (const s of r.spectators) s.send(del.frame);
  };

  private refuse(s: Session, roomId: string, code: string, message: string): void {
    this.o.metrics.rejects.inc({ reason: code });
    // The worker's chat refusals are CHAT_ERRORS (or `malformed`); one this gateway does not know is
    // passed on as `unavailable` with the worker's Korean reason rather than as an undeclared code.
    s.send(encodeError(isWireErrorCode(code) ? code : 'unavailable', message, { roomId }));
  }
}
