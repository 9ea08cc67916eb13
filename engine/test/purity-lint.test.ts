/**
 * The lint rules that keep the engine pure (eslint.config.js): Date.now, new Date(), Math.random and
 * node: imports are refused in engine/src and allowed in its shell tools. Lints a made-up file through
 * eslint's stdin under two names, so a rule dropped or mistyped in the config fails here.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

const PROBE = [
  'export const t = Date.now();',
  'export const r = Math.random();',
  "import { readFileSync } from 'node:fs';",
  'export const d = new Date();',
  "export const m = () => import('node:path');",
  'export const ok = new Date(0).getTime() + readFileSync.length;',
].join('\n');

/** `rule@line` of every message eslint gives the probe when it is named `name`. */
function lint(name: string): string[] {
  const r = spawnSync(
    join(root, 'node_modules', '.bin', 'eslint'),
    ['--stdin', '--stdin-filename', name, '-f', 'json'],
    {
      cwd: root,
      input: PROBE,
      encoding: 'utf8',
    },
  );
  const [report] = JSON.parse(r.stdout) as { messages: { ruleId: string | null; line: number }[] }[];
  return report!.messages.map((m) => `${m.ruleId}@${m.line}`);
}

describe('engine purity lint', () => {
  it('refuses the clock, Math.random and node: inside engine/src', () => {
    expect(lint('engine/src/games/probe.ts')).toEqual([
      'no-restricted-properties@1',
      'no-restricted-properties@2',
      'no-restricted-imports@3',
      'no-restricted-syntax@4',
      'no-restricted-syntax@5',
    ]);
  });

  it('lets the CLI tools read the clock and the file system', () => {
    expect(lint('engine/src/sim/cli.ts')).toEqual([]);
  });
});
