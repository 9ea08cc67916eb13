#!/usr/bin/env node
/**
 * `node scripts/import-cycles.mjs [--values] [DIR…]`: finds import cycles among the TypeScript files under
 * each DIR (default: engine/src, services/gateway/src, services/room-worker/src) and exits 1 when there is
 * one. `--values` counts only the imports that survive compilation (see `importGraph`).
 * madge is not installed here, so this walks the relative `import`/`export … from`/`import('…')`
 * specifiers itself; a package import (`@joke/…`, `zod`) leaves the folder and cannot close a cycle in it.
 *
 * Every import counts, `import type` included: a type-only cycle costs nothing at run time but still
 * ties two modules into one unit a reader must take in together (issue 39), so it is refused as well.
 *
 * State: none (reads files, pure otherwise). Failure modes: a specifier built at run time
 * (`import(name)`) is invisible to it; an import in a comment or string literal is read as a real one
 * (harmless: it can only report too much); a relative specifier that names no file is ignored
 * (tsc reports those).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** A static import/export statement with a relative specifier: [, keyword clause, quote, specifier]. */
const STATIC = /^\s*((?:import|export)\b[^'"]*?)(['"])(\.{1,2}\/[^'"]+)\2/gm;
/** `import('…')` with a relative literal: always a value import. */
const DYNAMIC = /\bimport\s*\(\s*(['"])(\.{1,2}\/[^'"]+)\1/g;

/**
 * Whether a statement's clause (`import type { A } from`, `import { type A, type B } from`) is erased
 * at compile time. `import './x'` (side effects) and any clause with a value name is not.
 */
function typeOnly(clause) {
  if (/^\s*(?:import|export)\s+type\b/.test(clause)) return true;
  const braces = clause.match(/\{([^}]*)\}/);
  if (!braces || /^\s*import\s+[\w$]+\s*,/.test(clause) || /\*\s+as\b/.test(clause)) return false;
  const names = braces[1]
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  return names.length > 0 && names.every((n) => n.startsWith('type '));
}

/** Every .ts/.tsx/.mts file under `dir`, recursively. */
function sourceFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'node_modules' && name !== 'generated') out.push(...sourceFiles(path));
    } else if (/\.(m?ts|tsx)$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** The file a relative specifier names (`./x.ts`, `./x.js` written for `./x.ts`, `./dir` → `./dir/index.ts`). */
function resolveSpecifier(from, spec) {
  const base = resolve(dirname(from), spec);
  const candidates = [base, base.replace(/\.m?js$/, '.ts'), `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? null;
}

/**
 * The relative imports of each file under `dir`: file → files it imports (absolute paths).
 * `values: true` keeps only the imports that survive compilation (no `import type`): the ones that
 * decide load order, where a cycle can hand a module an uninitialised binding.
 */
export function importGraph(dir, { values = false } = {}) {
  const root = resolve(dir);
  const files = sourceFiles(root);
  const graph = new Map();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const targets = new Set();
    const add = (spec) => {
      const target = resolveSpecifier(file, spec);
      if (target) targets.add(target);
    };
    for (const m of text.matchAll(STATIC)) if (!values || !typeOnly(m[1])) add(m[3]);
    for (const m of text.matchAll(DYNAMIC)) add(m[2]);
    graph.set(file, [...targets]);
  }
  return graph;
}

/**
 * The strongly connected components of more than one file (or a file importing itself), each
 * as one cycle path through it: Tarjan's algorithm, iterative so a deep chain cannot overflow.
 */
export function findCycles(graph) {
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const components = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const to = edges[frame.edge++];
        if (!graph.has(to)) continue;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node), index.get(to)));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent), low.get(frame.node)));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const component = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        const selfLoop = (graph.get(frame.node) ?? []).includes(frame.node);
        if (component.length > 1 || selfLoop) components.push(cyclePath(graph, new Set(component)));
      }
    }
  }
  return components;
}

/** One concrete cycle inside a strongly connected component, for the message: a → b → … → a. */
function cyclePath(graph, members) {
  const first = [...members].sort()[0];
  const seen = new Map([[first, null]]);
  const queue = [first];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const to of graph.get(node) ?? []) {
      if (!members.has(to)) continue;
      if (to === first) {
        const path = [node];
        for (let p = seen.get(node); p !== null; p = seen.get(p)) path.unshift(p);
        return [...path, first];
      }
      if (!seen.has(to)) {
        seen.set(to, node);
        queue.push(to);
      }
    }
  }
  return [first, first];
}

/** The cycles under each dir, with paths relative to `base` for reading (`values`: see importGraph). */
export function cyclesIn(dirs, base = process.cwd(), options = {}) {
  return dirs.flatMap((dir) => findCycles(importGraph(dir, options)).map((c) => c.map((f) => relative(base, f))));
}

export const DEFAULT_DIRS = ['engine/src', 'services/gateway/src', 'services/room-worker/src'];

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
  const args = process.argv.slice(2);
  const values = args.includes('--values');
  const named = args.filter((a) => a !== '--values');
  const dirs = (named.length > 0 ? named : DEFAULT_DIRS).map((d) => resolve(root, d));
  const cycles = cyclesIn(dirs, root, { values });
  for (const c of cycles) console.log(`cycle: ${c.join(' → ')}`);
  console.log(cycles.length === 0 ? `no import cycle in ${dirs.length} folder(s)` : `${cycles.length} cycle(s)`);
  process.exit(cycles.length === 0 ? 0 : 1);
}
