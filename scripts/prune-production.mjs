#!/usr/bin/env node
/**
 * `node scripts/prune-production.mjs <from-node_modules> <to-node_modules> [--link]`:
 * puts into <to> exactly the packages the compiled services import
 * (dist/externals.json, written by build-services.mjs) and, transitively,
 * their dependencies, optional dependencies and required peers — nothing a
 * build or a test needs (Prisma's CLI, Phaser, TypeScript...). uWebSockets.js
 * keeps only the native binary for this platform and Node ABI. `--link` makes
 * symlinks instead of copies (the tests run the compiled services on such a
 * tree with --preserve-symlinks, so a missing package fails there too).
 * Prints the packages and their size.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';

export function closure(from, roots) {
  const seen = new Map(); // package dir relative to `from` → name
  const visit = (name, parentDir, optional = false) => {
    // Node's lookup: the parent's own node_modules first, then each folder up to `from`.
    let dir = parentDir;
    for (;;) {
      const candidate = join(from, dir, dir ? 'node_modules' : '', name);
      if (existsSync(join(candidate, 'package.json'))) {
        const rel = join(dir, dir ? 'node_modules' : '', name);
        if (seen.has(rel)) return;
        seen.set(rel, name);
        const pkg = JSON.parse(readFileSync(join(candidate, 'package.json'), 'utf8'));
        const optionalPeers = pkg.peerDependenciesMeta ?? {};
        for (const d of Object.keys(pkg.dependencies ?? {})) visit(d, rel);
        for (const d of Object.keys(pkg.optionalDependencies ?? {})) visit(d, rel, true);
        // Required peers, except type-only ones (TypeScript, @types/*): nothing loads them at run time.
        for (const d of Object.keys(pkg.peerDependencies ?? {}))
          if (!optionalPeers[d]?.optional && d !== 'typescript' && !d.startsWith('@types/')) visit(d, rel);
        return;
      }
      if (!dir) {
        if (optional) return; // an optional dependency not installed on this platform
        throw new Error(`${name} (needed by ${parentDir || 'the services'}) is not installed`);
      }
      // Up one level: strip the last "node_modules/<name>" segment.
      const i = dir.lastIndexOf('node_modules');
      dir = i <= 0 ? '' : dir.slice(0, i - 1);
    }
  };
  for (const r of roots) visit(r, '');
  return [...seen.keys()].sort();
}

function sizeOf(p) {
  const s = statSync(p);
  if (!s.isDirectory()) return s.size;
  return readdirSync(p).reduce((n, f) => n + sizeOf(join(p, f)), 0);
}

export function prune(from, to, { link = false, externals } = {}) {
  const packages = closure(from, externals);
  rmSync(to, { recursive: true, force: true });
  mkdirSync(to, { recursive: true });
  // Nested packages are copied with their parent; only top-level entries (and nested ones under linked parents) matter.
  const tops = packages.filter((p) => !packages.some((q) => q !== p && p.startsWith(`${q}/node_modules/`)));
  for (const rel of tops) {
    const src = join(from, rel);
    const dst = join(to, rel);
    mkdirSync(dirname(dst), { recursive: true });
    if (link) symlinkSync(src, dst, 'dir');
    else
      cpSync(src, dst, {
        recursive: true,
        dereference: true,
        filter: (f) => {
          // Only this platform's uWS binary (the package ships 30 of them, 92 MB).
          const m = /uws_([a-z0-9]+)_([a-z0-9]+)_(\d+)\.node$/.exec(f);
          return !m || (m[1] === process.platform && m[2] === process.arch && m[3] === process.versions.modules);
        },
      });
  }
  return { packages, bytes: link ? 0 : sizeOf(to) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [from, to] = process.argv.slice(2);
  const root = new URL('..', import.meta.url).pathname;
  const externals = JSON.parse(readFileSync(join(root, 'dist/externals.json'), 'utf8'));
  const r = prune(from, to, { link: process.argv.includes('--link'), externals });
  console.log(`${r.packages.length} packages${r.bytes ? `, ${(r.bytes / 2 ** 20).toFixed(1)} MiB` : ''} in ${to}`);
}
