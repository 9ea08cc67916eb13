/**
 * A NATS cluster of three (scripts/cluster.sh): services connect with all three
 * seeds; SIGKILLing the server a responder is connected to, the responder
 * reconnects to another, resubscribes, and requests (retried by the caller, as
 * the gateway does under one action id) get answers again; durable events
 * stored before the kill (stream replicas 3) are all still delivered.
 */
import { randomBytes } from 'node:crypto';
import { startLocalCluster, type LocalCluster } from '@joke/bus/local-cluster';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BusTimeoutError, NatsBus } from '../src/index.ts';

let cluster: LocalCluster;
const buses: NatsBus[] = [];
const prefix = `ncl_${randomBytes(4).toString('hex')}`;
const quiet = { onHandlerError: () => {} };

beforeAll(async () => {
  cluster = await startLocalCluster();
});
afterAll(async () => {
  for (const b of buses) await b.close().catch(() => {});
  await cluster?.stop();
});

async function connect(): Promise<NatsBus> {
  const bus = await NatsBus.connect(cluster.natsUrls.join(','), { prefix, durableReplicas: 3, ...quiet });
  buses.push(bus);
  return bus;
}

describe('NATS cluster: losing the node a service is connected to', () => {
  it('the responder moves to another node and answers again; stored durable events survive', async () => {
    const responder = await connect();
    const caller = await connect();
    let answered = 0;
    responder.subscribe('svc.echo', (m) => {
      answered++;
      m.respond?.(m.data);
    });
    await responder.flush();
    const got: string[] = [];
    await responder.consumeDurable(
      'ev.kept',
      'keeper',
      async (d) => void got.push(new TextDecoder().decode(d as Uint8Array)),
    );
    expect(new TextDecoder().decode((await caller.request('svc.echo', 'hi', 5_000)) as Uint8Array)).toBe('hi');

    // Stored before the kill, while the consumer is stopped: they must all come back after.
    for (let i = 0; i < 10; i++) await caller.publishDurable('ev.kept', `e${i}`, `e${i}`);
    await waitUntil(() => got.length === 10, 'events before the kill');

    const port = responder.nc.info!.port;
    const victim = cluster.natsPorts.indexOf(port);
    expect(victim).toBeGreaterThanOrEqual(0);
    const t0 = performance.now();
    await cluster.killNats(victim);

    // The caller retries (same request, as under one action id) until the responder is back on another node.
    let retries = 0;
    for (const end = Date.now() + 60_000; ; retries++) {
      try {
        expect(new TextDecoder().decode((await caller.request('svc.echo', 'again', 1_000)) as Uint8Array)).toBe(
          'again',
        );
        break;
      } catch (err) {
        if (!(err instanceof BusTimeoutError) || Date.now() > end) throw err;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    const pauseMs = performance.now() - t0;
    expect(responder.nc.info!.port).not.toBe(port);
    // A producer retries until stored (the worker does): the stream may be electing a new leader.
    for (let i = 10; i < 15; i++) await untilStored(() => caller.publishDurable('ev.kept', `e${i}`, `e${i}`));
    await waitUntil(() => got.length >= 15, 'events after the kill');
    expect([...new Set(got)].sort()).toEqual(Array.from({ length: 15 }, (_, i) => `e${i}`).sort());
    console.log(
      `NATS node SIGKILL: requests answered again after ${pauseMs.toFixed(0)} ms (${retries} retries); ` +
        `responder moved from :${port} to :${responder.nc.info!.port}; ${answered} answers in all`,
    );
  }, 120_000);
});

async function untilStored(publish: () => Promise<void>) {
  for (const end = Date.now() + 60_000; ;) {
    try {
      return await publish();
    } catch (err) {
      if (Date.now() > end) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

async function waitUntil(ok: () => boolean, what: string, timeoutMs = 60_000) {
  for (const end = Date.now() + timeoutMs; !ok();) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
