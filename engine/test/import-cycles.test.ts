/**
 * No import cycle inside engine/src, services/gateway/src or services/room-worker/src (issue 39:
 * poker's betting → flow → betting was one). Runs scripts/import-cycles.mjs, the repo's own walker of
 * relative imports (madge is not installed), as a child process, and first shows on a throw-away
 * folder that the walker does find a cycle, so a walker broken into finding none cannot pass.
 * Type imports count too: a type-only loop costs nothing at run time but still makes its files one unit.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const script = join(root, 'scripts', 'import-cycles.mjs');

/** Exit code and output of the walker over `args`. */
function walk(args: string[]): { code: number; out: string } {
  try {
    return { code: 0, out: execFileSync(process.execPath, [script, ...args], { cwd: root, encoding: 'utf8' }) };
  } catch (err) {
    const e = err as { status: number; stdout: string };
    return { code: e.status, out: e.stdout };
  }
}

describe('import cycles', () => {
  const fixture = mkdtempSync(join(tmpdir(), 'import-cycles-'));
  afterAll(() => rmSync(fixture, { recursive: true, force: true }));

  it('the walker finds a value cycle and a type-only one in a made-up folder', () => {
    const dir = join(fixture, 'value');
    const typed = join(fixture, 'typed');
    for (const d of [dir, typed]) mkdirSync(join(d, 'sub'), { recursive: true });
    writeFileSync(join(dir, 'a.ts'), "import { b } from './sub/b.ts';\nexport const a = () => b;\n");
    writeFileSync(join(dir, 'sub', 'b.ts'), "import { a } from '../a.ts';\nexport const b = 1;\nvoid a;\n");
    writeFileSync(join(dir, 'c.ts'), "import { a } from './a.ts';\nexport const c = a;\n");
    writeFileSync(join(typed, 'a.ts'), "import type { B } from './sub/b.ts';\nexport type A = B[];\n");
    writeFileSync(join(typed, 'sub', 'b.ts'), "import { type A } from '../a.ts';\nexport type B = A | 1;\n");

    const value = walk([dir]);
    expect(value.code).toBe(1);
    expect(value.out).toMatch(/a\.ts → .*sub\/b\.ts → .*a\.ts/);
    expect(value.out).not.toContain('c.ts');
    expect(walk(['--values', dir]).code).toBe(1);

    expect(walk([typed]).code).toBe(1);
    expect(walk(['--values', typed])).toEqual({ code: 0, out: 'no import cycle in 1 folder(s)\n' });
  });

  it('engine/src, gateway/src and room-worker/src have none, not even through type imports', () => {
    const r = walk([]);
    expect(r.out).toBe('no import cycle in 3 folder(s)\n');
    expect(r.code).toBe(0);
  });
});
