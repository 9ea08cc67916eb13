import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FLAGS, helpText, parseCli, UsageError } from '../src/index.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('npm run load -- --help', () => {
  it('documents every flag with its default and exits 0', () => {
    const r = spawnSync('npm', ['run', '--silent', 'load', '--', '--help'], { cwd: root, encoding: 'utf8' });
    expect(r.status).toBe(0);
    for (const f of FLAGS) {
      const line = r.stdout.split('\n').find((l) => new RegExp(`^  --(\\[no-\\])?${f.name}( |$)`).test(l));
      expect(line, `--${f.name} in --help`).toBeDefined();
      expect(line).toContain(`[${f.default || '—'}]`);
    }
    expect(r.stdout).toBe(`${helpText()}\n`);
  }, 60_000);
});

describe('flags', () => {
  it('parses the documented command line into options', () => {
    const { options } = parseCli([
      '--url',
      'ws://127.0.0.1:9000/ws',
      '--stages',
      'ramp:50:1m,hold:2m,spike:100:30s,step:75:1m,soak:2h',
      '--mix',
      'one-card/classic/4:60,poker/holdem/6:30,hula/classic/4:10',
      '--think-ms',
      '800',
      '--think-dist',
      'lognormal',
      '--spectators',
      '2',
      '--storm',
      '150s:20%',
      '--threshold',
      'p99<100',
      '--threshold',
      'errors<0.1%',
      '--workers',
      '3',
      '--no-requeue',
      '--interval',
      '2',
    ]);
    expect(options).toMatchObject({
      url: 'ws://127.0.0.1:9000/ws',
      auth: 'guest',
      lobby: 'http://127.0.0.1:8080/trpc',
      think: { dist: 'lognormal', meanMs: 800 },
      spectators: 2,
      storms: [{ at: 150_000, dropPercent: 20 }],
      thresholds: ['p99<100', 'errors<0.1%'],
      workers: 3,
      requeue: false,
      intervalMs: 2000,
    });
    expect(options.stages!.map((s) => [s.kind, s.tables, s.duration])).toEqual([
      ['ramp', 50, 60_000],
      ['hold', undefined, 120_000],
      ['spike', 100, 30_000],
      ['step', 75, 60_000],
      ['soak', undefined, 7_200_000],
    ]);
    expect(options.mix!.map((m) => m.weight)).toEqual([60, 30, 10]);
  });

  it('names the bad flag in every error', () => {
    const cases: [string[], RegExp][] = [
      [['--bogus', '1'], /--bogus/],
      [['--tables'], /--tables/],
      [['--tables', 'many'], /--tables: "many" is not a number/],
      [['--stages', 'ramp:10'], /--stages: stage "ramp:10"/],
      [['--stages', 'warp:10:5s'], /--stages/],
      [['--mix', 'one-card'], /--mix: mix entry "one-card"/],
      [['--storm', 'soon'], /--storm/],
      [['--threshold', 'p99 about 100'], /--threshold: threshold "p99 about 100"/],
      [['--threshold', 'speed<3'], /--threshold: .*unknown statistic speed/],
      [['--think-dist', 'gaussian'], /--think-ms|--think-dist/],
      [['--workers', '0'], /--workers/],
      [['--auth', 'jwt-secret'], /--jwt-secret: auth jwt-secret needs the secret/],
      [['--duration', '1000000'], /--duration/],
    ];
    for (const [argv, re] of cases) {
      expect(() => parseCli(argv), argv.join(' ')).toThrow(UsageError);
      expect(() => parseCli(argv), argv.join(' ')).toThrow(re);
    }
  });

  it('loads only loopback unless --target-is-mine', () => {
    for (const url of ['ws://10.0.0.5:8081/ws', 'ws://example.com/ws', 'ws://127.0.0.1:1/ws,ws://10.1.1.1:2/ws'])
      expect(() => parseCli(['--url', url]), url).toThrow(/--url: .*not loopback.*--target-is-mine/);
    expect(() => parseCli(['--lobby', 'https://staging.example.com/trpc'])).toThrow(/--lobby: .*not loopback/);
    expect(() => parseCli(['--url', 'http://127.0.0.1/ws'])).toThrow(/--url/);
    for (const url of ['ws://127.0.0.1:1/ws', 'ws://localhost:8081/ws', 'ws://[::1]:8081/ws', 'ws://127.0.0.3:1/ws'])
      expect(parseCli(['--url', url]).options.url).toBe(url);
    const mine = parseCli([
      '--url',
      'wss://staging.example.com/ws',
      '--lobby',
      'https://staging.example.com/trpc',
      '--target-is-mine',
    ]);
    expect(mine.options.targetIsMine).toBe(true);
  });
});

describe('--check-every', () => {
  it('defaults to every 16th skipped view, 1 opens every view, 0 is refused', () => {
    expect(parseCli([]).options.checkEvery).toBe(16);
    expect(parseCli(['--check-every', '1']).options.checkEvery).toBe(1);
    expect(() => parseCli(['--check-every', '0'])).toThrow(/--check-every/);
  });
});
