/** A room's game as the lobby offers it: its definition, its parsed options, and the room as a member sees it. */
import { TRPCError } from '@trpc/server';
import type { AnyGame } from '@joke/engine';
import { MSG } from '../messages.ts';
import type { LobbyDeps } from '../trpc.ts';
import { loadRoom } from './store.ts';
import { againOf } from './again.ts';
import { toDetail, type RoomDetail } from './view.ts';

export function gameOf(games: Record<string, AnyGame>, id: string): AnyGame {
  const def = Object.hasOwn(games, id) ? games[id] : undefined;
  if (!def) throw new TRPCError({ code: 'BAD_REQUEST', message: MSG.unknownGame(id) });
  return def;
}

/** The engine's own (Korean) message for the first problem; every issue is in `data.issues`. */
export function parseOptions(def: AnyGame, raw: Record<string, unknown>): Record<string, unknown> & { mode: string } {
  const parsed = def.optionsSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw new TRPCError({
    code: 'BAD_REQUEST',
    message: parsed.error.issues[0]?.message ?? MSG.optionsInvalid,
    cause: parsed.error,
  });
}

export async function detail(deps: LobbyDeps, id: string, viewer: string): Promise<RoomDetail> {
  const row = await loadRoom(deps.raw, id);
  const room = toDetail(deps.games, row, viewer);
  // The latest transition (a new host, …) and the 한 판 더 vote, for the people in the room.
  const member = room.you.seat !== null || room.you.spectating;
  return member ? { ...room, notice: deps.lifecycle.noticeOf(id), again: await againOf(deps, row) } : room;
}
