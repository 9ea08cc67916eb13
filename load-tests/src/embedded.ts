/**
 * `node --import tsx load-tests/src/embedded.ts [--port 8081] [--workers 1] [--nats URL] [--redis URL]`
 * runs gateway + room workers + matchmaker in this one process (the embedded
 * platform's shape) and prints `READY ws://127.0.0.1:<port>/ws`; Ctrl-C stops it.
 */
import { startStack } from './stack.ts';

const arg = (name: string, def: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : def;
};
const stack = await startStack({
  port: Number(arg('port', '8081')),
  workers: Number(arg('workers', '1')),
  natsUrl: arg('nats', ''),
  redisUrl: arg('redis', ''),
});
process.stdout.write(`READY ${stack.urls.join(',')}\n`);
const stop = async () => {
  await stack.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
