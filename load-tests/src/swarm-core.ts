/**
 * The bot swarm: tables × players bots quick-match into tables and play until
 * the duration ends (or every table finished, for tests). Bounded in time and
 * in connections, loopback targets only.
 */
import { randomBytes } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { games } from '@joke/engine';
import { signPlayerToken } from '@joke/protocol/auth';
import { Bot, type BotSink } from './bot.ts';
import { Latencies, round } from './stats.ts';
import { SwarmOptions, type SwarmOptionsInput } from './options.ts';

export interface TableStats {
  roomId: string;
  matchedAt: number;
  finishedAt: number | null;
  /** Highest transition seen by any bot at the table. */
  lastSeq: number;
  lastSeqAt: number;
  /** Longest wait between two successive transitions reaching the table (includes think time). */
  maxGapMs: number;
  maxGapAt: number;
  /** Every (arrival time, seq) when the table's seq advanced: for gap analysis around a crash. */
  advances: { at: number; seq: number }[];
}

export interface AckRecord {
  roomId: string;
  userId: string;
  actionId: string;
  action: unknown;
  seq: number;
}

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
  errorKinds: Record<string, number>;
}

export interface SwarmRun {
  report: SwarmReport;
  tables: Map<string, TableStats>;
  acks: AckRecord[];
  /** performance.now() at the start, to relate table times to outside events. */
  startedAt: number;
}

export async function runSwarm(
  input: SwarmOptionsInput,
  log: (line: string) => void = () => {},
  /** Receives the live per-table map at the start (tests act on a run while it goes). */
  observe?: (tables: ReadonlyMap<string, TableStats>) => void,
): Promise<SwarmRun> {
  const opts = SwarmOptions.parse(input);
  const game = games[opts.game];
  if (!game) throw new Error(`unknown game ${opts.game} (known: ${Object.keys(games).join(', ') || 'none'})`);
  const runId = opts.runId ?? randomBytes(4).toString('hex');
  const startedAt = performance.now();
  const deadline = startedAt + opts.duration * 1000;
  const warmupEnd = startedAt + opts.warmup * 1000;
  const latencies = new Latencies();
  const tables = new Map<string, TableStats>();
  const acks: AckRecord[] = [];
  const ackBySeq = new Map<string, string>();
  const errorKinds: Record<string, number> = {};
  observe?.(tables);
  let errors = 0;
  let actions = 0;
  let finished = 0;
  let raced = 0;
  let stopping = false;
  let lastError = '';

  const sink: BotSink = {
    matched(roomId) {
      if (tables.has(roomId)) return;
      const now = performance.now();
      tables.set(roomId, {
        roomId,
        matchedAt: now,
        finishedAt: null,
        lastSeq: -1,
        lastSeqAt: now,
        maxGapMs: 0,
        maxGapAt: 0,
        advances: [],
      });
    },
    view(roomId, seq, at) {
      const t = tables.get(roomId);
      if (!t || seq <= t.lastSeq) return;
      if (t.lastSeq >= 0 && at - t.lastSeqAt > t.maxGapMs) {
        t.maxGapMs = at - t.lastSeqAt;
        t.maxGapAt = at;
      }
      t.lastSeq = seq;
      t.lastSeqAt = at;
      t.advances.push({ at, seq });
    },
    finished(roomId) {
      const t = tables.get(roomId);
      if (!t || t.finishedAt !== null) return;
      t.finishedAt = performance.now();
      finished++;
    },
    acked(roomId, userId, actionId, action, seq) {
      actions++;
      // Two different actions acknowledged at the same seq of one room = one of them was lost.
      const key = `${roomId}#${seq}`;
      const prev = ackBySeq.get(key);
      if (prev !== undefined && prev !== actionId) sink.error('ackConflict', `${key}: ${prev} vs ${actionId}`);
      ackBySeq.set(key, actionId);
      if (opts.collectAcks) acks.push({ roomId, userId, actionId, action, seq });
    },
    latency(ms) {
      if (performance.now() >= warmupEnd) latencies.add(ms);
    },
    raced() {
      raced++;
    },
    error(kind, detail) {
      if (stopping && (kind === 'disconnected' || kind === 'socket')) return;
      errors++;
      errorKinds[kind] = (errorKinds[kind] ?? 0) + 1;
      lastError = `${kind}${detail ? `: ${detail}` : ''}`;
    },
    stopping: () => stopping,
  };

  // The swarm's own event-loop delay: when it is high, measured latencies include the load generator's backlog.
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const botCount = opts.tables * opts.players;
  const urls = opts.url.split(',').map((u) => u.trim());
  const bots: Bot[] = [];
  const secret = opts.jwtSecret;
  const progress = () => {
    const s = latencies.summary();
    const secs = ((performance.now() - startedAt) / 1000).toFixed(0);
    log(
      `[${secs}s] bots ${bots.length}/${botCount} | tables ${tables.size} matched, ${finished} finished | ` +
        `actions ${actions} (raced ${raced}) | errors ${errors}${lastError ? ` (last: ${lastError.slice(0, 80)})` : ''} | ` +
        `action→view p50 ${s.p50} p99 ${s.p99} ms | swarm loop delay p99 ${round(loopDelay.percentile(99) / 1e6)} ms`,
    );
  };
  const progressTimer = opts.progressMs > 0 ? setInterval(progress, opts.progressMs) : null;

  // Ramp: open the connections in small batches spread over rampMs.
  const batches = Math.max(1, Math.ceil(opts.rampMs / 50));
  const perBatch = Math.ceil(botCount / batches);
  for (let i = 0; i < botCount && !stopping; i++) {
    const userId = `bot-${runId}-${i}`;
    const token = await signPlayerToken(secret, { sub: userId, name: `봇${i}` }, 3600);
    const bot = new Bot(
      {
        url: urls[i % urls.length],
        urls,
        token,
        userId,
        game,
        gameId: opts.game,
        mode: opts.mode,
        players: opts.players,
        thinkMs: opts.thinkMs,
        requeue: opts.requeue && !opts.untilFinished,
      },
      sink,
    );
    bots.push(bot);
    bot.start();
    if ((i + 1) % perBatch === 0 && opts.rampMs > 0) await new Promise((r) => setTimeout(r, 50));
  }

  // Bounded wait: the duration, or (for tests) until every expected table has finished.
  while (performance.now() < deadline) {
    if (opts.untilFinished && tables.size >= opts.tables && finished >= tables.size) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  stopping = true;
  if (progressTimer) clearInterval(progressTimer);
  loopDelay.disable();
  for (const b of bots) b.stop();
  progress();
  await new Promise((r) => setTimeout(r, 100));

  const s = latencies.summary();
  return {
    report: { tables: tables.size, finished, actions, errors, ...s, raced, errorKinds },
    tables,
    acks,
    startedAt,
  };
}
