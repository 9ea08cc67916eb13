/**
 * `npm run rebalance -- [--max-moves N] [--dry-run]`: asks a matchmaker of the
 * cluster at NATS_URL (and JOKE_NAMESPACE) to even the tables over the live
 * workers by live migration, and prints its report as one JSON line.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { createBus } from '@joke/bus';
import { ConfigError, connectionOptions, defineConfig, exitOnConfigError } from '@joke/ops';
import { bus as wire, call, contract, PROTOCOL_VERSION } from '@joke/protocol';

const { values } = parseArgs({
  options: { 'max-moves': { type: 'string', default: '1000' }, 'dry-run': { type: 'boolean', default: false } },
});
const env = defineConfig(connectionOptions({ natsUrl: '', redisUrl: '' }));
const { natsUrl, namespace, maxMoves } = exitOnConfigError('rebalance', () => {
  const c = env.fromEnv();
  if (!c.natsUrl) throw new ConfigError('NATS_URL is required: rebalancing moves tables between worker processes');
  const n = z.coerce.number().int().min(1).safeParse(values['max-moves']);
  if (!n.success) throw new ConfigError(`invalid --max-moves=${values['max-moves']}`);
  return { ...c, maxMoves: n.data };
});

const bus = await createBus({ natsUrl, namespace, name: 'rebalance-cli' });
const req: wire.RebalanceRequest = { v: PROTOCOL_VERSION, maxMoves, dryRun: values['dry-run'] ?? false };
process.stderr.write(`${req.dryRun ? 'planning' : 'rebalancing'} (up to ${maxMoves} tables)…\n`);
try {
  const reply = await call(bus, contract.rebalance, req, 600_000);
  process.stdout.write(`${JSON.stringify(reply)}\n`);
} finally {
  await bus.close();
}
