/** Simulator adapters, by game id. */
import type { SimAdapter } from '../sim/adapter.ts';

export const simAdapters: Record<string, SimAdapter> = {};
