/**
 * The patches of third-party internals (src/patches/) against the installed libraries: each library's
 * version lies within the pin its patch was written and measured against, and the internals the patch
 * relies on are there and took. An upgrade outside a pin fails here first; widen the pin only after the
 * patch's benchmark (docs/perf-decisions.md) and the bus tests pass on the new version.
 */
import { readFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connect } from '@nats-io/transport-node';
import { SinglyLinkedList } from '@redis/client/dist/lib/client/linked-list.js';
import { PINS, protocolInternals, redisReplyQueueUnlinks, withinPin, type Pin } from '../src/index.ts';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const require = createRequire(import.meta.url);

/** The installed version of `library`, found from the package that brings it (`via`), or from here. */
function installedVersion(library: string, via?: string): string {
  const from = via ? createRequire(require.resolve(via)) : require;
  let dir = dirname(from.resolve(library));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === library && pkg.version) return pkg.version;
    }
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json of ${library}`);
    dir = up;
  }
}

const pin = (library: string): Pin => {
  const p = PINS.find((x) => x.library === library);
  if (!p) throw new Error(`no pin for ${library}`);
  return p;
};

describe('pins', () => {
  it('every patch module of the folder has a pin, and each pin names its module', () => {
    for (const p of PINS) expect(existsSync(new URL(`../src/${p.module}`, import.meta.url)), p.module).toBe(true);
    expect(PINS.map((p) => p.module).sort()).toEqual(['nats-core.ts', 'node-redis.ts']);
  });

  it('a version is within a pin from `from` up to, not including, `below`; pre-releases are not', () => {
    const p: Pin = { library: 'x', module: 'x.ts', tested: '3.4.0', from: '3.4.0', below: '3.5.0' };
    expect(withinPin('3.4.0', p)).toBe(true);
    expect(withinPin('3.4.9', p)).toBe(true);
    expect(withinPin('3.3.9', p)).toBe(false);
    expect(withinPin('3.5.0', p)).toBe(false);
    expect(withinPin('4.0.0', p)).toBe(false);
    expect(withinPin('3.4.1-rc.1', p)).toBe(false);
    expect(() => withinPin('latest', p)).toThrow();
  });

  it('the installed @nats-io/nats-core is within its pin', () => {
    const v = installedVersion('@nats-io/nats-core', '@nats-io/transport-node');
    expect(withinPin(v, pin('@nats-io/nats-core')), `@nats-io/nats-core ${v}`).toBe(true);
  });

  it('the installed @redis/client is within its pin', () => {
    const v = installedVersion('@redis/client');
    expect(withinPin(v, pin('@redis/client')), `@redis/client ${v}`).toBe(true);
  });
});

describe('the patched internals', () => {
  it("node-redis: the reply queue's shift is the patched one and lets go of the nodes behind", () => {
    expect((SinglyLinkedList.prototype as unknown as { __jokeUnlinks?: true }).__jokeUnlinks).toBe(true);
    expect(redisReplyQueueUnlinks()).toBe(true);
  });

  it("nats-core: a real connection's protocol handler has the shape the write coalescing needs", async () => {
    const nc = await connect({ servers: NATS_URL });
    try {
      expect(protocolInternals(nc)).toBeDefined();
    } finally {
      await nc.close();
    }
  });
});
