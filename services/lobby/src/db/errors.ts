/**
 * Tells a database failure that will never go away for this input (PostgreSQL refused the data itself) from
 * one that may (the server is down, a connection dropped, a timeout). The durable consumers park an event
 * whose failure is permanent at once and deliver a transient one again (bus durable-policy.ts), so a game
 * result with a NUL in a name never waits out the retry budget while a PostgreSQL restart parks nothing.
 *
 * Permanent: SQLSTATE class 22 (data exception: invalid byte sequence, value too long, out of range) and
 * class 23 (integrity constraint violated; the unique violation of a duplicate is handled by its caller
 * before it gets here), and Prisma's validation error (a query Prisma refuses to build). Everything else,
 * unknown errors included, counts as transient: a wrong guess there costs only the retry budget.
 */
import { UnprocessableEvent } from '@joke/protocol';
import { Prisma } from '../generated/prisma/client.ts';

/** The PostgreSQL SQLSTATE behind a Prisma error (driver adapter), if any. */
export function sqlState(e: unknown): string | undefined {
  if (!(e instanceof Prisma.PrismaClientKnownRequestError)) return undefined;
  const cause = (e.meta?.driverAdapterError as { cause?: { code?: unknown; originalCode?: unknown } } | undefined)
    ?.cause;
  const code = cause?.originalCode ?? cause?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/** A machine code when `e` says the data can never be stored (`SQLSTATE_22021`, `PRISMA_VALIDATION`), else null. */
export function permanentDbFailure(e: unknown): string | null {
  if (e instanceof Prisma.PrismaClientValidationError) return 'PRISMA_VALIDATION';
  const state = sqlState(e);
  if (state && (state.startsWith('22') || state.startsWith('23'))) return `SQLSTATE_${state}`;
  return null;
}

/** For a durable handler's `.catch`: a failure PostgreSQL will repeat parks the event at once; others are retried. */
export function unstorable(e: unknown): never {
  const code = permanentDbFailure(e);
  if (code) throw new UnprocessableEvent(code, (e as Error).message, { cause: e });
  throw e;
}
