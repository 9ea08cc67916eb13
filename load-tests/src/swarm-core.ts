/**
 * One swarm process: keeps as many tables busy as the scenario's stages ask
 * for at each moment, each table slot being `players` bots of one mix entry
 * (plus its spectators) that quick-match, play and queue again. With several
 * processes (`--workers`), process k of n owns the slots whose global index
 * is ≡ k mod n, so together they follow the stages and the mix exactly.
 */
import { randomBytes } from 'node:crypto';
import { games, type AnyGame } from '@joke/engine';
import { lobbyAuthenticator, secretAuthenticator, type Authenticator } from './auth.ts';
import { Bot, type BotSink } from './bot.ts';
import { VIEW_GATES } from './frames.ts';
import { mixOf, SwarmOptions, timelineOf, type SwarmOptionsInput } from './options.ts';
import { mixAssignment, thinkSampler, type MixEntry } from './scenario.ts';
import { seatingOf } from './seating.ts';
import { Spectator, type SpectatorSink } from './spectator.ts';
import { errorCount, round, RunStats, summarize } from './stats.ts';
import { createTableBook, type AckRecord, type TableStats } from './tables.ts';

export type { AckRecord, TableStats } from './tables.ts';

export interface SwarmReport {
  tables: number;
  finished: number;
  actions: number;
  errors: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** Actions refused because another player moved first (reported, not counted as errors). */
  raced: number;
  /** The most tables asked for at once, and the most seated at once (`RunStats.seating`). */
  asked: number;
  seated: number;
  /** Requests refused for want of capacity (REFUSED_CODES): the platform shedding load, not errors. */
  refused: number;
  errorKinds: Record<string, number>;
  /**
   * Errors during the warm-up, which `errors` leaves out (like the latencies): the ramp's failures, e.g. a
   * socket refused for want of open files, would otherwise show up only as fewer actions.
   */
  warmupErrors: number;
}

export interface SwarmRun {
  report: SwarmReport;
  stats: RunStats;
  tables: Map<string, TableStats>;
  acks: AckRecord[];
  /** Every action latency in ms, when rawSamples is on. */
  samples: number[];
  /** performance.now() at the start, to relate table times to outside events. */
  startedAt: number;
}

/** What the live view and the parent of a worker see every tick. */
export interface SwarmTick {
  elapsedMs: number;
  stage: number;
  tables: number;
  bots: number;
  sockets: number;
  lastError: string;
}

export interface RunHooks {
  log?: (line: string) => void;
  /** Receives the live per-table map at the start (tests act on a run while it goes). */
  observe?: (tables: ReadonlyMap<string, TableStats>) => void;
  /** This process's part of the slots (worker k of n). */
  share?: { index: number; count: number };
  /** Epoch ms the run's clock counts from (the same for every worker). */
  startAt?: number;
  /** Source addresses for this process's sockets, used round-robin. */
  localAddresses?: string[];
  tick?: (t: SwarmTick, stats: RunStats) => void;
  /** Ends the run early (Ctrl-C): bots stop and the statistics so far are returned. */
  signal?: AbortSignal;
}

interface Slot {
  index: number;
  entry: MixEntry;
  game: AnyGame;
  bots: Bot[];
  spectators: Spectator[];
  /** Bumped on each start/stop so a sign-in that finishes late knows it is stale. */
  generation: number;
  active: boolean;
  /** A bot of this start was matched to a table (the table was seated, not left waiting or refused). */
  seated: boolean;
}

/**
 * Refusals for want of capacity (machine codes of @joke/protocol: `capacity`, every worker out of headroom,
 * or a join or quick match the gateway refused because its worker or the matchmaker was too slow to answer
 * within the retry budget — a quick match's comes as `queueRejected` with that refusal, which the bot counts
 * by the refusal's code; `full`, a worker at MAX_ROOMS; `queueFull`, a quick-match wait the matchmaker
 * flagged full because the fleet refused its table, counted once per wait by the bot): the platform
 * shedding load as designed, counted as refused, not as errors.
 */
export const REFUSED_CODES = new Set(['capacity', 'full', 'queueFull']);

const TICK_MS = 200;

export async function runSwarm(input: SwarmOptionsInput, hooks: RunHooks = {}): Promise<SwarmRun> {
  const opts = SwarmOptions.parse(input);
  const mix = mixOf(opts);
  for (const m of mix)
    if (!games[m.game]) throw new Error(`unknown game ${m.game} (known: ${Object.keys(games).join(', ') || 'none'})`);
  const timeline = timelineOf(opts);
  const share = hooks.share ?? { index: 0, count: 1 };
  const runId = opts.runId ?? randomBytes(4).toString('hex');
  const startAt = hooks.startAt ?? Date.now();
  const startedAt = performance.now() - (Date.now() - startAt);
  const stats = new RunStats(opts.intervalMs, startAt, opts.warmup * 1000, timeline.stages.length, (ms) =>
    timeline.stageIndexAt(ms),
  );
  const book = createTableBook(stats, opts.collectAcks);
  hooks.observe?.(book.tables);
  const samples: number[] = [];
  const think = thinkSampler(opts.think);
  const urls = opts.url.split(',').map((u) => u.trim());
  const addresses = hooks.localAddresses ?? [];
  let stopping = false;
  let sockets = 0;
  let lastError = '';
  const logged = new Map<string, number>();
  let connections = 0;

  const auth: Authenticator =
    opts.auth === 'jwt-secret'
      ? secretAuthenticator(opts.jwtSecret!, runId)
      : lobbyAuthenticator({
          lobbyUrl: opts.lobby,
          concurrency: opts.signinConcurrency,
          cacheFile: opts.tokenCache,
          hooks: {
            signedIn: (ms) => stats.record('signin', ms),
            throttled: () => stats.count('throttled'),
            stopping: () => stopping,
          },
        });

  const error = (kind: string, detail?: string) => {
    if (stopping && (kind === 'disconnected' || kind === 'socket')) return;
    if (REFUSED_CODES.has(kind)) return stats.refusal(kind);
    stats.error(kind);
    lastError = `${kind}${detail ? `: ${detail}` : ''}`;
    // The first few of each kind go to the log in full: the report only counts them.
    const seen = (logged.get(kind) ?? 0) + 1;
    logged.set(kind, seen);
    if (seen <= 3) hooks.log?.(`error ${lastError}`);
  };
  const common = {
    connected: (ms: number) => stats.record('connect', ms),
    reconnected: (ms: number) => stats.record('reconnect', ms),
    socket: (d: 1 | -1) => void (sockets += d),
    error,
    stopping: () => stopping,
  };
  const botSink = (slot: Slot): BotSink => ({
    ...common,
    ...book.sink,
    matched(roomId, userId) {
      book.sink.matched(roomId, userId);
      slot.seated = true;
      for (const s of slot.spectators) s.follow(roomId);
    },
    latency(ms) {
      stats.record('action', ms);
      if (opts.rawSamples) samples.push(ms);
    },
    error,
  });
  const spectatorSink: SpectatorSink = { ...common, view: () => stats.count('spectatorViews') };

  // Slot i of the whole run plays mix entry assignment[i]; this process owns the slots the seating gives it.
  const assignment = mixAssignment(mix, timeline.peak);
  const seating = seatingOf({ ...opts, workers: share.count });
  const slots = new Map<number, Slot>();
  const slotOf = (i: number): Slot => {
    let s = slots.get(i);
    if (!s) {
      const entry = mix[assignment[i]];
      s = {
        index: i,
        entry,
        game: games[entry.game],
        bots: [],
        spectators: [],
        generation: 0,
        active: false,
        seated: false,
      };
      slots.set(i, s);
    }
    return s;
  };
  const nextAddress = () => (addresses.length ? addresses[connections++ % addresses.length] : undefined);

  async function startSlot(slot: Slot): Promise<void> {
    const gen = ++slot.generation;
    slot.active = true;
    const key = (role: string, n: number) => `w${share.index}-${slot.index}-${role}${n}`;
    try {
      // Each socket keeps one source address, and signs in from it too (as a real client would).
      const playerAddrs = Array.from({ length: slot.entry.players }, nextAddress);
      const watcherAddrs = Array.from({ length: opts.spectators }, nextAddress);
      const players = await Promise.all(playerAddrs.map((a, n) => auth.identity(key('p', n), a)));
      const watchers = await Promise.all(watcherAddrs.map((a, n) => auth.identity(key('s', n), a)));
      if (gen !== slot.generation || stopping) return;
      slot.bots = players.map((id, n) => {
        const url = urls[seating.playerUrl(slot.index, n)];
        return new Bot(
          {
            url,
            urls,
            token: id.token,
            userId: id.userId,
            game: slot.game,
            gameId: slot.entry.game,
            mode: slot.entry.mode,
            players: slot.entry.players,
            think,
            requeue: opts.requeue && !opts.untilFinished,
            localAddress: playerAddrs[n],
            gate: VIEW_GATES[slot.entry.game],
            checkEvery: opts.checkEvery,
            wsClient: opts.wsClient,
          },
          botSink(slot),
        );
      });
      slot.spectators = watchers.map(
        (id, n) =>
          new Spectator(
            {
              url: urls[seating.spectatorUrl(slot.index, n)],
              token: id.token,
              localAddress: watcherAddrs[n],
              wsClient: opts.wsClient,
            },
            spectatorSink,
          ),
      );
      for (const b of slot.bots) b.start();
      for (const s of slot.spectators) s.start();
    } catch (err) {
      if (!stopping) error('signin', String(err instanceof Error ? err.message : err));
      if (gen === slot.generation) slot.active = false;
    }
  }

  function stopSlot(slot: Slot): void {
    slot.generation++;
    slot.active = false;
    slot.seated = false;
    for (const b of slot.bots) b.stop();
    for (const s of slot.spectators) s.stop();
    slot.bots = [];
    slot.spectators = [];
  }

  const mine = (i: number) => seating.processOf(i) === share.index;
  let stormsDone = 0;
  const storms = [...opts.storms].sort((a, b) => a.at - b.at);
  function storm(percent: number): void {
    const all = [...slots.values()].flatMap((s) => [...s.bots, ...s.spectators]);
    let dropped = 0;
    for (const conn of all) if (Math.random() * 100 < percent && conn.drop()) dropped++;
    hooks.log?.(`reconnect storm: dropped ${dropped} of ${all.length} sockets (${percent}%)`);
  }

  const everyBotDone = () => {
    const active = [...slots.values()].filter((s) => s.active);
    return active.length > 0 && active.every((s) => s.bots.length > 0 && s.bots.every((b) => b.done));
  };
  let myTables = 0;
  const tickState = (): SwarmTick => {
    const elapsedMs = Date.now() - startAt;
    return {
      elapsedMs,
      stage: timeline.stageIndexAt(elapsedMs),
      tables: myTables,
      bots: [...slots.values()].reduce((a, s) => a + s.bots.length + s.spectators.length, 0),
      sockets,
      lastError,
    };
  };

  // The scheduler: every tick, match the live slots to the stage's target and fire due storms.
  let lastTick = 0;
  while (!stopping) {
    const elapsed = Date.now() - startAt;
    if (elapsed >= timeline.totalMs || hooks.signal?.aborted || (opts.untilFinished && everyBotDone())) break;
    const target = timeline.tablesAt(elapsed);
    myTables = 0;
    let seated = 0;
    for (let i = 0; i < timeline.peak; i++) {
      if (!mine(i)) continue;
      const slot = slotOf(i);
      if (i < target) {
        myTables++;
        if (slot.seated) seated++;
        if (!slot.active) void startSlot(slot);
      } else if (slot.active && !opts.untilFinished) stopSlot(slot);
    }
    while (stormsDone < storms.length && storms[stormsDone].at <= elapsed) storm(storms[stormsDone++].dropPercent);
    stats.gauge(sockets, myTables, Date.now(), seated);
    // Only for a live view (--live-ms > 0), at its pace: a child's tick encodes (deflates) its histograms and its
    // parent decodes and merges them all, which at --live-ms 0 went every 200 ms for nobody — ≈ 7 % of a core
    // in the parent and ≈ 2 % in each child at 5,000 tables, taken from the stack being measured.
    if (hooks.tick && opts.liveMs > 0 && Date.now() - lastTick >= Math.max(opts.liveMs, TICK_MS)) {
      lastTick = Date.now();
      hooks.tick(tickState(), stats);
    }
    await new Promise((r) => setTimeout(r, TICK_MS));
  }
  stopping = true;
  for (const s of slots.values()) stopSlot(s);
  auth.save();
  // Let the closes land so the last gauge reads 0 (bounded: a stuck socket does not hold the run).
  for (let i = 0; i < 40 && sockets > 0; i++) await new Promise((r) => setTimeout(r, 50));
  stats.gauge(sockets, 0, Date.now(), 0, true);
  if (opts.liveMs > 0) hooks.tick?.(tickState(), stats);

  return { report: reportOf(stats, book.tables.size), stats, tables: book.tables, acks: book.acks, samples, startedAt };
}

/** The one-line summary (the last stdout line of the CLI; measure-stack.sh reads it). */
export function reportOf(stats: RunStats, tables: number): SwarmReport {
  const t = stats.total;
  const s = summarize(t.hist.action);
  const { asked, seated } = stats.seating();
  return {
    tables,
    asked,
    seated,
    refused: stats.refusals().refused,
    finished: t.finished,
    actions: t.actions,
    errors: errorCount(t),
    p50: s.p50,
    p95: s.p95,
    p99: s.p99,
    max: round(s.max),
    raced: t.raced,
    errorKinds: { ...t.errors },
    warmupErrors: [...stats.intervals.values()].reduce((a, b) => a + errorCount(b), 0) - errorCount(t),
  };
}
