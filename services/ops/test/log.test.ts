/**
 * One `service` key per log line: the platform runs several services in one process, and each logs
 * through serviceLogger, never a child that would repeat the key. Runs a small script in a child process
 * and reads its stdout, where pino writes.
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const LOG = fileURLToPath(new URL('../src/log.ts', import.meta.url));

describe('service logs', () => {
  it('a service logger inside another names one service, once', () => {
    const script = `import { createLogger, serviceLogger } from ${JSON.stringify(LOG)};
const root = createLogger('platform', 'info');
serviceLogger(root, 'lobby').info('a');
serviceLogger(serviceLogger(root, 'gateway'), 'matchmaker').info('b');`;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    const lines = out.trim().split('\n');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line.match(/"service":/g)).toHaveLength(1);
    expect(lines.map((l) => JSON.parse(l).service)).toEqual(['lobby', 'matchmaker']);
  });
});
