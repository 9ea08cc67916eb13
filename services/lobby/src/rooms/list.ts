/**
 * `rooms.list`: public rooms, newest first. One page per filter serves every caller (the directory),
 * presence is applied on the way out, and the last answer is reused while nothing it rests on changed.
 */
import type { LobbyDeps } from '../trpc.ts';
import { reusedOutput } from '../trpc-http.ts';
import type { ListFilter } from './directory.ts';
import type { ListedPage } from './lifecycle.ts';
import { summaryInclude, toSummary, type RoomSummary } from './view.ts';

/** Per lobby (its directory), per filter: the last list answer and what it rests on. */
const listMemos = new WeakMap<
  object,
  Map<string, { stamp: number; page: readonly RoomSummary[]; listed: ListedPage; out: readonly RoomSummary[] }>
>();

export async function listRooms(deps: LobbyDeps, input: ListFilter): Promise<RoomSummary[]> {
  const { db, games, directory, lifecycle } = deps;
  // No room has a game we do not offer; answered here so the pages and answers kept per filter stay
  // bounded by the filters that can match (any 32-character string would otherwise be a new key).
  if (input.game !== undefined && !Object.hasOwn(games, input.game)) return [];
  // The same for every caller (public rooms only), so one page serves everyone until a change;
  // presence is applied on the way out: counts of present people only, and nobody-present rooms hidden.
  const {
    rooms: page,
    stamp,
    key,
  } = await directory.shared(input, async () => {
    const rows = await db.room.findMany({
      where: {
        isPrivate: false,
        ...(input.game !== undefined ? { game: input.game } : {}),
        ...(input.inProgress === true ? { status: { in: ['starting', 'playing'] } } : {}),
        ...(input.inProgress === false ? { status: 'waiting' } : {}),
      },
      include: summaryInclude,
      orderBy: { createdAt: 'desc' },
      // Open seats compare a count with a column, so filter after reading a bounded page.
      take: input.hasOpenSeats === undefined ? input.limit : 500,
    });
    let rooms = rows.map((r) => toSummary(games, r));
    if (input.hasOpenSeats !== undefined) rooms = rooms.filter((r) => r.openSeats > 0 === input.hasOpenSeats);
    return rooms.slice(0, input.limit);
  });
  // Most list calls find nothing changed since the last one: the same answer (and, in the lean
  // HTTP path, the same JSON) serves them, checked in one lookup per room (lifecycle.stillListed).
  const now = deps.clock.now();
  let memo = listMemos.get(directory);
  if (!memo) listMemos.set(directory, (memo = new Map()));
  const hit = memo.get(key);
  // Frozen, since every caller gets the same array (over HTTP each gets its own parsed copy); typed
  // as the plain array the client has always been given.
  if (hit && hit.stamp === stamp && hit.page === page && lifecycle.stillListed(page, hit.listed, now))
    return hit.out as RoomSummary[];
  const listed = lifecycle.listedPage(page, now);
  const out = reusedOutput(Object.freeze(listed.rooms));
  memo.set(key, { stamp, page, listed, out });
  return out as RoomSummary[];
}
