import { describe, expect, it } from 'vitest';
import { fileLimitProblem, FILES_BESIDES_SOCKETS, socketsPerProcess } from '../src/fd-limit.ts';
import { parseCli } from '../src/flags.ts';
import { SwarmOptions } from '../src/options.ts';
import { Seating, seatingOf } from '../src/seating.ts';

const tables = (n: number, players = 4, spectators = 0) => ({
  socketsOfSlot: Array.from({ length: n }, () => players + spectators),
  playersOfSlot: Array.from({ length: n }, () => players),
});

describe('which process runs a table and which gateway its sockets reach (seating.ts)', () => {
  it('spread: tables go to the processes in turn and seats round the URLs seat by seat, as before', () => {
    const s = new Seating({ ...tables(10), processes: 3, urls: 2, fillSockets: 0 });
    expect(Array.from({ length: 10 }, (_, i) => s.processOf(i))).toEqual([0, 1, 2, 0, 1, 2, 0, 1, 2, 0]);
    expect([0, 1, 2, 3].map((n) => s.playerUrl(5, n))).toEqual([0, 1, 0, 1]);
    expect([0, 1].map((n) => s.spectatorUrl(5, n))).toEqual([1, 0]);
    expect(s.socketsPerUrl()).toEqual([20, 20]);
  });

  it('packed: 5,000 four-seat tables under a 20,000-file limit put all but 16 on the first process and gateway', () => {
    const fill = 20_000 - FILES_BESIDES_SOCKETS;
    const s = new Seating({ ...tables(5000), processes: 2, urls: 2, fillSockets: fill });
    expect(s.socketsPerProcess()).toEqual([19_936, 64]);
    expect(s.socketsPerUrl()).toEqual([19_936, 64]);
    expect(s.processOf(4983)).toBe(0);
    expect(s.processOf(4984)).toBe(1);
    // A table is never cut between two gateways: its seats all go where its process sends them.
    for (const i of [0, 4983, 4984, 4999]) for (let n = 0; n < 4; n++) expect(s.playerUrl(i, n)).toBe(s.processOf(i));
  });

  it('packed: a table that would pass the fill starts the next bin, and the last bin takes all that is left', () => {
    const s = new Seating({ ...tables(10, 4, 1), processes: 2, urls: 3, fillSockets: 12 });
    // 5 sockets a table: two fit in 12, the third starts bin 1; bins past the last process stay on it.
    expect(Array.from({ length: 10 }, (_, i) => s.processOf(i))).toEqual([0, 0, 1, 1, 1, 1, 1, 1, 1, 1]);
    expect(Array.from({ length: 10 }, (_, i) => s.spectatorUrl(i, 0))).toEqual([0, 0, 1, 1, 2, 2, 2, 2, 2, 2]);
    expect(s.socketsPerProcess()).toEqual([10, 40]);
    expect(s.socketsPerUrl()).toEqual([10, 10, 30]);
  });

  it('mixed table sizes pack by their own seats', () => {
    const s = new Seating({
      socketsOfSlot: [6, 2, 6, 2],
      playersOfSlot: [6, 2, 6, 2],
      processes: 2,
      urls: 2,
      fillSockets: 8,
    });
    expect([0, 1, 2, 3].map((i) => s.processOf(i))).toEqual([0, 0, 1, 1]);
  });

  it('the swarm reads --fill-sockets, and the open-file check counts what each process really opens', () => {
    const { options: packed } = parseCli(['--tables', '5000', '--workers', '2', '--fill-sockets', '19936']);
    expect(packed.fillSockets).toBe(19_936);
    expect(seatingOf(packed).socketsPerProcess()).toEqual([19_936, 64]);
    expect(socketsPerProcess(packed)).toBe(19_936);
    expect(fileLimitProblem(packed, 20_000)).toBeNull();
    expect(fileLimitProblem(SwarmOptions.parse({ ...packed, fillSockets: 20_000 }), 20_000)).toContain('ulimit -n');
    expect(socketsPerProcess(SwarmOptions.parse({ tables: 5000, workers: 2 }))).toBe(10_000);
  });
});
