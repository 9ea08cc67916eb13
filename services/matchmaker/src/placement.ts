/**
 * Where a room goes: weighted rendezvous (highest-random-weight) hashing over
 * the live, non-draining workers.
 *
 * Why not least-loaded: matchmakers are stateless replicas that only see
 * heartbeats. Between two heartbeats every replica would send every new room
 * to the same least-loaded worker (a herd), and two replicas could disagree.
 * Rendezvous hashing spreads rooms by id, gives every replica the same answer
 * from the same heartbeats, and moves only the rooms of a worker that leaves.
 * Load enters as a weight, rounded to a few levels so that replicas whose
 * heartbeats arrived a moment apart still compute identical weights.
 */

export interface Candidate {
  workerId: string;
  rooms: number;
}

/** 32-bit FNV-1a then a murmur3 finaliser: fast, well mixed, same result in every process. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export function weightOf(rooms: number, capacity: number, levels: number): number {
  const free = Math.max(0, 1 - rooms / capacity);
  // Never zero: a full worker still ranks (last), so a room always has somewhere to go.
  return Math.max(1, Math.ceil(free * levels)) / levels;
}

/** Candidates best first for `roomId`. */
export function rank(roomId: string, candidates: Candidate[], capacity: number, levels: number): string[] {
  const scored = candidates.map((c) => {
    const u = (hash32(`${roomId}\u0000${c.workerId}`) + 0.5) / 4294967296;
    return { id: c.workerId, score: weightOf(c.rooms, capacity, levels) / -Math.log(u) };
  });
  scored.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  return scored.map((s) => s.id);
}
