/** Random identifiers: ids are URL- and NATS-subject-safe, invite codes are easy to read aloud. */
import { randomInt } from 'node:crypto';

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
