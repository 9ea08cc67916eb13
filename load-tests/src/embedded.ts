/**
 * `node --import tsx load-tests/src/embedded.ts [--port 8081] [--workers 1] [--nats URL] [--redis URL]`
 * runs gateway + room workers + matchmaker in this one process (the embedded
 * platform's shape) and prints `READY ws://127.0.0.1:<port>/ws`; Ctrl-C stops it.
 * Its gateway checks tokens with the development secret, so point the swarm at
 * it with `--auth jwt-secret --jwt-secret joke-app-dev-secret-not-for-production`.
 */
import { parseArgs } from 'node:util';
import { startStack } from './stack.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8081' },
    workers: { type: 'string', default: '1' },
    nats: { type: 'string', default: '' },
    redis: { type: 'string', default: '' },
  },
  strict: true,
});
const stack = await startStack({
  port: Number(values.port),
  workers: Number(values.workers),
  natsUrl: values.nats,
  redisUrl: values.redis,
});
process.stdout.write(`READY ${stack.urls.join(',')}\n`);
const stop = async () => {
  await stack.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
