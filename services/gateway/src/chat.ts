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
import type { Core } from './core.ts';
import type { Sock } from './rooms.ts';

export interface GatewayChat {
  onChat(ws: Sock, msg: ChatSend): Promise<void>;
  onChatDelivery(del: ChatDelivery): void;
}

export function createChat(core: Core): GatewayChat {
  const { cfg, bus, log, metrics, reg, send, protoError } = core;

  const refuse = (ws: Sock, roomId: string, code: string, message: string): void => {
    metrics.rejects.inc({ reason: code });
    // The worker's chat refusals are CHAT_ERRORS (or `malformed`); one this gateway does not know is
    // passed on as `unavailable` with the worker's Korean reason rather than as an undeclared code.
    send(ws, encodeError(isWireErrorCode(code) ? code : 'unavailable', message, { roomId }));
  };

  const onChat = async (ws: Sock, msg: ChatSend): Promise<void> => {
    const d = ws.getUserData();
    let m = d.rooms.get(msg.roomId);
    if (m?.joined) {
      await m.joined;
      if (d.closed) return;
      m = d.rooms.get(msg.roomId);
    }
    if (!m || m.role === null) return refuse(ws, msg.roomId, 'chatNotInRoom', CHAT_ERRORS.chatNotInRoom);
    const clean = cleanChatBody(msg.body);
    if (!clean.ok) return refuse(ws, msg.roomId, clean.code, CHAT_ERRORS[clean.code]);
    const req: ChatRequest = {
      v: PROTOCOL_VERSION,
      userId: d.user!.sub,
      name: d.user!.name.slice(0, 32),
      gatewayId: cfg.gatewayId,
      body: clean.body,
    };
    let reply: ChatReply;
    try {
      reply = await call(bus, contract.roomChat.at(msg.roomId), req, cfg.commandTimeoutMs);
    } catch (err) {
      if (err instanceof ProtocolError) metrics.busErrors.inc({ op: 'chat' });
      else log.debug({ roomId: msg.roomId, err: String(err) }, 'chat request failed');
      if (!d.closed) protoError(ws, 'unavailable');
      return;
    }
    if (d.closed) return;
    // Accepted: the sender sees their line when the owner's relay comes back, like everyone else.
    if (!reply.ok) refuse(ws, msg.roomId, reply.code, reply.reason);
  };

  const onChatDelivery = (del: ChatDelivery): void => {
    const r = reg.rooms.get(del.roomId);
    if (!r) return;
    for (const socks of r.players.values()) for (const ws of socks) send(ws, del.frame);
    for (const ws of r.spectators) send(ws, del.frame);
  };

  return { onChat, onChatDelivery };
}
