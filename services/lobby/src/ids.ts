/** Random identifiers: ids are URL- and NATS-subject-safe, invite codes are easy to read aloud. */
import { randomInt } from 'node:crypto';
import { z } from 'zod';

const ID_ALPHABET = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** No 0/O, 1/I/L: a code read over voice chat or from a phone screen must not be misread. */
export const CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const CODE_LENGTH = 6;

function pick(alphabet: string, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[randomInt(alphabet.length)];
  return s;
}

export const newUserId = (): string => `u_${pick(ID_ALPHABET, 16)}`;
export const newRoomId = (): string => `r_${pick(ID_ALPHABET, 12)}`;
/** The id a started game is played under at the gateway and room worker. */
export const newGameRoomId = (): string => `g_${pick(ID_ALPHABET, 16)}`;
export const newCode = (): string => pick(CODE_ALPHABET, CODE_LENGTH);

/** Accepts lower case, spaces and dashes as typed; null if it cannot be a code. */
export function normalizeCode(input: string): string | null {
  const c = input.replace(/[\s-]/g, '').toUpperCase();
  if (c.length !== CODE_LENGTH) return null;
  for (const ch of c) if (!CODE_ALPHABET.includes(ch)) return null;
  return c;
}

/**
 * A client's id or cursor that is looked up in PostgreSQL as text. PostgreSQL refuses a NUL in text: the
 * fuzz test's "\u0000" as history.mine's cursor failed the query with a 500. Ids this lobby hands out are
 * letters, digits and `_` (above), so any control character (U+0000–U+001F, U+007F) is refused at the
 * input with a 400 and `message`, before a query is built.
 */
export function storedId(max: number, message: string, min = 1) {
  return z
    .string({ error: message })
    .min(min, message)
    .max(max, message)
    .refine((s) => ![...s].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f), message);
}
