/**
 * Bus messages of a running stack by subject kind, over a window: what one
 * action costs in NATS messages (divide by the swarm's actions/s).
 *
 *   node --import tsx load-tests/scripts/count-bus.ts NAMESPACE [SECONDS]
 *
 * NAMESPACE is the stack's JOKE_NAMESPACE (measure-stack.sh uses `measure<its pid>`). Requests and
 * publishes carry the namespace; replies go to each requester's own inbox and are counted by the
 * requests that asked for them (every request here gets one reply). Room ids, gateway and worker ids
 * are folded into `*`. Subscribing to everything adds one delivery per message to nats-server's work:
 * run it in a window of its own, not while measuring CPU.
 */
import { connect } from '@nats-io/transport-node';

const ns = process.argv[2];
const seconds = Number(process.argv[3] ?? 5);
if (!ns) throw new Error('usage: count-bus.ts NAMESPACE [SECONDS]');
const nc = await connect({ servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
const counts = new Map<string, { msgs: number; bytes: number }>();
const kind = (subject: string): string =>
  subject
    .slice(ns.length + 1)
    .replace(/^joke\.v1\./, '')
    .replace(/^(room|gw|worker)\.[^.]+\.(\w+)$/, '$1.*.$2');
nc.subscribe(`${ns}.>`, {
  callback: (_err, m) => {
    const k = kind(m.subject) + (m.reply ? ' (request)' : '');
    const c = counts.get(k) ?? { msgs: 0, bytes: 0 };
    c.msgs++;
    c.bytes += m.data.length;
    counts.set(k, c);
  },
});
await new Promise((r) => setTimeout(r, seconds * 1000));
await nc.drain();
const rows = [...counts].sort((a, b) => b[1].msgs - a[1].msgs);
for (const [k, c] of rows)
  console.log(`${k}\t${(c.msgs / seconds).toFixed(1)} msgs/s\t${Math.round(c.bytes / Math.max(1, c.msgs))} B avg`);
