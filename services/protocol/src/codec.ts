/**
 * Encoders/decoders of bus payloads. A payload on the wire is text or bytes
 * (`Wire`); decoding validates it against its schema and throws ProtocolError
 * (code `malformed`) when it does not fit, so a service never handles an
 * unchecked message and never parses one by hand.
 */
import type { z } from 'zod';

export type Wire = string | Uint8Array;

export interface Codec<T> {
  encode(value: T): Wire;
  decode(data: Wire): T;
}

export class ProtocolError extends Error {
  readonly code = 'malformed' as const;
  constructor(detail: string) {
    super(detail);
    this.name = 'ProtocolError';
  }
}

const utf8 = new TextDecoder();
export const wireText = (data: Wire): string => (typeof data === 'string' ? data : utf8.decode(data));

function parseJson(data: Wire): unknown {
  try {
    return JSON.parse(wireText(data));
  } catch {
    throw new ProtocolError('not JSON');
  }
}

/**
 * JSON text checked by `schema` on decode. `fast` is an optional hand-written
 * guard for the per-action messages: when it accepts, the schema is skipped;
 * `peek` optionally reads the commonest exact bytes of a message without
 * decoding the text at all (undefined = not that form: decoded as JSON).
 * `contract.test.ts` checks that neither accepts what the schema refuses.
 */
export function jsonCodec<S extends z.ZodType>(
  schema: S,
  fast?: (raw: unknown) => raw is z.output<S>,
  peek?: (data: Wire) => z.output<S> | undefined,
): Codec<z.output<S>> {
  return {
    encode: (value) => JSON.stringify(value),
    decode: (data) => {
      const seen = peek?.(data);
      if (seen !== undefined) return seen;
      const raw = parseJson(data);
      if (fast?.(raw)) return raw;
      const p = schema.safeParse(raw);
      if (!p.success) {
        const issue = p.error.issues[0];
        throw new ProtocolError(issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'invalid');
      }
      return p.data;
    },
  };
}

export function binaryCodec<T>(encode: (value: T) => Uint8Array, decode: (data: Wire) => T): Codec<T> {
  return { encode, decode };
}
