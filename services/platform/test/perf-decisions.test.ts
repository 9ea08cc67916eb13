/**
 * Keeps docs/perf-decisions.md honest, cheaply: every device section states what it is, where it
 * lives, its benchmark, its measured gain and when to undo it; every file a device names exists (a
 * refactor that moves or deletes one must update the list, and so sees the device); the devices issue
 * 39 listed are still there; and the relative links between the docs resolve (the map and the
 * measurements point at each other). Reads files only: no state, nothing to fail but the docs.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const DOCS = join(ROOT, 'docs');
const FIELDS = ['What', 'Where', 'Benchmark', 'Gain', 'Undo when'] as const;

/** The `###` sections of the file, each with its title and body. */
function devices(text: string): { title: string; body: string }[] {
  return text
    .split(/^### /m)
    .slice(1)
    .map((chunk) => {
      const end = chunk.search(/^## /m);
      const section = end < 0 ? chunk : chunk.slice(0, end);
      const nl = section.indexOf('\n');
      return { title: section.slice(0, nl).trim(), body: section.slice(nl + 1) };
    });
}

/** The text of one `- **Field:** …` bullet, up to the next bullet or the end of the section. */
function field(body: string, name: string): string | undefined {
  const m = new RegExp(`^- \\*\\*${name}:\\*\\*([\\s\\S]*?)(?=^- \\*\\*|$(?![\\s\\S]))`, 'm').exec(body);
  return m?.[1]?.trim();
}

/** Backticked repository paths in a text: no spaces, and a slash or a file extension. */
const paths = (text: string): string[] =>
  [...text.matchAll(/`([^`\s]+)`/g)]
    .map((m) => m[1]!)
    .filter((t) => t.includes('/') || /\.(ts|mjs|js|sh|md|json|yaml)$/.test(t));

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return markdownFiles(p);
    return name.endsWith('.md') ? [p] : [];
  });
}

const text = readFileSync(join(DOCS, 'perf-decisions.md'), 'utf8');
const list = devices(text);

describe('docs/perf-decisions.md', () => {
  it('lists devices, each with what, where, benchmark, gain and the condition to undo it', () => {
    expect(list.length).toBeGreaterThan(15);
    for (const d of list) {
      for (const f of FIELDS) expect(field(d.body, f), `${d.title}: ${f}`).toBeTruthy();
    }
  });

  it('names files that exist', () => {
    for (const d of list) {
      const where = paths(field(d.body, 'Where') ?? '');
      expect(where.length, `${d.title} names no file`).toBeGreaterThan(0);
      for (const p of where) expect(existsSync(join(ROOT, p)), `${d.title}: ${p}`).toBe(true);
    }
  });

  it('still covers the devices issue 39 listed', () => {
    const named = new Set(list.flatMap((d) => paths(field(d.body, 'Where') ?? '')));
    for (const p of [
      'services/bus/src/slots.ts',
      'services/bus/src/nats-replies.ts',
      'services/patches/src/nats-core.ts',
      'services/stores/src/redis-writes.ts',
      'services/patches/src/node-redis.ts',
      'client/src/render-pace.ts',
      'services/lobby/src/trpc-http.ts',
      'services/lobby/src/db/raw.ts',
      'services/lobby/src/rooms/sql.ts',
      'services/protocol/src/codec.ts',
      'services/protocol/src/delivery.ts',
      'services/room-worker/src/frames.ts',
      'load-tests/src/lean-ws.ts',
      'load-tests/src/bytes.ts',
      'load-tests/src/timer-wheel.ts',
    ]) {
      expect(named.has(p), p).toBe(true);
    }
  });
});

describe('links between the docs', () => {
  it('every relative link of docs/**/*.md names a file that exists', () => {
    const broken: string[] = [];
    for (const file of markdownFiles(DOCS)) {
      const body = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
      for (const m of body.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]!.split('#')[0]!;
        if (!target || /^[a-z]+:/i.test(target)) continue;
        if (!existsSync(resolve(dirname(file), target))) broken.push(`${file.slice(ROOT.length)} → ${m[1]}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
