/**
 * Turn order over a fixed ring of seats, skipping players who are out.
 * Direction 1 is clockwise (increasing seat index), -1 counter-clockwise.
 */
export function nextSeat(
  seatCount: number,
  from: number,
  direction: 1 | -1,
  isActive: (seat: number) => boolean,
  steps = 1,
): number {
  let seat = from;
  for (let taken = 0; taken < steps;) {
    seat = (seat + direction + seatCount) % seatCount;
    if (isActive(seat)) taken++;
    else if (seat === from && !isActive(from)) return -1; // nobody active
  }
  return seat;
}

/** Seat indices in turn order starting after `from`, active ones only. */
export function seatsAfter(seatCount: number, from: number, isActive: (seat: number) => boolean): number[] {
  const out: number[] = [];
  for (let i = 1; i <= seatCount; i++) {
    const seat = (from + i) % seatCount;
    if (isActive(seat)) out.push(seat);
  }
  return out;
}
