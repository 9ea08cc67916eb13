/**
 * A load scenario: stages that move the number of live tables over time, the
 * mix of games and modes those tables play, how long bots think, reconnect
 * storms and spectators. Written as a JSON profile (`--profile`) or as the
 * short flags (`--stages`, `--mix`, `--storm`), both parsed here.
 */
import { z } from 'zod';

/**
 * "90s", "5m", "2h", "1500ms" or a plain number of milliseconds → ms (numbers
 * are taken as ms so that parsing already-parsed options changes nothing).
 */
export function parseDuration(text: string | number): number {
  if (typeof text === 'number') return text;
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!m) throw new Error(`"${text}" is not a duration (e.g. 90s, 5m, 2h, 500ms)`);
  const n = Number(m[1]);
  return n * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(m[2] ?? 's') as 'ms' | 's' | 'm' | 'h'];
}

const Duration = z.union([z.string(), z.number().nonnegative()]).transform((d, ctx) => {
  try {
    return parseDuration(d);
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: (err as Error).message });
    return z.NEVER;
  }
});

export const STAGE_KINDS = ['ramp', 'hold', 'step', 'spike', 'soak'] as const;
export const STAGE_DOC: Record<(typeof STAGE_KINDS)[number], string> = {
  ramp: 'ramp:TABLES:DURATION — linearly from the previous count to TABLES',
  hold: 'hold:DURATION — keep the current count',
  step: 'step:TABLES:DURATION — jump to TABLES and stay',
  spike: 'spike:TABLES:DURATION — jump to TABLES, then back to the previous count at the end',
  soak: 'soak[:TABLES]:DURATION — stay (at TABLES if given) for a long time (hours)',
};

export const Stage = z
  .object({
    kind: z.enum(STAGE_KINDS),
    /** Target tables (ramp/step/spike: required; soak: optional; hold: ignored). */
    tables: z.number().int().min(0).max(20_000).optional(),
    duration: Duration,
    name: z.string().max(40).optional(),
  })
  .strict()
  .refine((s) => s.tables !== undefined || s.kind === 'hold' || s.kind === 'soak', {
    message: 'ramp, step and spike stages need a table count',
  });
export type Stage = z.infer<typeof Stage>;

export const MixEntry = z
  .object({
    game: z.string(),
    mode: z.string(),
    players: z.number().int().min(2).max(10),
    weight: z.number().positive(),
  })
  .strict();
export type MixEntry = z.infer<typeof MixEntry>;

export const THINK_DISTS = ['uniform', 'exponential', 'lognormal', 'fixed'] as const;
export const Think = z
  .object({
    dist: z.enum(THINK_DISTS).default('uniform'),
    /** Mean think time (uniform: 0.5–1.5 × mean; lognormal: this is the median). */
    meanMs: z.number().min(0).max(60_000).default(2000),
    /** Spread of the lognormal (σ of the underlying normal). */
    sigma: z.number().positive().max(3).default(0.5),
  })
  .strict();
export type Think = z.infer<typeof Think>;

export const Storm = z
  .object({
    /** Time from the start of the run. */
    at: Duration,
    /** Share of open sockets dropped at once, in %. */
    dropPercent: z.number().gt(0).max(100),
  })
  .strict();
export type Storm = z.infer<typeof Storm>;

/** A think-time sampler from a uniform [0, 1) source. */
export function thinkSampler(t: Think): (u: () => number) => number {
  switch (t.dist) {
    case 'fixed':
      return () => t.meanMs;
    case 'uniform':
      return (u) => t.meanMs * (0.5 + u());
    case 'exponential':
      return (u) => Math.min(t.meanMs * 20, -t.meanMs * Math.log(1 - u()));
    case 'lognormal':
      return (u) => {
        // Box–Muller from two uniforms.
        const z0 = Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u());
        return Math.min(t.meanMs * 20, t.meanMs * Math.exp(t.sigma * z0));
      };
  }
}

/**
 * "ramp:50:60s,hold:2m,spike:100:30s" → stages in their input form (durations
 * still text), checked here so the error names the bad part; SwarmOptions
 * converts them.
 */
export function parseStages(text: string): z.input<typeof Stage>[] {
  return text.split(',').map((part) => {
    const bits = part.trim().split(':');
    const kind = bits[0];
    const raw =
      bits.length === 3
        ? { kind, tables: Number(bits[1]), duration: bits[2] }
        : bits.length === 2
          ? { kind, duration: bits[1] }
          : null;
    if (!raw) throw new Error(`stage "${part}" is not kind:TABLES:DURATION or kind:DURATION`);
    const r = Stage.safeParse(raw);
    if (!r.success) throw new Error(`stage "${part}": ${r.error.issues[0].message}`);
    return raw as z.input<typeof Stage>;
  });
}

/** "one-card/classic/4:60,poker/holdem/6:30" → mix entries (weights are relative). */
export function parseMix(text: string): MixEntry[] {
  return text.split(',').map((part) => {
    const m = /^([\w-]+)\/([\w-]+)\/(\d+)(?::(\d+(?:\.\d+)?))?$/.exec(part.trim());
    if (!m) throw new Error(`mix entry "${part}" is not GAME/MODE/PLAYERS[:WEIGHT]`);
    return MixEntry.parse({ game: m[1], mode: m[2], players: Number(m[3]), weight: Number(m[4] ?? 1) });
  });
}

/** "150s:20" or "150s:20%" → a storm (input form, like parseStages). */
export function parseStorm(text: string): z.input<typeof Storm> {
  const m = /^([^:]+):(\d+(?:\.\d+)?)%?$/.exec(text.trim());
  if (!m) throw new Error(`storm "${text}" is not AT:PERCENT (e.g. 90s:20%)`);
  const raw = { at: m[1], dropPercent: Number(m[2]) };
  Storm.parse(raw);
  return raw;
}

export interface TimedStage extends Stage {
  index: number;
  startMs: number;
  endMs: number;
  /** Table count when the stage starts (the previous stage's end value). */
  from: number;
  /** Table count the stage aims at. */
  to: number;
  label: string;
}

/** The stages placed on the run's clock, with the table count each moves from and to. */
export class Timeline {
  readonly stages: TimedStage[];
  readonly totalMs: number;

  constructor(stages: Stage[]) {
    let at = 0;
    let level = 0;
    this.stages = stages.map((s, index) => {
      const to = s.kind === 'hold' ? level : (s.tables ?? level);
      const t: TimedStage = {
        ...s,
        index,
        startMs: at,
        endMs: at + s.duration,
        from: level,
        to,
        label: s.name ?? `${s.kind}${s.kind === 'hold' ? '' : ` → ${to}`}`,
      };
      at += s.duration;
      // A spike returns to where it started; everything else leaves its target behind.
      if (s.kind !== 'spike') level = to;
      return t;
    });
    this.totalMs = at;
  }

  stageIndexAt(elapsedMs: number): number {
    const i = this.stages.findIndex((s) => elapsedMs < s.endMs);
    return i < 0 ? this.stages.length - 1 : i;
  }

  /** Tables wanted at this moment of the run. */
  tablesAt(elapsedMs: number): number {
    const s = this.stages[this.stageIndexAt(elapsedMs)];
    if (!s) return 0;
    if (elapsedMs >= this.totalMs) return s.kind === 'spike' ? s.from : s.to;
    if (s.kind !== 'ramp' || s.duration === 0) return s.to;
    const f = Math.min(1, Math.max(0, (elapsedMs - s.startMs) / s.duration));
    return Math.round(s.from + (s.to - s.from) * f);
  }

  /** The highest table count of any moment (sizes the bot pool). */
  get peak(): number {
    return Math.max(0, ...this.stages.map((s) => Math.max(s.from, s.to)));
  }
}

/**
 * Which mix entry table slot i plays: slots are handed out so that every
 * prefix of slots follows the weights as closely as whole tables allow (the
 * slot goes to the entry furthest below its share).
 */
export function mixAssignment(mix: MixEntry[], slots: number): number[] {
  const total = mix.reduce((a, m) => a + m.weight, 0);
  const given = mix.map(() => 0);
  const out: number[] = [];
  for (let i = 0; i < slots; i++) {
    let best = 0;
    let bestDeficit = -Infinity;
    mix.forEach((m, k) => {
      const deficit = ((i + 1) * m.weight) / total - given[k];
      if (deficit > bestDeficit + 1e-9) [best, bestDeficit] = [k, deficit];
    });
    given[best]++;
    out.push(best);
  }
  return out;
}

/** This process's part of `n` when `count` processes share it (parts add up to n exactly). */
export const shareOf = (n: number, index: number, count: number): number =>
  Math.floor((n * (index + 1)) / count) - Math.floor((n * index) / count);
