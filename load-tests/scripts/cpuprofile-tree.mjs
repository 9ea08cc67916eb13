// Inclusive (total) and self time by function in V8 CPU profiles (node --cpu-prof), and who calls a
// function: the self-time list (cpuprofile-top.mjs) cannot say which caller a cost belongs to.
//
//   node load-tests/scripts/cpuprofile-tree.mjs FILE.cpuprofile [--top N] [--callers REGEX] [--callees REGEX] [--skip REGEX]
//
// tsx compiles each source file to one line, so functions are keyed by name + file:line:column.
// Total time counts a sample once per function even when it recurses. --callers REGEX lists, for the
// functions whose key matches, the call paths (up to 6 frames up) that lead to them, by samples;
// --callees REGEX lists what their samples were spent in (the self frame under them). --skip REGEX drops
// the samples with a matching frame anywhere on their stack (e.g. start-up: 'evaluate|Module._load').
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const opt = (name) => {
  const at = args.indexOf(name);
  return at >= 0 ? args.splice(at, 2)[1] : undefined;
};
const top = Number(opt('--top') ?? 40);
const callers = opt('--callers');
const callees = opt('--callees');
const skip = opt('--skip');

for (const file of args) {
  const p = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const keyOf = (n) => {
    const f = n.callFrame;
    const url = f.url.replace(/^file:\/\//, '').replace(/.*node_modules\/((?:@[^/]+\/)?[^/]+)\//, '$1:');
    const where = url
      ? ` ${url.replace(/^.*\/(services|load-tests|engine)\//, '$1/')}:${f.lineNumber + 1}:${f.columnNumber + 1}`
      : '';
    return `${f.functionName || '(anonymous)'}${where}`;
  };
  const hits = new Map();
  for (const id of p.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
  const self = new Map();
  const total = new Map();
  const paths = new Map();
  const under = new Map();
  let all = 0;
  let idle = 0;
  for (const [id, n] of hits) {
    const node = byId.get(id);
    all += n;
    if (node.callFrame.functionName === '(idle)') {
      idle += n;
      continue;
    }
    const chain = [];
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) chain.push(keyOf(byId.get(cur)));
    if (skip && chain.some((k) => new RegExp(skip).test(k))) {
      all -= n;
      continue;
    }
    const selfKey = chain[0];
    self.set(selfKey, (self.get(selfKey) ?? 0) + n);
    const seen = new Set();
    for (let i = 0; i < chain.length; i++) {
      const k = chain[i];
      if (seen.has(k)) continue;
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + n);
      if (callers && new RegExp(callers).test(k)) {
        const path = chain.slice(i, i + 7).join('  <-  ');
        paths.set(path, (paths.get(path) ?? 0) + n);
      }
      if (callees && new RegExp(callees).test(k)) under.set(selfKey, (under.get(selfKey) ?? 0) + n);
    }
  }
  const busy = all - idle;
  const pct = (n) => `${((n / busy) * 100).toFixed(1).padStart(5)}%`;
  console.log(`\n${file}: ${all} samples, busy ${((busy / all) * 100).toFixed(1)}% (idle excluded; % of busy)`);
  console.log('  total   self  function');
  const rows = [...total.entries()].filter(([k]) => k !== '(root)').sort((a, b) => b[1] - a[1]);
  for (const [k, n] of rows.slice(0, top)) console.log(`${pct(n)} ${pct(self.get(k) ?? 0)}  ${k}`);
  if (callers) {
    console.log(`\ncall paths to /${callers}/:`);
    for (const [k, n] of [...paths.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(n)}  ${k}`);
  }
  if (callees) {
    console.log(`\nself time under /${callees}/:`);
    for (const [k, n] of [...under.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(n)}  ${k}`);
  }
}
