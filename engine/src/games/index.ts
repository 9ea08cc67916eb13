/** Every game the platform serves, by id. */
import type { AnyGame } from '../core/types.ts';
import { hula } from './hula/index.ts';
import { oneCard } from './one-card/index.ts';
import { poker } from './poker/index.ts';

export const games: Record<string, AnyGame> = { 'one-card': oneCard, hula, poker };
