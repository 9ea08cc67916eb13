/**
 * fast-check arbitraries for the fuzz guard (fuzz.test.ts): raw HTTP requests
 * (paths with broken percent-escapes, odd methods, hostile headers and
 * bodies), tRPC inputs shaped after each procedure's own input schema, and
 * client WebSocket frames of every type with random fields. Pure: they only
 * describe inputs; the test sends them.
 */
import fc from 'fast-check';

const ROUTES = [
  '/',
  '/config.json',
  '/healthz',
  '/readyz',
  '/metrics',
  '/harness.html',
  '/manifest.webmanifest',
  '/icons/icon-192.png',
  '/apple-touch-icon.png',
  '/assets/index-a1.js',
  '/assets/missing.js',
  '/trpc/auth.guest',
  '/trpc/rooms.list',
  '/trpc/games.list,auth.me',
  '/rooms/abc',
  '/..',
];

/** Escapes as a hostile client writes them: `%`, one hex digit, non-hex, overlong UTF-8, NUL, encoded slashes. */
const escape = fc.oneof(
  fc.constantFrom(
    '%',
    '%%',
    '%0',
    '%zz',
    '%G1',
    '%C0%AF',
    '%E0%A4%A',
    '%FF',
    '%00',
    '%2e%2e%2f',
    '%2F',
    '%5C',
    '%u2215',
  ),
  fc
    .tuple(fc.constantFrom('%'), fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEFxyz%'), maxLength: 3 }))
    .map(([p, s]) => p + s),
);
/** Path bytes: printable ASCII (no space, which ends the request line) plus raw UTF-8 of some Korean. */
const segment = fc.oneof(
  fc.string({ unit: fc.constantFrom(...'abcXYZ019-_.~/?&=#;,+!*()[]{}|^`\'"<>@:$'), maxLength: 12 }),
  fc.constantFrom('카드', '..', '//', '?input=', '?batch=1&input='),
);

export const pathArb: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(...ROUTES), fc.array(fc.oneof(escape, segment), { maxLength: 6 }))
  .map(([route, parts]) => (route + parts.join('')).replace(/[\s]/g, '%20'))
  .map((p) => (p.startsWith('/') ? p : `/${p}`));

const method = fc.oneof(
  fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'TRACE', 'PROPFIND'),
  fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'), minLength: 1, maxLength: 10 }),
);

const headerValue = fc.oneof(
  fc.string({ unit: fc.constantFrom(...'abc XYZ019-_.,;=/*:"\'()<>@[]{}?%\t'), maxLength: 40 }),
  fc.constantFrom(
    '',
    'application/json',
    'text/plain',
    'gzip, br;q=0',
    'br;q=x',
    '*;q=0',
    'chunked',
    'https',
    '[::1]',
    'evil.example:1',
  ),
);
const headerArb = fc.oneof(
  fc.tuple(
    fc.constantFrom(
      'host',
      'accept-encoding',
      'content-type',
      'trpc-accept',
      'x-forwarded-for',
      'x-forwarded-proto',
      'authorization',
      'accept',
      'origin',
      'range',
      'if-none-match',
      'cookie',
    ),
    headerValue,
  ),
  fc.tuple(fc.string({ unit: fc.constantFrom(...'abcxyz-'), minLength: 1, maxLength: 12 }), headerValue),
);

const bodyArb = fc.oneof(
  fc.constant(''),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? ''),
  fc.string({ maxLength: 200 }),
  fc.constantFrom('{"nickname":"민수"}', '{"0":{"roomId":"%"}}', '{', '\u0000', '[]', 'null'),
);

export interface RawHttp {
  head: string;
  body: Buffer;
  path: string;
}

export const httpArb: fc.Arbitrary<RawHttp> = fc
  .record({ method, path: pathArb, headers: fc.array(headerArb, { maxLength: 5 }), body: bodyArb })
  .map(({ method: m, path, headers, body }) => {
    const bytes = Buffer.from(body, 'utf8');
    const lines = [`${m} ${path} HTTP/1.1`];
    if (!headers.some(([n]) => n === 'host')) lines.push('host: 127.0.0.1');
    for (const [n, v] of headers) if (n !== 'content-length' && n !== 'transfer-encoding') lines.push(`${n}: ${v}`);
    lines.push(`content-length: ${bytes.length}`, 'connection: close');
    return { head: `${lines.join('\r\n')}\r\n\r\n`, body: bytes, path };
  });

/** Values that break careless code: NUL and control characters, huge numbers, prototype keys, deep nesting. */
const nasty = fc.oneof(
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '%',
    '__proto__',
    'constructor',
    '\uD800',
    '\uFFFF',
    '‮',
    'x'.repeat(70),
    '',
    ' ',
  ),
  fc.constantFrom(-1, 0, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 31),
  fc.constantFrom(null, true, false, [], {}),
);
const anyValue = fc.oneof({ weight: 2, arbitrary: nasty }, { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 2 }) });

/** An input for a procedure whose input object has `keys`: the keys with random values, or anything at all. */
export function trpcInputArb(keys: string[]): fc.Arbitrary<unknown> {
  const shaped = keys.length
    ? fc.dictionary(fc.constantFrom(...keys, '__proto__', 'extra'), anyValue, { maxKeys: keys.length + 1 })
    : fc.constant(undefined);
  return fc.oneof(shaped, anyValue, fc.constant(undefined));
}

const fieldValue = fc.oneof(
  nasty,
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom('one-card', 'poker', 'hula', 'classic', 'room_1', 'abc-DEF_9', 'x'.repeat(64)),
  fc.integer({ min: -5, max: 12 }),
);

/**
 * One frame a client might send: JSON of a known type (`fields`: each client frame type's field names, from
 * the protocol's schema) with random values in those fields and a few more, random JSON, or random bytes.
 */
export const frameArb = (fields: Record<string, string[]>): fc.Arbitrary<string | Uint8Array> =>
  fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .tuple(
          fc.constantFrom(...Object.keys(fields)),
          fc.oneof(fc.constant(1), fc.constant(2), nasty),
          fc.array(fc.tuple(fc.string({ maxLength: 8 }), fieldValue), { maxLength: 3 }),
          fc.array(fieldValue, { minLength: 4, maxLength: 4 }),
        )
        .map(([t, v, extra, values]) => {
          const msg: Record<string, unknown> = { v, t };
          fields[t].filter((k) => k !== 'v' && k !== 't').forEach((k, i) => (msg[k] = values[i % values.length]));
          for (const [k, val] of extra) msg[k] = val;
          return JSON.stringify(msg);
        }),
    },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null') },
    { weight: 1, arbitrary: fc.string({ maxLength: 100 }) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 100 }) },
  );
