/**
 * `joke-streams`: the JetStream set-up and the dead-letter tools, run with the NATS `admin` user (the chart
 * runs `ensure` as a post-install/post-upgrade hook Job; the services' own users may not create streams).
 *
 *   node dist/services/lobby/streams-cli.js ensure            every durable route's stream, dead-letter stream
 *                                                             and durable consumer, created or updated (idempotent)
 *   node dist/services/lobby/streams-cli.js dead <route> [n]  the first n parked events of a route, one JSON line each
 *   node dist/services/lobby/streams-cli.js replay <route> [n] publishes them back on the route, then drops them
 *
 * Reads NATS_URL (with the admin's credentials), JOKE_NAMESPACE and JETSTREAM_REPLICAS. NATS not reachable
 * yet (the hook runs while the StatefulSet starts) is retried for CONNECT_BUDGET_MS, then exit 1; a bad
 * argument exits 2 with the reason.
 */
import { NatsBus } from '@joke/bus';
import { contract, wireText, type ContractName } from '@joke/protocol';

const CONNECT_BUDGET_MS = 5 * 60_000;

const durableRoutes = () =>
  (Object.keys(contract) as ContractName[])
    .map((name) => ({ name, route: contract[name] as { subject?: string; durable?: string } }))
    .filter((r): r is { name: ContractName; route: { subject: string; durable: string } } =>
      Boolean(r.route.durable && r.route.subject),
    );

async function connect(): Promise<NatsBus> {
  const url = process.env.NATS_URL;
  if (!url) throw new Error('NATS_URL is required (the admin user)');
  for (const end = Date.now() + CONNECT_BUDGET_MS; ;) {
    try {
      return await NatsBus.connect(url, { prefix: process.env.JOKE_NAMESPACE ?? '', name: 'joke-streams' });
    } catch (err) {
      if (Date.now() > end) throw err;
      console.error(`NATS not reachable yet (${(err as Error).message}); retrying`);
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
}

async function main(argv: string[]): Promise<number> {
  const [cmd = 'ensure', routeName, limitArg] = argv;
  const routes = durableRoutes();
  const pick = () => {
    const r = routes.find((x) => x.name === routeName);
    if (!r) throw Object.assign(new Error(`route must be one of ${routes.map((x) => x.name).join(', ')}`), { exit: 2 });
    return r;
  };
  const limit = limitArg === undefined ? undefined : Number(limitArg);
  if (!['ensure', 'dead', 'replay'].includes(cmd) || (limit !== undefined && !(limit > 0))) {
    console.error('usage: joke-streams ensure | dead <route> [n] | replay <route> [n]');
    return 2;
  }
  const target = cmd === 'ensure' ? null : pick();
  const bus = await connect();
  try {
    if (!target) {
      for (const r of routes) {
        await bus.ensureDurable(r.route.subject, r.route.durable);
        console.log(`stream, dead-letter stream and consumer ${r.route.durable} of ${r.route.subject}: ready`);
      }
    } else if (cmd === 'dead') {
      for (const p of await bus.deadLetters(target.route.subject).list(limit))
        console.log(JSON.stringify({ ...p, data: wireText(p.data) }));
    } else {
      console.log(`replayed ${await bus.deadLetters(target.route.subject).replay(limit)} events`);
    }
    return 0;
  } finally {
    await bus.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit((err as { exit?: number }).exit ?? 1);
  },
);
