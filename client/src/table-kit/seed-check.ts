/**
 * The provably-fair check every game's result panel shows: the seed revealed at the end must hash to
 * the commitment every view carried since the deal. Pure; an empty seed (nothing revealed yet) is false.
 */
import { seedCommitment } from '@joke/engine/client';

export function verifySeed(seed: string, commitment: string): boolean {
  return seed.length > 0 && seedCommitment(seed) === commitment;
}
