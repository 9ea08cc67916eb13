/**
 * The lobby's games.list, asked once per page and shared: the room form, the waiting room and
 * the tables' rules sheet all read option labels and presets from this one answer. A failed
 * ask is forgotten so the next caller tries again (offline harness pages simply get nothing).
 */
import { lobby, type GameInfo } from './trpc.ts';

let pending: Promise<GameInfo[]> | null = null;
let known: GameInfo[] = [];

/** The games, from the first answer of this page; rejects when the lobby cannot be reached. */
export function gameCatalog(): Promise<GameInfo[]> {
  pending ??= lobby.games.list.query().then(
    (games) => (known = games),
    (e: unknown) => {
      pending = null;
      throw e;
    },
  );
  return pending;
}

/** The games already known (empty until the first answer). */
export function knownGames(): GameInfo[] {
  return known;
}
