/** Every game the platform serves, by id. */
import type { AnyGame } from '../core/types.ts';

export const games: Record<string, AnyGame> = {};
