// What a V8 heap snapshot's objects hold: retained size (the bytes that would go with the object, by
// the dominator tree) summed by constructor, and per instance — e.g. how much heap one live room costs
// a room worker, and what in the room holds it.
//
//   node --max-old-space-size=8000 load-tests/scripts/heap-retained.mjs FILE.heapsnapshot [NAME ...]
//        [--top N] [--children NAME]
//
// Take the snapshot of a process under load with `--heapsnapshot-signal=SIGUSR2` among its node flags
// (measure-stack.sh: MEASURE_NODE_ARGS) and `kill -USR2 PID`; it lands in the process's working
// directory. Writing it stops the process for seconds, so that run's latency figures mean nothing.
//
// Without NAMEs: the --top (default 30) constructors by retained size. NAMEs are as printed
// (`object:Room`, `object:SubscriptionImpl`, `closure:`, `string`). --children NAME breaks each instance of
// NAME into the members it dominates (what `room.deliveries` etc. keep alive on their own), per instance.
// Also prints the snapshot's node count and self size by node type: every object is marked by each
// major GC, so fewer objects is the point as much as fewer bytes.
//
// The dominator tree is computed with Cooper, Harvey and Kennedy's iterative algorithm over a postorder
// from the root; weak and shortcut edges do not retain.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const take = (flag, def) => {
  const i = args.indexOf(flag);
  return i >= 0 ? args.splice(i, 2)[1] : def;
};
const top = Number(take('--top', '30'));
const childrenOf = take('--children', null);
const [file, ...wanted] = args;
if (!file) {
  console.error('usage: heap-retained.mjs FILE.heapsnapshot [NAME ...] [--top N] [--children NAME]');
  process.exit(2);
}

const snap = JSON.parse(readFileSync(file, 'utf8'));
const meta = snap.snapshot.meta;
const NF = meta.node_fields.length;
const EF = meta.edge_fields.length;
const nodeTypes = meta.node_types[0];
const edgeTypes = meta.edge_types[0];
const { nodes: N, edges: E, strings: S } = snap;
const count = N.length / NF;
const F = (f) => meta.node_fields.indexOf(f);
const [iType, iName, iSelf, iEdges] = [F('type'), F('name'), F('self_size'), F('edge_count')];
const eType = meta.edge_fields.indexOf('type');
const eName = meta.edge_fields.indexOf('name_or_index');
const eTo = meta.edge_fields.indexOf('to_node');
const WEAK = edgeTypes.indexOf('weak');
const SHORTCUT = edgeTypes.indexOf('shortcut');

const firstEdge = new Int32Array(count + 1);
for (let i = 0, e = 0; i < count; i++) {
  firstEdge[i] = e;
  e += N[i * NF + iEdges] * EF;
  firstEdge[i + 1] = e;
}
const retains = (e) => E[e + eType] !== WEAK && E[e + eType] !== SHORTCUT;
const name = (i) => {
  const t = nodeTypes[N[i * NF + iType]];
  return t === 'object' || t === 'closure' ? `${t}:${S[N[i * NF + iName]]}` : t;
};

// Predecessors (retaining edges only), as a CSR array.
const predStart = new Int32Array(count + 1);
for (let e = 0; e < E.length; e += EF) if (retains(e)) predStart[E[e + eTo] / NF + 1]++;
for (let i = 0; i < count; i++) predStart[i + 1] += predStart[i];
const preds = new Int32Array(predStart[count]);
const fill = predStart.slice(0, count);
for (let i = 0; i < count; i++)
  for (let e = firstEdge[i]; e < firstEdge[i + 1]; e += EF) if (retains(e)) preds[fill[E[e + eTo] / NF]++] = i;

// Postorder from the root (node 0), iteratively.
const post = new Int32Array(count).fill(-1);
const order = [];
const seen = new Uint8Array(count);
const cursor = new Int32Array(count);
const stack = [0];
seen[0] = 1;
cursor[0] = firstEdge[0];
while (stack.length > 0) {
  const v = stack[stack.length - 1];
  let descended = false;
  while (cursor[v] < firstEdge[v + 1]) {
    const e = cursor[v];
    cursor[v] += EF;
    if (!retains(e)) continue;
    const w = E[e + eTo] / NF;
    if (seen[w]) continue;
    seen[w] = 1;
    cursor[w] = firstEdge[w];
    stack.push(w);
    descended = true;
    break;
  }
  if (!descended) {
    stack.pop();
    post[v] = order.length;
    order.push(v);
  }
}

const dom = new Int32Array(count).fill(-1);
dom[0] = 0;
const intersect = (a, b) => {
  while (a !== b) {
    while (post[a] < post[b]) a = dom[a];
    while (post[b] < post[a]) b = dom[b];
  }
  return a;
};
for (let changed = true; changed;) {
  changed = false;
  for (let k = order.length - 2; k >= 0; k--) {
    const v = order[k];
    let d = -1;
    for (let p = predStart[v]; p < predStart[v + 1]; p++) {
      const u = preds[p];
      if (seen[u] && dom[u] !== -1) d = d === -1 ? u : intersect(u, d);
    }
    if (d !== -1 && dom[v] !== d) {
      dom[v] = d;
      changed = true;
    }
  }
}
const retained = new Float64Array(count);
for (let i = 0; i < count; i++) retained[i] = N[i * NF + iSelf];
for (const v of order) if (v !== 0 && dom[v] >= 0) retained[dom[v]] += retained[v];

const byType = new Map();
for (let i = 0; i < count; i++) {
  const t = nodeTypes[N[i * NF + iType]];
  const a = byType.get(t) ?? [0, 0];
  a[0] += N[i * NF + iSelf];
  a[1]++;
  byType.set(t, a);
}
const mb = (b) => (b / 1e6).toFixed(2).padStart(8);
console.log(`${file}: ${count} nodes, ${mb(retained[0]).trim()} MB reachable`);
console.log('self size by node type (MB, nodes):');
for (const [t, [b, n]] of [...byType].sort((x, y) => y[1][0] - x[1][0]).slice(0, 10))
  console.log(`${mb(b)} ${String(n).padStart(9)}  ${t}`);

const byName = new Map();
for (let i = 0; i < count; i++) {
  if (!seen[i]) continue;
  const k = name(i);
  const a = byName.get(k) ?? [0, 0];
  a[0] += retained[i];
  a[1]++;
  byName.set(k, a);
}
console.log('retained by constructor (MB, instances, bytes per instance):');
const names = wanted.length > 0 ? wanted : [...byName.keys()].sort((a, b) => byName.get(b)[0] - byName.get(a)[0]);
for (const k of names.slice(0, wanted.length > 0 ? names.length : top)) {
  const [b, n] = byName.get(k) ?? [0, 0];
  console.log(`${mb(b)} ${String(n).padStart(9)} ${String(n ? Math.round(b / n) : 0).padStart(8)}  ${k}`);
}

if (childrenOf) {
  const parts = new Map();
  let instances = 0;
  for (let i = 0; i < count; i++) {
    if (!seen[i] || name(i) !== childrenOf) continue;
    instances++;
    for (let e = firstEdge[i]; e < firstEdge[i + 1]; e += EF) {
      const w = E[e + eTo] / NF;
      if (dom[w] !== i) continue;
      const t = edgeTypes[E[e + eType]];
      const edge = t === 'element' || t === 'hidden' ? `[${t}]` : S[E[e + eName]];
      const k = `${edge} (${name(w)})`;
      parts.set(k, (parts.get(k) ?? 0) + retained[w]);
    }
  }
  console.log(`what each ${childrenOf} dominates (${instances} instances; bytes per instance):`);
  for (const [k, b] of [...parts].sort((x, y) => y[1] - x[1]).slice(0, top))
    console.log(`${String(Math.round(b / Math.max(1, instances))).padStart(8)}  ${k}`);
}
