/**
 * Swarm options, shared by the CLI (`npm run load -- …`, flags in flags.ts)
 * and tests that run the swarm in-process. Loopback targets only, unless the
 * caller says `targetIsMine` (`--target-is-mine`): only against infrastructure
 * you own.
 */
import { z } from 'zod';
import { MixEntry, Stage, Storm, Think, Timeline, type TimedStage } from './scenario.ts';

/** The bots' WebSocket clients (bot-socket.ts). */
export const WS_CLIENTS = ['lean', 'ws'] as const;
export type WsClient = (typeof WS_CLIENTS)[number];

const LOOPBACK_HOST = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|localhost|\[::1\]|::1)$/;

export function isLoopback(url: string): boolean {
  try {
    return LOOPBACK_HOST.test(new URL(url).hostname);
  } catch {
    return false;
  }
}

const urlList = (protocols: string[]) =>
  z.string().refine(
    (list) =>
      list.split(',').every((u) => {
        try {
          return protocols.includes(new URL(u.trim()).protocol);
        } catch {
          return false;
        }
      }),
    `expected ${protocols.map((p) => `${p}//…`).join(' or ')} URL(s)`,
  );

export const AUTH_MODES = ['guest', 'jwt-secret'] as const;

export const SwarmOptions = z
  .object({
    /** Gateway WebSocket URL, or several comma-separated (bots are spread over them round-robin). */
    url: urlList(['ws:', 'wss:']).default('ws://127.0.0.1:8081/ws'),
    /** The lobby's tRPC endpoint (guest sign-in). */
    lobby: urlList(['http:', 'https:']).default('http://127.0.0.1:8080/trpc'),
    /** guest: sign in through the lobby like a browser; jwt-secret: sign tokens here (in-repo stacks only). */
    auth: z.enum(AUTH_MODES).default('guest'),
    jwtSecret: z.string().min(16).optional(),
    /** File keeping the guest tokens between runs: a rerun resumes the same identities. */
    tokenCache: z.string().default(''),
    /** Sign-ins in flight at once (per process). */
    signinConcurrency: z.number().int().min(1).max(256).default(8),
    /** Allows targets that are not loopback: only against infrastructure you own. */
    targetIsMine: z.boolean().default(false),

    stages: z.array(Stage).min(1).optional(),
    /**
     * An offered-load curve (offered-curve.ts): `stages` are its levels, one `step` each, and the run is
     * judged per level (errors fail; a shortfall fails only without refusals) instead of by seating overall.
     */
    curve: z
      .object({
        knee: z.number().int().min(1).optional(),
        tables: z.array(z.number().int().min(1).max(20_000)).min(1),
        holdMs: z.number().positive(),
      })
      .strict()
      .optional(),
    /** Without stages: ramp to `tables` over rampMs, then hold until `duration` seconds. */
    tables: z.number().int().min(1).max(20_000).default(10),
    duration: z
      .number()
      .positive()
      .max(48 * 3600)
      .default(60),
    rampMs: z.number().min(0).default(3000),

    mix: z.array(MixEntry).min(1).optional(),
    /** Without a mix: every table plays this game, mode and size. */
    game: z.string().default('one-card'),
    mode: z.string().default('classic'),
    players: z.number().int().min(2).max(10).default(4),

    think: Think.default({ dist: 'uniform', meanMs: 2000, sigma: 0.5 }),
    /** Spectator sockets per table (they join the table's room with spectate: true). */
    spectators: z.number().int().min(0).max(50).default(0),
    storms: z.array(Storm).default([]),
    /** k6-style thresholds, e.g. "p99<100", "errors<0.1%", "connect.p95<50". */
    thresholds: z.array(z.string()).default([]),

    /** Child processes sharing the bots (1 = this process only). */
    workers: z.number().int().min(1).max(64).default(1),
    /**
     * 0: tables are dealt to the processes in turn and seats to the URLs seat by seat. N: slots in order fill the
     * first process and the first URL up to N sockets before the next takes any (seating.ts).
     */
    fillSockets: z.number().int().min(0).max(10_000_000).default(0),
    /** Source addresses of the bots' sockets: "auto" = 127.0.0.2, .3, … per worker on a 127.x target, one more per 4,000 sockets. */
    sourceAddresses: z.union([z.literal('auto'), z.array(z.string().min(1))]).default('auto'),

    intervalMs: z.number().int().min(100).max(600_000).default(5000),
    /** Seconds from the start during which samples stay out of the run's totals (ramp, JIT warm-up). */
    warmup: z.number().min(0).default(0),
    requeue: z.boolean().default(true),
    /** Stop as soon as every table has finished (and nobody requeues): for tests. */
    untilFinished: z.boolean().default(false),
    /** Live view on stderr every this many ms (0 = quiet). */
    liveMs: z.number().min(0).default(1000),
    /** Keep every acknowledged action (tests compare them with the final game records). */
    collectAcks: z.boolean().default(false),
    /**
     * Of the views a bot reads by their header only (nothing for it to do, bot.ts), every this-many-th
     * is parsed and checked instead: header = body, its own view, and truly nothing to do. 1 = every view.
     */
    checkEvery: z.number().int().min(1).max(1_000_000).default(16),
    /** The bots' WebSocket client (bot-socket.ts): the lean one, or the `ws` package to compare with. */
    wsClient: z.enum(WS_CLIENTS).default('lean'),
    /** Keep every raw action latency sample too (to check the histogram merge; large). */
    rawSamples: z.boolean().default(false),
    /** Prefix of bot ids and names; unique per run by default. */
    runId: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,24}$/)
      .optional(),
  })
  .strict()
  .superRefine((o, ctx) => {
    if (!o.targetIsMine)
      for (const [key, list] of [
        ['url', o.url],
        ['lobby', o.lobby],
      ] as const)
        for (const u of list.split(','))
          if (!isLoopback(u.trim()))
            ctx.addIssue({
              code: 'custom',
              path: [key],
              message: `${u.trim()} is not loopback: only ws://127.0.0.1 (loopback) targets are allowed unless --target-is-mine (only against infrastructure you own)`,
            });
    if (o.auth === 'jwt-secret' && !o.jwtSecret)
      ctx.addIssue({ code: 'custom', path: ['jwtSecret'], message: 'auth jwt-secret needs the secret' });
  });
export type SwarmOptions = z.infer<typeof SwarmOptions>;
export type SwarmOptionsInput = z.input<typeof SwarmOptions>;

/** The scenario's stages: given, or the classic "ramp to --tables, hold to --duration". */
export function stagesOf(o: SwarmOptions): Stage[] {
  if (o.stages) return o.stages;
  const total = o.duration * 1000;
  const ramp = Math.min(o.rampMs, total);
  return [
    { kind: 'ramp', tables: o.tables, duration: ramp },
    { kind: 'hold', duration: total - ramp },
  ];
}

export function mixOf(o: SwarmOptions): MixEntry[] {
  return o.mix ?? [{ game: o.game, mode: o.mode, players: o.players, weight: 1 }];
}

export const timelineOf = (o: SwarmOptions): Timeline => new Timeline(stagesOf(o));
export type { TimedStage };
