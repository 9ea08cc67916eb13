/**
 * The one turn order of every game: a fixed ring of seats walked in a direction, passing over the
 * seats that are out (folded, gone out, not in this round). 원카드 walks its seats both ways with
 * skips (J, K), 포커 its betting order, 훌라 its seats clockwise; each says only which seats are in.
 *
 * Seats are indices into `seats`; `from` is the seat the walk starts after, itself in or out, or -1
 * for "before the first seat" (then every seat is walked). Pure, no allocation on the hot path
 * (`nextInRing`), so a turn change costs what the games' own loops cost.
 * Failure modes: none thrown; a ring with nobody in answers -1 / [].
 */

export interface TurnRing<T> {
  seats: readonly T[];
  /** 1: increasing index (clockwise), -1: decreasing. Default 1. */
  direction?: 1 | -1;
  /** Whether the seat takes turns now. */
  isIn(seat: T, index: number): boolean;
}

/** The index `k` steps from `from` in the ring's direction. */
function stepFrom(n: number, from: number, dir: 1 | -1, k: number): number {
  return (((from + dir * k) % n) + n) % n;
}

/**
 * The seat whose turn comes after `from` once `skips` seats that are in have been passed over.
 * When `from` is in and the skips reach all the way round, the turn comes back to `from` (원카드's
 * J with two players); when nobody else is in, it is `from` if in, else -1.
 */
export function nextInRing<T>(ring: TurnRing<T>, from: number, skips = 0): number {
  const { seats, isIn } = ring;
  const n = seats.length;
  const dir = ring.direction ?? 1;
  const fromIn = from >= 0 && from < n && isIn(seats[from], from);
  let others = 0;
  for (let k = 1; k <= n; k++) {
    const i = stepFrom(n, from, dir, k);
    if (i !== from && isIn(seats[i], i)) others++;
  }
  if (others === 0) return fromIn ? from : -1;
  if (skips >= others && fromIn) return from;
  let left = skips % others;
  for (let k = 1; k <= n; k++) {
    const i = stepFrom(n, from, dir, k);
    if (i === from || !isIn(seats[i], i)) continue;
    if (left === 0) return i;
    left--;
  }
  return -1;
}

/** `from` first when it is in, then `seatsAfter(ring, from)`: one full round starting at `from`. */
export function seatsFrom<T>(ring: TurnRing<T>, from: number): number[] {
  const after = seatsAfter(ring, from);
  return from >= 0 && from < ring.seats.length && ring.isIn(ring.seats[from], from) ? [from, ...after] : after;
}

/** The seats that are in after `from`, in turn order, `from` itself excluded; at most `limit` of them. */
export function seatsAfter<T>(ring: TurnRing<T>, from: number, limit = Infinity): number[] {
  const { seats, isIn } = ring;
  const n = seats.length;
  const dir = ring.direction ?? 1;
  const out: number[] = [];
  for (let k = 1; k <= n && out.length < limit; k++) {
    const i = stepFrom(n, from, dir, k);
    if (i !== from && isIn(seats[i], i)) out.push(i);
  }
  return out;
}
