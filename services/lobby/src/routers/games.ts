/** The games the engine serves, with everything the client needs to draw the create-room form. */
import type { AnyGame, OptionField, OptionPreset } from '@joke/engine';
import { publicProcedure, router } from '../trpc.ts';

export interface GameInfo {
  id: string;
  name: string;
  modes: { id: string; name: string }[];
  minPlayers: number;
  maxPlayers: number;
  optionFields: OptionField[];
  /** Named option sets offered first in the room form (empty when the game has none). */
  presets: OptionPreset[];
}

export function gameInfo(def: AnyGame): GameInfo {
  return {
    id: def.id,
    name: def.name,
    modes: def.modes.map((m) => ({ id: m.id, name: m.name })),
    minPlayers: def.minPlayers,
    maxPlayers: def.maxPlayers,
    optionFields: def.optionFields,
    presets: def.presets ?? [],
  };
}

export const gamesRouter = router({
  list: publicProcedure.query(({ ctx }): GameInfo[] => Object.values(ctx.deps.games).map(gameInfo)),
});
