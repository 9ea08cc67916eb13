// What a running node process allocates that outlives the young generation: V8's sampling heap profiler,
// attached over the inspector, keeping the samples of objects that survived their scavenges (whether a
// later mark-compact collected them or they still live) and dropping those a scavenge collected. Those
// are what the old generation grows by, and what starts each mark-compact.
//
//   node load-tests/scripts/heap-promoted.mjs WS_URL [--seconds S] [--interval BYTES] [--top N] [--stacks] [--live]
//
// WS_URL is the `ws://127.0.0.1:PORT/UUID` a process started with `--inspect=127.0.0.1:0` prints
// ("Debugger listening on …"; measure-stack.sh: MEASURE_NODE_ARGS). Prints the sampled bytes by the
// allocating function (its own frame), heaviest first; --stacks adds the three frames under each.
// The bytes are estimates (one sample per --interval bytes allocated, default 4096), so compare shares.
// --live keeps only what is still alive when sampling stops (no mark-compact collected it): the difference
// from a run without it is what was promoted and then died old.
import WebSocket from 'ws';

const args = process.argv.slice(2);
const take = (flag, def) => {
  const i = args.indexOf(flag);
  return i >= 0 ? args.splice(i, 2)[1] : def;
};
const seconds = Number(take('--seconds', '20'));
const interval = Number(take('--interval', '4096'));
const top = Number(take('--top', '30'));
const liveAt = args.indexOf('--live');
const live = liveAt >= 0 && args.splice(liveAt, 1).length === 1;
const stacksAt = args.indexOf('--stacks');
const stacks = stacksAt >= 0 && args.splice(stacksAt, 1).length === 1;
const [url] = args;
if (!url) {
  console.error('usage: heap-promoted.mjs WS_URL [--seconds S] [--interval BYTES] [--top N] [--stacks]');
  process.exit(2);
}

const ws = new WebSocket(url);
let id = 0;
const waiting = new Map();
const send = (method, params = {}) =>
  new Promise((resolve, reject) => {
    const n = ++id;
    waiting.set(n, { resolve, reject });
    ws.send(JSON.stringify({ id: n, method, params }));
  });
ws.on('message', (data) => {
  const m = JSON.parse(String(data));
  const w = m.id !== undefined ? waiting.get(m.id) : undefined;
  if (!w) return;
  waiting.delete(m.id);
  if (m.error) w.reject(new Error(JSON.stringify(m.error)));
  else w.resolve(m.result);
});
await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));

await send('HeapProfiler.enable');
await send('HeapProfiler.startSampling', {
  samplingInterval: interval,
  includeObjectsCollectedByMajorGC: !live,
  includeObjectsCollectedByMinorGC: false,
});
console.error(`sampling for ${seconds} s …`);
await new Promise((r) => setTimeout(r, seconds * 1000));
// A full collection first, so that "alive" means reachable, not merely not yet collected.
if (live) await send('HeapProfiler.collectGarbage');
const { profile } = await send('HeapProfiler.stopSampling');
ws.close();

const name = (f) =>
  `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(services|engine|load-tests)\//, '$1/')}:${f.lineNumber + 1}`;
const own = new Map();
const under = new Map();
let total = 0;
const walk = (node, path) => {
  const here = [...path, name(node.callFrame)];
  if (node.selfSize > 0) {
    total += node.selfSize;
    const key = here[here.length - 1];
    own.set(key, (own.get(key) ?? 0) + node.selfSize);
    if (stacks) {
      const s = here.slice(-4).reverse().join('  <  ');
      under.set(s, (under.get(s) ?? 0) + node.selfSize);
    }
  }
  for (const c of node.children) walk(c, here);
};
walk(profile.head, []);
const mb = (b) => (b / 1e6).toFixed(2);
const what = live ? 'still alive at the end' : 'surviving the young generation';
console.log(`${mb(total)} MB sampled as ${what} in ${seconds} s (${mb(total / seconds)} MB/s)`);
for (const [k, b] of [...own].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(`${((100 * b) / total).toFixed(1).padStart(5)}%  ${mb(b).padStart(7)} MB  ${k}`);
if (stacks) {
  console.log('\nby the allocation and the three frames under it:');
  for (const [k, b] of [...under].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${((100 * b) / total).toFixed(1).padStart(5)}%  ${k}`);
}
