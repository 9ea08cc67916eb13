/**
 * One socket write per event-loop turn instead of one per message.
 *
 * Why: the NATS client (@nats-io/nats-core 3.x, lib/protocol.js `sendCommand`) queues a `flushPending`
 * microtask whenever its outbound buffer was empty. Microtasks run after every native callback, so each
 * uWS message callback in the gateway (one client action → one bus request) and each reply the worker
 * sends from a Redis callback leaves as its own socket write — a syscall and a deferred promise in the
 * transport each (`writeBuffer` was 25 % of the gateway's busy samples under the bot swarm). Flushing
 * from `setImmediate` instead sends everything the turn's poll phase produced in one write: the check
 * phase comes right after the poll phase of the same loop iteration, and a pending immediate keeps the
 * loop from blocking in poll, so no message waits beyond the current turn.
 *
 * Bounded as the client is: past its `pendingLimit` (32 KB) the buffer is written at once. The client's
 * own `flush()` (PING) and `drain()` write the buffer synchronously, so they still send everything, and
 * `close()` is wrapped to write it first (the client's microtask ran before its close got that far).
 *
 * This replaces a method of the client's internal ProtocolHandler, so it first checks the shape it
 * relies on and leaves the client alone (its own per-microtask flush) when anything differs; the
 * bus tests fail in that case (test/nats-writes.test.ts, test/patches.test.ts), so an upgrade of @nats-io cannot silently
 * lose the coalescing or the messages.
 */
import type { NatsConnection } from '@nats-io/transport-node';

/** The parts of nats-core's ProtocolHandler this relies on (lib/protocol.js, 3.4.0). */
interface Outbound {
  fill(buf: Uint8Array, ...payloads: Uint8Array[]): void;
  size(): number;
}
interface ProtocolInternals {
  outbound: Outbound;
  pendingLimit: number;
  flushPending(): void;
  sendCommand(cmd: string | Uint8Array, ...payloads: Uint8Array[]): void;
}

const encoder = new TextEncoder();

function isOutbound(o: unknown): o is Outbound {
  return (
    typeof o === 'object' &&
    o !== null &&
    'fill' in o &&
    typeof o.fill === 'function' &&
    'size' in o &&
    typeof o.size === 'function'
  );
}

/** Every member this module uses, with the types it uses them as, read from the live object. */
function isProtocolInternals(p: unknown): p is ProtocolInternals {
  if (typeof p !== 'object' || p === null) return false;
  if (!('outbound' in p) || !isOutbound(p.outbound)) return false;
  if (!('pendingLimit' in p) || typeof p.pendingLimit !== 'number' || !(p.pendingLimit > 0)) return false;
  if (!('flushPending' in p) || typeof p.flushPending !== 'function') return false;
  if (!('sendCommand' in p) || typeof p.sendCommand !== 'function') return false;
  // sendCommand(cmd, ...payloads) is what publish/sub/unsub call; a different arity means a different design.
  return p.sendCommand.length === 1;
}

/** The client's protocol handler when it has the shape this module was written against, else undefined. */
export function protocolInternals(nc: NatsConnection): ProtocolInternals | undefined {
  const p = 'protocol' in nc ? nc.protocol : undefined;
  return isProtocolInternals(p) ? p : undefined;
}

/**
 * Makes `nc` write its outbound buffer once per event-loop turn. Returns false, changing nothing, when
 * the client's internals are not the expected ones (the client then keeps its per-microtask writes).
 */
export function coalesceWrites(nc: NatsConnection, gapMs = 0): boolean {
  const p = protocolInternals(nc);
  if (!p) return false;
  let immediate: NodeJS.Immediate | undefined;
  let timer: NodeJS.Timeout | undefined;
  let lastWrite = -Infinity;
  const flushTurn = () => {
    immediate = undefined;
    timer = undefined;
    if (gapMs > 0) lastWrite = performance.now();
    // Not connected: flushPending keeps the buffer, and the client writes it itself once it is back.
    p.flushPending();
  };
  p.sendCommand = (cmd, ...payloads) => {
    p.outbound.fill(typeof cmd === 'string' ? encoder.encode(cmd) : cmd, ...payloads);
    if (p.outbound.size() >= p.pendingLimit) {
      if (gapMs > 0) lastWrite = performance.now();
      p.flushPending();
      return;
    }
    if (immediate !== undefined || timer !== undefined) return;
    // With a gap: a write at most every gapMs, so under load one write carries the messages of several
    // turns (each loopback write also wakes the server); a write after a quiet spell still goes at once.
    const wait = gapMs > 0 ? lastWrite + gapMs - performance.now() : 0;
    if (wait <= 0) immediate = setImmediate(flushTurn);
    else timer = setTimeout(flushTurn, wait);
  };
  // close() without drain() sends nothing more after it; the client's microtask would have run first.
  const close = nc.close.bind(nc);
  nc.close = () => {
    p.flushPending();
    return close();
  };
  // A closed connection has nothing left to write; do not keep a closing process alive for it.
  void nc.closed().then(() => {
    if (immediate) clearImmediate(immediate);
    if (timer) clearTimeout(timer);
    immediate = undefined;
    timer = undefined;
  });
  return true;
}
