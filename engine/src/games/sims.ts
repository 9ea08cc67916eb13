/** Simulator adapters, by game id. */
import type { SimAdapter } from '../sim/adapter.ts';
import { hulaSim } from './hula/sim.ts';
import { oneCardSim } from './one-card/sim.ts';
import { pokerSim } from './poker/sim.ts';

export const simAdapters: Record<string, SimAdapter> = { 'one-card': oneCardSim, hula: hulaSim, poker: pokerSim };
