/**
 * The plan of a k6 table run, read from k6's `-e` variables: targets, the game mix (the Node
 * swarm's own `parseMix`/`mixAssignment`, so `-e MIX=…` means exactly what `--mix` means), how many
 * tables, think time, ramp/hold, the optional spike, and whether a VU holds one seat or a whole table.
 * Pure (no k6 import).
 *
 * Failure modes: a bad value throws an Error naming the variable, which k6 reports while it loads
 * the script (exit 107) before any VU starts; a game or mode the engine does not have is refused by
 * setup() (bots.ts checkMix), not at the gateway.
 */
import { checkTarget, type Env } from './target.ts';
import { mixAssignment, parseDuration, parseMix, thinkSampler, type MixEntry } from '../../src/scenario.ts';

export type { Env };

export interface SlotPlan {
  /** Index into `mix`. */
  entry: number;
  /** First seat index of this table slot among all seats of the scenario. */
  firstSeat: number;
}

export interface Plan {
  url: string;
  lobby: string;
  mix: MixEntry[];
  tables: number;
  /** One VU per table (it holds every seat) instead of one VU per seat. */
  perTable: boolean;
  thinkMs: number;
  rampMs: number;
  holdMs: number;
  /** 0 = no spike; else that many extra tables from `spikeAtMs` for `spikeForMs`. */
  spikeTables: number;
  spikeAtMs: number;
  spikeForMs: number;
  /** How long one seat keeps backing off from refused sign-ins before the run is aborted. */
  signinPatienceMs: number;
  /** Every n-th server message is checked against services/protocol's ServerMessage (1 = all). */
  checkEvery: number;
  /** Table slots in order: max(tables, spikeTables) of them. */
  slots: SlotPlan[];
  /** Seats of the first `tables` slots. */
  seats: number;
  /** A [0,1) source → think time in ms (the swarm's uniform distribution: 0.5–1.5 × the mean). */
  think: (u: () => number) => number;
}

function num(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) throw new Error(`${name}=${raw}: expected a number ≥ ${min}`);
  return n;
}

function dur(env: Env, name: string, fallback: string): number {
  try {
    return parseDuration(env[name] || fallback);
  } catch (err) {
    throw new Error(`${name}: ${(err as Error).message}`);
  }
}

/** The mix as the swarm's --mix reads it; its games and modes are checked once, in setup() (bots.ts checkMix). */
export function mixFrom(env: Env): MixEntry[] {
  try {
    return parseMix(env.MIX || 'one-card/classic/4');
  } catch (err) {
    throw new Error(`MIX: ${(err as Error).message}`);
  }
}

/** Table slots in order, dealt over the mix as the swarm deals them (every prefix follows the weights). */
export function slotsOf(mix: MixEntry[], tables: number): SlotPlan[] {
  let seat = 0;
  return mixAssignment(mix, tables).map((entry) => {
    const slot = { entry, firstSeat: seat };
    seat += mix[entry].players;
    return slot;
  });
}

/** Seats of the first `tables` slots. */
export function seatsOf(mix: MixEntry[], slots: SlotPlan[], tables: number): number {
  return tables === 0 ? 0 : slots[tables - 1].firstSeat + mix[slots[tables - 1].entry].players;
}

export function planFrom(env: Env): Plan {
  const mix = mixFrom(env);
  const tables = Math.floor(num(env, 'TABLES', 50, 1));
  const spike = env.SPIKE === '1';
  const spikeTables = spike ? Math.floor(num(env, 'SPIKE_TABLES', tables, 1)) : 0;
  // The spike's slots are the first ones again (its seats sign in as their own guests: see tables.ts).
  const slots = slotsOf(mix, Math.max(tables, spikeTables));
  const thinkMs = num(env, 'THINK_MS', 2000);
  return {
    url: checkTarget(env.URL || 'ws://127.0.0.1:8081/ws', env),
    lobby: checkTarget(env.LOBBY || 'http://127.0.0.1:8080/trpc', env),
    mix,
    tables,
    perTable: env.PER_TABLE === '1',
    thinkMs,
    rampMs: dur(env, 'RAMP', '30s'),
    holdMs: dur(env, 'HOLD', '60s'),
    spikeTables,
    spikeAtMs: dur(env, 'SPIKE_AT', '45s'),
    spikeForMs: dur(env, 'SPIKE_FOR', '30s'),
    signinPatienceMs: dur(env, 'SIGNIN_PATIENCE', '15s'),
    checkEvery: Math.max(1, Math.floor(num(env, 'CHECK_EVERY', 16, 1))),
    slots,
    seats: seatsOf(mix, slots, tables),
    think: thinkSampler({ dist: 'uniform', meanMs: thinkMs, sigma: 0.5 }),
  };
}

/** Which slot and seat of it the `index`-th seat of a scenario is (one VU per seat). */
export function seatAt(plan: Pick<Plan, 'slots' | 'mix'>, index: number): { slot: number; seat: number } {
  // Binary search over the slots' first seats.
  let lo = 0;
  let hi = plan.slots.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (plan.slots[mid].firstSeat <= index) lo = mid;
    else hi = mid - 1;
  }
  return { slot: lo, seat: index - plan.slots[lo].firstSeat };
}
