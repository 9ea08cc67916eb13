/**
 * Where a .cpuprofile's time went: self time by package (node_modules/<pkg>, node: internals, the
 * lobby's own src/…) and by function, and the inclusive time of the lobby's procedures' call sites.
 *
 *   node --import tsx services/lobby/bench/profile-summary.ts services/lobby/bench/profiles/CPU…cpuprofile [--top 30]
 *
 * Used to read the benchmark's `--cpu-prof` output (issue 15, item 7); prints figures only.
 */
import { readFileSync } from 'node:fs';

interface Frame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface Node {
  id: number;
  callFrame: Frame;
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const file = process.argv[2];
if (!file) throw new Error('usage: profile-summary.ts <file.cpuprofile> [--top N]');
const topAt = process.argv.indexOf('--top');
const TOP = topAt >= 0 ? Number(process.argv[topAt + 1]) : 30;
const prof = JSON.parse(readFileSync(file, 'utf8')) as Profile;

/** A frame's package: the node_modules package, a node: internal, the lobby's own file, or the VM's bucket. */
function packageOf(f: Frame): string {
  const u = f.url;
  if (!u) return f.functionName.startsWith('(') ? f.functionName : '(native)';
  const nm = u.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = u.slice(nm + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (u.startsWith('node:')) return `node:${u.slice(5).split('/')[0]}`;
  const src = u.indexOf('/services/lobby/src/');
  if (src >= 0) return `lobby ${u.slice(src + '/services/lobby/'.length)}`;
  const ws = /\/(engine|services\/[^/]+|protocol|bus)\//.exec(u);
  return ws ? `@joke ${ws[1]}` : u;
}

const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const selfUs = new Map<number, number>();
let total = 0;
prof.samples.forEach((id, i) => {
  const dt = prof.timeDeltas[i] ?? 0;
  selfUs.set(id, (selfUs.get(id) ?? 0) + dt);
  total += dt;
});
const idle = [...selfUs].reduce((s, [id, us]) => (byId.get(id)!.callFrame.functionName === '(idle)' ? s + us : s), 0);
const busy = total - idle;

const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
const pkgSelf = new Map<string, number>();
const fnSelf = new Map<string, number>();
/** Inclusive time per lobby source function: every sample counts once for each distinct lobby frame above it. */
const lobbyIncl = new Map<string, number>();
for (const [id, us] of selfUs) {
  const f = byId.get(id)!.callFrame;
  if (f.functionName === '(idle)') continue;
  const pkg = packageOf(f);
  add(pkgSelf, pkg, us);
  add(fnSelf, `${f.functionName || '(anonymous)'}  [${pkg}:${f.lineNumber + 1}]`, us);
  const seen = new Set<string>();
  for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
    const cf = byId.get(n)!.callFrame;
    const p = packageOf(cf);
    if (!p.startsWith('lobby ')) continue;
    const key = `${cf.functionName || '(anonymous)'}  [${p}:${cf.lineNumber + 1}]`;
    if (!seen.has(key)) {
      seen.add(key);
      add(lobbyIncl, key, us);
    }
  }
}

const pct = (us: number) => `${((100 * us) / busy).toFixed(1).padStart(5)} %`;
const print = (title: string, m: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`${pct(us)}  ${k}`);
};
console.log(
  `${file}: ${(total / 1e6).toFixed(1)} s sampled, busy ${(busy / 1e6).toFixed(1)} s (${((100 * busy) / total).toFixed(0)} %)`,
);
print('self time by package (% of busy)', pkgSelf);
print('self time by function (% of busy)', fnSelf);
print('inclusive time of lobby source functions (% of busy)', lobbyIncl);

// --callers NAME: who calls the functions named NAME (self time of NAME, by the stack above it, 6 frames).
const callersAt = process.argv.indexOf('--callers');
if (callersAt >= 0) {
  const name = process.argv[callersAt + 1];
  const stacks = new Map<string, number>();
  for (const [id, us] of selfUs) {
    if (byId.get(id)!.callFrame.functionName !== name) continue;
    const frames: string[] = [];
    for (let n = parent.get(id); n !== undefined && frames.length < 6; n = parent.get(n)) {
      const cf = byId.get(n)!.callFrame;
      frames.push(`${cf.functionName || '(anonymous)'}[${packageOf(cf)}:${cf.lineNumber + 1}]`);
    }
    add(stacks, frames.join(' < '), us);
  }
  print(`callers of ${name} (% of busy)`, stacks);
}
