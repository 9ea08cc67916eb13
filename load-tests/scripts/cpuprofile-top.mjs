// Self time by function in V8 CPU profiles (node --cpu-prof), heaviest first, as % of the profile's samples.
//
//   node load-tests/scripts/cpuprofile-top.mjs FILE.cpuprofile [...] [--top N] [--from S] [--to S]
//
// --from S counts only the samples taken S seconds or more after the profile started: a swarm's
// profile covers its ramp (connects, module compiling) too, and the steady state is what a
// measured window sees; --to S ends the count there (before the end-of-run report, say).
//
// Functions are keyed by name + file:line (node_modules paths shortened to the package), so the
// same function seen in several places of the call tree adds up. `(program)`, `(idle)` and
// `(garbage collector)` are V8's own buckets: idle is time the thread waited, GC is collection.
//
// --inclusive counts each function's total time instead — its own and that of everything it
// called, once per sample however often it recurs — to see which entry point a cost hangs under.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args.splice(topAt, 2)[1]) : 25;
const fromAt = args.indexOf('--from');
const fromUs = fromAt >= 0 ? Number(args.splice(fromAt, 2)[1]) * 1e6 : 0;
const toAt = args.indexOf('--to');
const toUs = toAt >= 0 ? Number(args.splice(toAt, 2)[1]) * 1e6 : Infinity;
const inclusiveAt = args.indexOf('--inclusive');
const inclusive = inclusiveAt >= 0 && args.splice(inclusiveAt, 1).length === 1;

for (const file of args) {
  const p = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const hits = new Map();
  let at = 0;
  p.samples.forEach((id, i) => {
    at += p.timeDeltas[i];
    if (at >= fromUs && at < toUs) hits.set(id, (hits.get(id) ?? 0) + 1);
  });
  const self = new Map();
  let total = 0;
  let idle = 0;
  for (const [id, n] of hits) {
    const f = byId.get(id).callFrame;
    total += n;
    if (f.functionName === '(idle)') idle += n;
    if (!inclusive) {
      const key = keyOf(f);
      self.set(key, (self.get(key) ?? 0) + n);
      continue;
    }
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) seen.add(keyOf(byId.get(at).callFrame));
    for (const key of seen) self.set(key, (self.get(key) ?? 0) + n);
  }
  const busy = total - idle;
  console.log(`\n${file}: ${total} samples, busy ${((busy / total) * 100).toFixed(1)}% (idle excluded below)`);
  const rows = [...self.entries()]
    .filter(([k]) => !k.startsWith('(idle)') && !k.startsWith('(root)'))
    .sort((a, b) => b[1] - a[1]);
  for (const [k, n] of rows.slice(0, top)) console.log(`${((n / busy) * 100).toFixed(1).padStart(5)}%  ${k}`);
}

/** Functions keyed by name + file:line:column (node_modules paths shortened to the package). */
function keyOf(f) {
  const url = f.url.replace(/^file:\/\//, '').replace(/.*node_modules\/((?:@[^/]+\/)?[^/]+)\//, '$1:');
  const where = url
    ? ` ${url.replace(/^.*\/(services|load-tests|engine)\//, '$1/')}:${f.lineNumber + 1}:${f.columnNumber + 1}`
    : '';
  return `${f.functionName || '(anonymous)'}${where}`;
}
