/**
 * Every service refuses to start on a bad setting with one readable line naming the
 * variable and exit code 78 (EX_CONFIG), never a stack trace, and before it opens
 * any port or connection.
 */
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));

function run(service: string, env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', `services/${service}/src/main.ts`],
      // No NATS/Redis/database URLs: a service that got past its configuration would fail differently.
      { cwd: root, env: { PATH: process.env.PATH ?? '', ...env }, timeout: 180_000 },
      (err, _stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stderr }),
    );
  });
}

describe('configuration errors at start-up', () => {
  const cases: [string, Record<string, string>, string][] = [
    ['room-worker', { SHARD: 'abc' }, 'SHARD'],
    ['matchmaker', { DEAD_AFTER_MS: '-5' }, 'DEAD_AFTER_MS'],
    ['gateway', { PORT: '8081' }, 'JWT_SECRET'],
    ['gateway', { JWT_SECRET: 'x'.repeat(32), GATEWAY_RATE_BURST: '0' }, 'GATEWAY_RATE_BURST'],
    ['lobby', { PORT: 'eighty' }, 'PORT'],
    ['platform', { GATEWAY_PORT: '70000' }, 'GATEWAY_PORT'],
  ];
  for (const [service, env, variable] of cases) {
    // A process start takes 2 s on a quiet box and 10–30 s on a busy one: the bound is for a hang only.
    it(`${service}: a bad ${variable} gives one line and exit code 78`, async () => {
      const { code, stderr } = await run(service, env);
      expect(code).toBe(78);
      const lines = stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`${service}: configuration error`);
      expect(lines[0]).toContain(variable);
      expect(stderr).not.toMatch(/\n\s+at /);
    }, 200_000);
  }
});
