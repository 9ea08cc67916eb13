/**
 * Provably fair shuffles: the table sees SHA-256(seed) before the first card
 * is dealt and the seed itself only in the result, so anyone can replay the
 * game and check the deal was fixed in advance.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

export function sha256Bytes(text: string): Uint8Array {
  return sha256(utf8ToBytes(text));
}

export function seedCommitment(seed: string): string {
  return bytesToHex(sha256Bytes(seed));
}

/** Derives a sub-seed (e.g. one per poker hand) that reveals nothing about the parent or its siblings. */
export function deriveSeed(seed: string, label: string): string {
  return bytesToHex(sha256Bytes(`${label}:${seed}`));
}
