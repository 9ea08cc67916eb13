/**
 * The bus contract is executable: every declared subject has a producer and a
 * consumer in production code (found by walking the services' sources), its
 * codecs round-trip, the fast guards of the per-action messages never accept
 * what their schema refuses, and the binary delivery envelope keeps frame
 * bytes exactly as they were.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { encodeAck as ackText } from '../src/client-wire.ts';
import {
  bus as wire,
  ClientMessage,
  contract,
  decodeDelivery,
  encodeDelivery,
  isClientAction,
  ProtocolError,
  REFUSAL_CODES,
  REFUSALS,
  ROUTE_ENDS,
  ROUTE_FAMILIES,
  familyPattern,
  natsPermissions,
  routeSubject,
  type BusUser,
  type ContractName,
} from '../src/index.ts';

const services = fileURLToPath(new URL('../..', import.meta.url));

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (name === 'node_modules' || name === 'generated' || name === 'test' || name === 'bench') continue;
    if (statSync(p).isDirectory()) out.push(...sources(p));
    else if (p.endsWith('.ts')) out.push(p);
  }
  return out;
}

/** Production code only: every services/<name>/src, the protocol itself excluded (it declares, it does not use). */
const code = readdirSync(services)
  .filter((s) => s !== 'protocol')
  .flatMap((s) => {
    const src = join(services, s, 'src');
    try {
      return sources(src).map((f) => ({ file: f.slice(services.length), text: readFileSync(f, 'utf8') }));
    } catch {
      return [];
    }
  });

/** The gateway's requester encodes through the route it is given (`requests.request(contract.x…)`), with retries. */
const GATEWAY_REQUESTED = new Set<string>(['roomCommand', 'roomJoin', 'queue', 'roomAccess']);

/** Which helpers produce and consume a route: request/reply, durable event or plain event. */
function helpersOf(def: (typeof contract)[ContractName]): [string[], string[]] {
  if (def.kind === 'request') return [['call'], ['serve']];
  return 'durable' in def && def.durable ? [['emitDurable'], ['listenDurable']] : [['emit'], ['listen']];
}

/** Where `helper(…, contract.<name>…` occurs (the route may be `.at(key)` of a keyed subject). */
function users(helpers: string[], name: string): string[] {
  const re = new RegExp(`\\b(${helpers.join('|')})\\(\\s*[\\w.]+,\\s*contract\\.${name}\\b`);
  return code.filter((f) => re.test(f.text)).map((f) => f.file);
}

describe('every declared subject has both ends in production code', () => {
  for (const name of Object.keys(contract) as ContractName[]) {
    const def = contract[name];
    const [produce, consume] = helpersOf(def);
    it(`${name} (${def.kind})`, () => {
      const producers = users(produce, name);
      const consumers = users(consume, name);
      if (GATEWAY_REQUESTED.has(name))
        producers.push(
          ...code
            .filter((f) => f.text.includes(`contract.${name}`) && f.file.startsWith('gateway/'))
            .map((f) => f.file),
        );
      expect(producers, `no producer of ${name}`).not.toEqual([]);
      expect(consumers, `no consumer of ${name}`).not.toEqual([]);
    });
  }

  it('the declared ends (ROUTE_ENDS, the source of the NATS users) are exactly the services that call/serve or emit/listen', () => {
    // Processes with a NATS user of their own; the embedded platform runs on the in-process bus.
    const userOf: Record<string, BusUser> = {
      gateway: 'gateway',
      lobby: 'lobby',
      matchmaker: 'matchmaker',
      'room-worker': 'worker',
    };
    const ends = (files: string[]) => [...new Set(files.map((f) => userOf[f.split('/')[0]]).filter(Boolean))].sort();
    for (const name of Object.keys(contract) as ContractName[]) {
      const def = contract[name];
      const [produce, consume] = helpersOf(def);
      const producers = users(produce, name);
      if (GATEWAY_REQUESTED.has(name)) producers.push('gateway/');
      expect(ends(producers), `${name} from`).toEqual([...ROUTE_ENDS[name].from].sort());
      expect(ends(users(consume, name)), `${name} to`).toEqual([...ROUTE_ENDS[name].to].sort());
    }
  });

  it('a route family (one wildcard subscription per key) covers its own routes and no other, all served by one user', () => {
    // Token-wise NATS match of a declared subject (its `*` pattern for keyed routes) against a family's pattern.
    const covered = (pattern: string, subject: string): boolean => {
      const p = pattern.split('.');
      const t = subject.split('.');
      return p.length === t.length && p.every((x, i) => x === '*' || x === t[i]);
    };
    // The room worker's family: a room's subjects under `joke.v1.room.<id>.`.
    expect(familyPattern(ROUTE_FAMILIES.room)).toBe('joke.v1.room.*.*');
    for (const [family, names] of Object.entries(ROUTE_FAMILIES)) {
      const pattern = familyPattern(names);
      const under = (Object.keys(contract) as ContractName[]).filter((n) => covered(pattern, routeSubject(n)));
      expect(under.sort(), `${family}: the routes its pattern lets the consumer subscribe to`).toEqual(
        [...names].sort(),
      );
      const consumers = new Set(names.flatMap((n) => ROUTE_ENDS[n].to));
      expect([...consumers], `${family}: served by`).toEqual(['worker']);
      expect(natsPermissions('worker').subscribe).toContain(pattern);
      for (const n of names) expect(natsPermissions('worker').subscribe).not.toContain(routeSubject(n));
    }
    expect(() => familyPattern(['roomCommand', 'workerOpen'])).toThrow(/last token/);
  });

  it('no production code parses or publishes a bus message by hand', () => {
    for (const f of code) {
      expect(f.text, f.file).not.toMatch(/JSON\.parse\([^)]*\b(m|msg)\.data\b/);
      expect(f.text, f.file).not.toMatch(/\bbus\.(publish|request)\(\s*subjects\./);
      expect(f.text, f.file).not.toMatch(/\bbus\.subscribe\(\s*subjects\./);
    }
  });

  it('no production code branches on a Korean refusal text', () => {
    for (const f of code)
      for (const text of Object.values(REFUSALS))
        expect(f.text.includes(`=== '${text}'`) || f.text.includes(`== '${text}'`), `${f.file}: ${text}`).toBe(false);
  });
});

describe('codecs', () => {
  it('round-trip a command and its replies; refusals carry a known code', () => {
    const route = contract.roomCommand.at('r1');
    expect(route.subject).toBe('joke.v1.room.r1.cmd');
    const cmd = { v: 1 as const, userId: 'u', actionId: 'a', action: { type: 'draw' }, gatewayId: 'g', at: 5 };
    expect(route.request.decode(route.request.encode(cmd))).toEqual(cmd);
    for (const r of [
      { ok: true as const, seq: 3 },
      { ok: false as const, code: 'busy' as const, reason: REFUSALS.busy },
    ])
      expect(route.reply.decode(route.reply.encode(r))).toEqual(r);
    expect(() => route.reply.decode('{"ok":false,"code":"made-up","reason":"x"}')).toThrow(ProtocolError);
    expect(() => route.reply.decode('{"ok":false,"reason":"이미 있는 방이에요"}')).toThrow(ProtocolError);
    expect(REFUSAL_CODES).toContain('roomExists');
  });

  it('the fast guards accept nothing the schemas refuse', () => {
    const route = contract.roomCommand.at('r1');
    const samples: unknown[] = [
      { v: 1, userId: 'u', actionId: 'a', action: null, gatewayId: 'g', at: 1 },
      { v: 1, userId: 'u', actionId: 'a', gatewayId: 'g', at: 1 },
      { v: 2, userId: 'u', actionId: 'a', action: 1, gatewayId: 'g', at: 1 },
      { v: 1, userId: 5, actionId: 'a', action: 1, gatewayId: 'g', at: 1 },
      { v: 1, userId: 'u', actionId: 'a', action: 1, gatewayId: 'g', at: '1' },
      { ok: true, seq: 1.5 },
      { ok: false, code: 'busy' },
      [],
      null,
      'text',
    ];
    for (const s of samples) {
      const text = JSON.stringify(s);
      for (const [codec, schema] of [
        [route.request, wire.RoomCommand],
        [route.reply, wire.CommandReply],
      ] as const) {
        const schemaOk = schema.safeParse(s).success;
        let codecOk = true;
        try {
          codec.decode(text);
        } catch (e) {
          expect(e).toBeInstanceOf(ProtocolError);
          codecOk = false;
        }
        expect(codecOk, text).toBe(schemaOk);
      }
    }
  });

  it("the ok-reply read from its bytes decodes exactly as JSON would, and only JSON's own form", () => {
    const reply = contract.roomCommand.at('r1').reply;
    const bytes = (t: string) => new TextEncoder().encode(t);
    for (const text of [
      '{"ok":true,"seq":0}',
      '{"ok":true,"seq":7}',
      '{"ok":true,"seq":4000000000}',
      '{"ok":true,"seq":999999999999999}',
      '{"ok":true,"seq":9999999999999999}',
      '{"ok":true,"seq":-3}',
      '{"ok":true,"seq":01}',
      '{"ok":true,"seq":1.5}',
      '{"ok":true,"seq":1e3}',
      '{"ok":true,"seq":}',
      '{"ok":true,"seq":12',
      '{"ok":true,"seq":12} ',
      '{"ok":true, "seq":12}',
      '{"ok":true,"seq":"12"}',
      '{"ok":false,"seq":12}',
    ]) {
      const schema = wire.CommandReply.safeParse(
        (() => {
          try {
            return JSON.parse(text);
          } catch {
            return undefined;
          }
        })(),
      );
      let got: unknown;
      try {
        got = reply.decode(bytes(text));
      } catch (e) {
        expect(e, text).toBeInstanceOf(ProtocolError);
        got = 'refused';
      }
      expect(got, text).toEqual(schema.success ? schema.data : 'refused');
      expect(reply.decode(bytes(JSON.stringify({ ok: true, seq: 42 })))).toEqual({ ok: true, seq: 42 });
    }
  });

  it("the client action's hand check accepts nothing ClientMessage refuses", () => {
    const ok = { v: 1, t: 'action', roomId: 'r-1_A', actionId: 'a1', action: { type: 'draw' } };
    const samples: Record<string, unknown>[] = [
      ok,
      { ...ok, action: null },
      { ...ok, extra: 1 },
      { ...ok, v: 2 },
      { ...ok, t: 'join' },
      { ...ok, roomId: 'r 1' },
      { ...ok, roomId: '' },
      { ...ok, roomId: 'r'.repeat(65) },
      { ...ok, roomId: 5 },
      { ...ok, actionId: '' },
      { ...ok, actionId: 'a'.repeat(64) },
      { ...ok, actionId: 'a'.repeat(65) },
      { ...ok, actionId: '가'.repeat(64) },
      { ...ok, actionId: 7 },
      { ...ok, seq: 0 },
      { ...ok, seq: 12 },
      { ...ok, seq: -1 },
      { ...ok, seq: 1.5 },
      { ...ok, seq: '3' },
      { ...ok, seq: null },
      { ...ok, seq: 2 ** 60 },
      { v: 1, t: 'action', roomId: 'r', actionId: 'a' },
    ];
    for (const s of samples)
      if (isClientAction(s)) expect(ClientMessage.safeParse(s).success, JSON.stringify(s)).toBe(true);
    expect(isClientAction(ok)).toBe(true);
    expect(isClientAction(null)).toBe(false);
  });

  it('the ack text is what JSON.stringify of the ack object writes', () => {
    for (const actionId of ['a1', 'say "hi"\\', '가나다 🂡', '\u0000\u001f\u2028', '\ud800'])
      for (const seq of [0, 7, 4_000_000_000])
        expect(ackText('room-1', actionId, seq)).toBe(
          JSON.stringify({ v: 1, t: 'ack', roomId: 'room-1', actionId, seq }),
        );
  });

  it('decoding garbage throws ProtocolError, never anything else', () => {
    for (const def of Object.values(contract)) {
      const codecs = def.kind === 'request' ? [def.request, def.reply] : [def.message];
      for (const c of codecs)
        for (const junk of ['', '{', 'null', new Uint8Array([1, 2, 3]), new Uint8Array([0x4a, 1, 0, 0])])
          expect(() => c.decode(junk)).toThrow(ProtocolError);
    }
  });
});

describe('the delivery envelope', () => {
  it('keeps each frame byte for byte, with its kind and viewer outside it', () => {
    const frames: wire.DeliveryFrame[] = [
      { kind: 'view', viewer: '플레이어1', bytes: new TextEncoder().encode('{"t":"view","손패":[1]}') },
      { kind: 'view', viewer: null, bytes: new Uint8Array([0x7b, 0xff, 0x00, 0x22]) },
      { kind: 'presence', viewer: 'u2', bytes: new Uint8Array(0) },
    ];
    const bytes = encodeDelivery({ roomId: 'room-1', seq: 4_000_000_000, owner: 'w1/abc', frames });
    const d = decodeDelivery(bytes);
    expect(d).toMatchObject({ roomId: 'room-1', seq: 4_000_000_000, owner: 'w1/abc' });
    expect(d.frames.map((f) => [f.kind, f.viewer, [...f.bytes]])).toEqual(
      frames.map((f) => [f.kind, f.viewer, [...f.bytes]]),
    );
    expect(() => decodeDelivery(bytes.subarray(0, bytes.length - 1))).toThrow(ProtocolError);
    expect(() => decodeDelivery(new Uint8Array([...bytes, 0]))).toThrow(ProtocolError);
    // A header string that is not UTF-8 is a malformed delivery, not a TypeError out of the decoder.
    const bad = encodeDelivery({ roomId: 'r\u00e9', seq: 1, owner: 'w', frames: [] });
    bad[bad.indexOf(0xc3)] = 0xff;
    expect(() => decodeDelivery(bad)).toThrow(ProtocolError);
  });

  it("carries an accepted command's frames as its reply, and every other reply as JSON", () => {
    const route = contract.roomCommand;
    const frames: wire.DeliveryFrame[] = [
      { kind: 'view', viewer: 'u1', bytes: new TextEncoder().encode('{"t":"view"}') },
    ];
    const delivery = { roomId: 'r1', seq: 7, owner: 'w0/i', frames };
    const bytes = route.reply.encode({ ok: true, seq: 7, delivery });
    expect(bytes).toBeInstanceOf(Uint8Array);
    const back = route.reply.decode(bytes);
    expect(back).toMatchObject({ ok: true, seq: 7, delivery: { roomId: 'r1', seq: 7, owner: 'w0/i' } });
    expect('delivery' in back && [...back.delivery.frames[0].bytes]).toEqual([...frames[0].bytes]);
    // Not mistaken for a delivery, nor a delivery for it: the version byte says which it is.
    expect(() => decodeDelivery(bytes)).toThrow(ProtocolError);
    expect(() => route.reply.decode(encodeDelivery(delivery))).toThrow(ProtocolError);
    // The frames of another seq never ride on a reply.
    expect(() => route.reply.encode({ ok: true, seq: 8, delivery })).toThrow(ProtocolError);
    // Plain replies stay JSON, as an older gateway reads them.
    expect(route.reply.encode({ ok: true, seq: 7 })).toBe('{"ok":true,"seq":7}');
    expect(route.reply.decode(route.reply.encode({ ok: false, code: 'illegal', reason: '안 돼요' }))).toEqual({
      ok: false,
      code: 'illegal',
      reason: '안 돼요',
    });
  });
});
