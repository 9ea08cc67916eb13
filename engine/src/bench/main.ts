/**
 * `npm run bench -w engine`: throughput of the hot paths on one core. Each
 * game contributes a module exporting `run()`; figures are printed as a table
 * and, for evaluators, as ratios against other libraries measured in the same run.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface BenchLine {
  name: string;
  value: number;
  unit: string;
  /** e.g. "1.3× phe" */
  note?: string;
}

const dir = fileURLToPath(new URL('.', import.meta.url));
const modules = readdirSync(dir).filter((f) => f.endsWith('.ts') && f !== 'main.ts' && f !== 'util.ts');
const lines: BenchLine[] = [];
for (const file of modules.sort()) {
  const mod = (await import(`./${file}`)) as { run: () => Promise<BenchLine[]> | BenchLine[] };
  process.stderr.write(`bench ${file}…\n`);
  for (const l of await mod.run()) {
    lines.push(l);
    console.log(
      `${l.name.padEnd(48)} ${Math.round(l.value).toLocaleString('en-US').padStart(14)} ${l.unit}${l.note ? `  (${l.note})` : ''}`,
    );
  }
}
console.log(JSON.stringify(Object.fromEntries(lines.map((l) => [l.name, Math.round(l.value)]))));
