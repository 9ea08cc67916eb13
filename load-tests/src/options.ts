/** Swarm options, shared by the CLI (`npm run load -- …`) and tests that run the swarm in-process. */
import { z } from 'zod';
import { DEV_JWT_SECRET } from '@joke/protocol/auth';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export const SwarmOptions = z
  .object({
    /**
     * Gateway WebSocket URL, or several comma-separated (bots are spread over them round-robin).
     * Only loopback targets are allowed: this tool never loads anything else.
     */
    url: z
      .string()
      .default('ws://127.0.0.1:8081/ws')
      .refine(
        (list) =>
          list.split(',').every((u) => {
            try {
              const p = new URL(u.trim());
              return (p.protocol === 'ws:' || p.protocol === 'wss:') && LOOPBACK.has(p.hostname);
            } catch {
              return false;
            }
          }),
        'only ws://127.0.0.1 (loopback) targets are allowed',
      ),
    game: z.string().default('one-card'),
    mode: z.string().default('classic'),
    /** Seats per table; every bot queues for a table of this size. */
    players: z.number().int().min(2).max(10).default(4),
    /** Tables kept busy at once (tables × players bot connections). */
    tables: z.number().int().min(1).max(20_000).default(10),
    /** Hard stop, seconds. */
    duration: z.number().positive().max(3600).default(60),
    /** Mean wait before a bot acts (uniform 0.5–1.5×), ≈ one action per think-ms per table in turn-based games. */
    thinkMs: z.number().min(0).max(60_000).default(2000),
    /** Signs bot tokens (default: the embedded platform's development secret). */
    jwtSecret: z.string().min(16).default(DEV_JWT_SECRET),
    /** Connections are opened over this many ms so the matchmaker is not hit by one burst. */
    rampMs: z.number().min(0).default(3000),
    /** Bots whose table finished queue again, so the load holds for the whole duration. */
    requeue: z.boolean().default(true),
    /** Stop as soon as every table has finished (and nobody requeues): for tests. */
    untilFinished: z.boolean().default(false),
    /** Seconds from the start during which latencies are not recorded (connection ramp, JIT warm-up). */
    warmup: z.number().min(0).default(0),
    /** Progress line on stderr every this many ms (0 = silent). */
    progressMs: z.number().min(0).default(2000),
    /** Keep every acknowledged action (tests compare them with the final game records). */
    collectAcks: z.boolean().default(false),
    /** Prefix of bot user ids; unique per run by default so parallel runs never meet in a queue. */
    runId: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,24}$/)
      .optional(),
  })
  .strict();
export type SwarmOptions = z.infer<typeof SwarmOptions>;
export type SwarmOptionsInput = z.input<typeof SwarmOptions>;

/** `--url ws://… --tables 200 --think-ms 500 --no-requeue` → options (kebab-case flags, numbers coerced). */
export function parseArgs(argv: string[]): SwarmOptions {
  const raw: Record<string, unknown> = {};
  const numeric = new Set(['players', 'tables', 'duration', 'thinkMs', 'rampMs', 'progressMs', 'warmup']);
  const flags = new Set(['requeue', 'untilFinished', 'collectAcks']);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) throw new Error(`unexpected argument ${a}`);
    let key = a.slice(2).replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    if (key.startsWith('no') && flags.has(key[2]?.toLowerCase() + key.slice(3))) {
      raw[key[2].toLowerCase() + key.slice(3)] = false;
      continue;
    }
    if (flags.has(key)) {
      raw[key] = true;
      continue;
    }
    const value = argv[++i];
    if (value === undefined) throw new Error(`${a} needs a value`);
    if (key === 'secret') key = 'jwtSecret';
    raw[key] = numeric.has(key) ? Number(value) : value;
  }
  return SwarmOptions.parse(raw);
}
