/**
 * The command line of `npm run load`: one table of flags (name, default,
 * meaning) that drives node:util parseArgs, `--help`, and the conversion to
 * SwarmOptions, so the help can never miss a flag. Errors name the flag.
 */
import { readFileSync } from 'node:fs';
import { parseArgs as parseNodeArgs } from 'node:util';
import { z } from 'zod';
import { AUTH_MODES, SwarmOptions, WS_CLIENTS } from './options.ts';
import { METRIC_DOC, METRICS } from './stats.ts';
import { parseDuration, parseMix, parseStages, parseStorm, STAGE_DOC, THINK_DISTS } from './scenario.ts';
import { THRESHOLD_DOC, parseThreshold } from './thresholds.ts';
import { curveStages, DEFAULT_CURVE_HOLD_MS, kneeLevels, type CurvePlan } from './offered-curve.ts';

export class UsageError extends Error {}

interface Flag {
  name: string;
  /** Value placeholder; absent = boolean switch. */
  arg?: string;
  default: string;
  help: string;
  multiple?: boolean;
  /** Has a --no-NAME form. */
  negatable?: boolean;
}

export const FLAGS: Flag[] = [
  { name: 'help', default: '', help: 'Print this help and exit.' },
  {
    name: 'url',
    arg: 'URL[,URL…]',
    default: 'ws://127.0.0.1:8081/ws',
    help: 'Gateway WebSocket URL(s); bots are spread over them round-robin.',
  },
  {
    name: 'lobby',
    arg: 'URL',
    default: 'http://127.0.0.1:8080/trpc',
    help: 'Lobby tRPC endpoint where bots sign in as guests (npm start serves it on its HTTP port).',
  },
  {
    name: 'auth',
    arg: AUTH_MODES.join('|'),
    default: 'guest',
    help: 'guest: sign in through the lobby like a browser (the tool never needs the JWT secret); jwt-secret: sign tokens locally (stacks this repo starts itself).',
  },
  { name: 'jwt-secret', arg: 'SECRET', default: '(none)', help: 'Secret for --auth jwt-secret.' },
  {
    name: 'token-cache',
    arg: 'FILE',
    default: '(none)',
    help: 'Keep guest tokens here; the next run resumes the same identities instead of signing up new ones (eases the lobby’s sign-up limit).',
  },
  {
    name: 'signin-concurrency',
    arg: 'N',
    default: '8',
    help: 'Sign-ins in flight at once per process; "too many requests" answers are waited out.',
  },
  {
    name: 'target-is-mine',
    default: 'off',
    help: 'Allow targets that are not loopback. ONLY against infrastructure you own.',
  },
  {
    name: 'profile',
    arg: 'FILE',
    default: '(none)',
    help: 'JSON scenario: {stages, mix, think, spectators, storms, thresholds}; flags given as well override it. "offered-curve" (no file): the offered-load curve of --knee.',
  },
  {
    name: 'stages',
    arg: 'LIST',
    default: 'ramp to --tables over --ramp-ms, hold to --duration',
    help: `Comma-separated stages: ${Object.values(STAGE_DOC).join('; ')}. DURATION like 90s, 5m, 2h.`,
  },
  {
    name: 'knee',
    arg: 'N',
    default: '(none)',
    help: 'With --profile offered-curve: the knee (tables at p99 < 100 ms); the levels are 0.5×, 1×, 1.5×, 2×, 3× and 0.5× again, each held --hold.',
  },
  {
    name: 'curve-tables',
    arg: 'A,B,…',
    default: '(none)',
    help: 'An offered-load curve of these table counts in order, each held --hold (instead of --knee); judged per level like offered-curve.',
  },
  { name: 'hold', arg: 'DURATION', default: '60s', help: 'Length of each level of an offered-load curve.' },
  { name: 'tables', arg: 'N', default: '10', help: 'Without --stages: tables to ramp to and hold.' },
  { name: 'duration', arg: 'SECONDS', default: '60', help: 'Without --stages: length of the run.' },
  { name: 'ramp-ms', arg: 'MS', default: '3000', help: 'Without --stages: length of the ramp.' },
  {
    name: 'mix',
    arg: 'LIST',
    default: '--game/--mode/--players:100',
    help: 'Game mix, GAME/MODE/PLAYERS:WEIGHT,… e.g. one-card/classic/4:60,poker/holdem/6:30,hula/classic/4:10.',
  },
  { name: 'game', arg: 'ID', default: 'one-card', help: 'Without --mix: the game every table plays.' },
  { name: 'mode', arg: 'ID', default: 'classic', help: 'Without --mix: its mode.' },
  { name: 'players', arg: 'N', default: '4', help: 'Without --mix: seats per table.' },
  { name: 'think-ms', arg: 'MS', default: '2000', help: 'Mean think time before each action (lognormal: the median).' },
  {
    name: 'think-dist',
    arg: THINK_DISTS.join('|'),
    default: 'uniform',
    help: 'Think-time distribution (uniform = 0.5–1.5 × mean).',
  },
  { name: 'think-sigma', arg: 'S', default: '0.5', help: 'Spread of the lognormal think time.' },
  { name: 'spectators', arg: 'N', default: '0', help: 'Spectator sockets per table.' },
  {
    name: 'storm',
    arg: 'AT:PERCENT',
    default: '(none)',
    multiple: true,
    help: 'Reconnect storm: at AT (e.g. 90s) drop PERCENT % of open sockets at once; they reconnect and resume. Repeatable.',
  },
  {
    name: 'threshold',
    arg: 'EXPR',
    default: '(none)',
    multiple: true,
    help: `Pass/fail criterion; any failure exits 99. ${THRESHOLD_DOC}. Repeatable.`,
  },
  {
    name: 'workers',
    arg: 'N',
    default: '1',
    help: 'Child processes sharing the bots; their statistics merge exactly (HDR histograms).',
  },
  {
    name: 'fill-sockets',
    arg: 'N',
    default: '0',
    help: 'Pack the bots: the first worker and the first --url take up to N sockets (tables in order, none cut), the next only what is left. 0 = deal tables to the workers in turn and seats to the URLs seat by seat.',
  },
  {
    name: 'source-addresses',
    arg: 'auto|IP,…',
    default: 'auto',
    help: 'Source addresses of the sockets: auto = 127.0.0.2, .3, … one per worker when the target is 127.x, and one more (127.0.1.2, …) per 4,000 of its sockets (each address has ≈ 28k ephemeral ports).',
  },
  { name: 'interval', arg: 'SECONDS', default: '5', help: 'Width of the report’s time buckets.' },
  {
    name: 'warmup',
    arg: 'SECONDS',
    default: '0',
    help: 'Samples of the first SECONDS stay out of the totals and thresholds (still plotted).',
  },
  {
    name: 'requeue',
    default: 'on',
    negatable: true,
    help: 'Bots whose game finished queue again (--no-requeue: play one game).',
  },
  {
    name: 'until-finished',
    default: 'off',
    help: 'Stop once every bot’s game finished (with --no-requeue: one game per table).',
  },
  {
    name: 'report',
    arg: 'FILE',
    default: 'load-report.html',
    help: 'Self-contained HTML report with plots ("" = none).',
  },
  {
    name: 'json',
    arg: 'FILE',
    default: 'load-report.json',
    help: 'Machine-readable results: totals, stages, intervals with HDR histograms ("" = none).',
  },
  {
    name: 'raw-samples',
    default: 'off',
    help: 'Also put every raw action latency into the JSON (to check the merge; large).',
  },
  {
    name: 'check-every',
    arg: 'N',
    default: '16',
    help: 'Bots read most views by their header only; every N-th of those is parsed and checked in full instead (1 = parse every view).',
  },
  {
    name: 'ws-client',
    arg: WS_CLIENTS.join('|'),
    default: 'lean',
    help: "The bots' WebSocket client: lean (a minimal RFC 6455 client on net, ws:// only) or the ws package (also used for wss://).",
  },
  {
    name: 'live-ms',
    arg: 'MS',
    default: '1000',
    help: 'Live terminal view (progress bar per stage) refresh on stderr; 0 = quiet.',
  },
  { name: 'run-id', arg: 'ID', default: 'random', help: 'Prefix of bot ids under --auth jwt-secret.' },
];

export function helpText(): string {
  const lines = [
    'npm run load -- [flags]   the bot swarm: tables of bots that sign in, quick-match and play',
    '',
    'Prints a live view on stderr, writes the HTML and JSON reports, and prints one JSON summary line on',
    'stdout. Exit codes: 0 ok, 99 a threshold failed, 2 bad flags, 1 the run itself failed.',
    '',
    'Flags (default in brackets):',
  ];
  for (const f of FLAGS) {
    const head = `  --${f.negatable ? `[no-]${f.name}` : f.name}${f.arg ? ` ${f.arg}` : ''}`;
    lines.push(`${head}  [${f.default || '—'}]`, `      ${f.help}`);
  }
  lines.push('', 'Metrics (histograms per run, stage and interval):');
  for (const m of METRICS) lines.push(`  ${m.padEnd(10)} ${METRIC_DOC[m]}`);
  lines.push(
    '',
    'Examples:',
    '  npm run load -- --stages ramp:50:1m,hold:3m,spike:100:30s,hold:30s --mix one-card/classic/4:60,poker/holdem/6:30,hula/classic/4:10 \\',
    '      --spectators 1 --storm 150s:20% --threshold "p99<100" --threshold "errors<0.1%"',
    '  npm run load -- --profile load-tests/profiles/staged-5m.json --workers 2',
  );
  return lines.join('\n');
}

export interface CliOptions {
  help: boolean;
  options: SwarmOptions;
  report: string;
  json: string;
}

const num = (flag: string, text: string): number => {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n)) throw new UsageError(`--${flag}: "${text}" is not a number`);
  return n;
};

const Profile = z
  .object({
    // Checked in full by SwarmOptions; here only the shape, so values keep their input form.
    stages: z.array(z.object({}).passthrough()).optional(),
    mix: z.array(z.object({}).passthrough()).optional(),
    think: z.object({}).passthrough().optional(),
    spectators: z.number().optional(),
    storms: z.array(z.object({}).passthrough()).optional(),
    thresholds: z.array(z.string()).optional(),
  })
  .strict();

function wrap<T>(flag: string, f: () => T): T {
  try {
    return f();
  } catch (err) {
    throw new UsageError(`--${flag}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** argv (after the script name) → options. Throws UsageError naming the flag. */
export function parseCli(argv: string[]): CliOptions {
  const spec: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = {};
  for (const f of FLAGS) {
    spec[f.name] = { type: f.arg ? 'string' : 'boolean', multiple: f.multiple === true };
    if (f.negatable) spec[`no-${f.name}`] = { type: 'boolean' };
  }
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    values = parseNodeArgs({ args: argv, options: spec, strict: true, allowPositionals: false })
      .values as typeof values;
  } catch (err) {
    // node's messages already quote the flag ("Unknown option '--bogus'", "Option '--tables <value>' argument missing").
    throw new UsageError((err as Error).message);
  }
  const v = (name: string) => values[name] as string | undefined;
  const raw: Record<string, unknown> = {};
  const curve = curveFlags(v);
  if (curve) {
    if (v('stages') !== undefined) throw new UsageError('--stages: an offered-load curve makes its own stages');
    raw.curve = curve;
    raw.stages = curveStages(curve);
  } else if (v('profile') !== undefined) {
    const text = wrap('profile', () => readFileSync(v('profile')!, 'utf8'));
    const p = wrap('profile', () => Profile.parse(JSON.parse(text)));
    Object.assign(raw, p);
  }
  const str: [string, string][] = [
    ['url', 'url'],
    ['lobby', 'lobby'],
    ['auth', 'auth'],
    ['jwt-secret', 'jwtSecret'],
    ['token-cache', 'tokenCache'],
    ['game', 'game'],
    ['mode', 'mode'],
    ['run-id', 'runId'],
    ['ws-client', 'wsClient'],
  ];
  for (const [flag, key] of str) if (v(flag) !== undefined) raw[key] = v(flag);
  const ints: [string, string][] = [
    ['signin-concurrency', 'signinConcurrency'],
    ['tables', 'tables'],
    ['duration', 'duration'],
    ['ramp-ms', 'rampMs'],
    ['players', 'players'],
    ['spectators', 'spectators'],
    ['workers', 'workers'],
    ['warmup', 'warmup'],
    ['live-ms', 'liveMs'],
    ['check-every', 'checkEvery'],
    ['fill-sockets', 'fillSockets'],
  ];
  for (const [flag, key] of ints) if (v(flag) !== undefined) raw[key] = num(flag, v(flag)!);
  if (v('interval') !== undefined) raw.intervalMs = Math.round(num('interval', v('interval')!) * 1000);
  if (v('stages') !== undefined) raw.stages = wrap('stages', () => parseStages(v('stages')!));
  if (v('mix') !== undefined) raw.mix = wrap('mix', () => parseMix(v('mix')!));
  if (values.storm) raw.storms = wrap('storm', () => (values.storm as string[]).map(parseStorm));
  if (values.threshold) raw.thresholds = values.threshold as string[];
  for (const t of (raw.thresholds as string[] | undefined) ?? []) wrap('threshold', () => parseThreshold(t));
  if (v('think-ms') !== undefined || v('think-dist') !== undefined || v('think-sigma') !== undefined)
    raw.think = {
      ...(raw.think as object | undefined),
      ...(v('think-ms') !== undefined && { meanMs: num('think-ms', v('think-ms')!) }),
      ...(v('think-dist') !== undefined && { dist: v('think-dist') }),
      ...(v('think-sigma') !== undefined && { sigma: num('think-sigma', v('think-sigma')!) }),
    };
  const sa = v('source-addresses');
  if (sa !== undefined) raw.sourceAddresses = sa === 'auto' ? 'auto' : sa.split(',').map((s) => s.trim());
  if (values['target-is-mine']) raw.targetIsMine = true;
  if (values['no-requeue']) raw.requeue = false;
  else if (values.requeue) raw.requeue = true;
  if (values['until-finished']) raw.untilFinished = true;
  if (values['raw-samples']) raw.rawSamples = true;
  const parsed = SwarmOptions.safeParse(raw);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    const key = String(i.path[0] ?? '');
    const flag = FLAG_OF[key] ?? key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    throw new UsageError(`--${flag}: ${i.message}`);
  }
  return {
    help: values.help === true,
    options: parsed.data,
    report: v('report') ?? 'load-report.html',
    json: v('json') ?? 'load-report.json',
  };
}

/** `--profile offered-curve --knee N` or `--curve-tables A,B,C`, with `--hold`: the curve's plan, else null. */
function curveFlags(v: (name: string) => string | undefined): CurvePlan | null {
  const byKnee = v('profile') === 'offered-curve';
  const list = v('curve-tables');
  if (!byKnee && list === undefined) {
    if (v('knee') !== undefined) throw new UsageError('--knee: needs --profile offered-curve');
    return null;
  }
  const holdMs = wrap('hold', () => parseDuration(v('hold') ?? DEFAULT_CURVE_HOLD_MS));
  if (list !== undefined) return { tables: list.split(',').map((t) => num('curve-tables', t)), holdMs };
  if (v('knee') === undefined) throw new UsageError('--profile: offered-curve needs --knee N');
  const knee = num('knee', v('knee')!);
  return { knee, tables: wrap('knee', () => kneeLevels(knee)), holdMs };
}

/** Option keys whose flag is not their kebab-case name. */
const FLAG_OF: Record<string, string> = {
  intervalMs: 'interval',
  storms: 'storm',
  thresholds: 'threshold',
  think: 'think-ms',
};

export { parseDuration };
