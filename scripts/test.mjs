#!/usr/bin/env node
/**
 * `npm test`: type-check every workspace, lint and format-check, then run
 * every workspace's tests through turbo, and close with one line
 * "N passed, N failed" summed from the vitest JSON reports.
 * A type or lint error counts as one failed check so it can never hide.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

const root = new URL('..', import.meta.url).pathname;
const results = join(root, 'test-results');
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', FORCE_COLOR: process.env.CI ? '0' : '1' };
const turbo = join(root, 'node_modules', '.bin', 'turbo');
const bin = (name) => join(root, 'node_modules', '.bin', name);

function step(title, cmd, args) {
  const started = Date.now();
  process.stdout.write(`\n=== ${title}\n`);
  const r = spawnSync(cmd, args, { cwd: root, env, stdio: 'inherit' });
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  const ok = r.status === 0;
  process.stdout.write(`=== ${title}: ${ok ? 'ok' : 'FAILED'} (${secs}s)\n`);
  return ok;
}

if (!process.env.JOKE_SKIP_SERVICES) {
  const ok = step('services (NATS, Redis, PostgreSQL, Chromium)', 'bash', [
    join(root, 'scripts', 'ensure-services.sh'),
  ]);
  if (!ok) {
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
}
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });

/** Like step, but runs beside other lanes; turbo prefixes each line with its workspace, so lanes interleave legibly. */
function lane(title, cmd, args) {
  const started = Date.now();
  process.stdout.write(`\n=== ${title}\n`);
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env, stdio: 'inherit' });
    child.on('close', (code) => {
      const secs = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`=== ${title}: ${code === 0 ? 'ok' : 'FAILED'} (${secs}s)\n`);
      resolve(code === 0);
    });
  });
}

const checks = [];
// Every Node workspace in ONE tsc program (tsconfig.check.json): the workspaces import each other's
// sources, so one tsc per workspace (turbo's `typecheck`, still there for a single workspace) checked the
// engine eleven times; 39 s of CPU instead of about 200 on this box. The client (DOM lib) and the k6
// scripts have their own compiler options. The lobby's Prisma client is generated first, as its own
// `pretypecheck` does. eslint and prettier run beside the two type-checks: each of the four is one
// single-threaded process, and one after the other they took ≈ 130 s of the suite's wall time on 2 cores.
const generated = step('prisma generate (lobby)', 'npm', ['run', 'generate', '--silent', '-w', '@joke/lobby']);
const [typedNode, typedClient, linted, formatted] = await Promise.all([
  generated
    ? lane('typecheck: Node workspaces (tsconfig.check.json)', bin('tsc'), ['--noEmit', '-p', 'tsconfig.check.json'])
    : false,
  lane('typecheck: client and k6', 'sh', [
    '-c',
    `"${bin('tsc')}" --noEmit -p client && "${bin('tsc')}" --noEmit -p load-tests/k6`,
  ]),
  lane('eslint', bin('eslint'), ['.']),
  lane('prettier --check', bin('prettier'), ['--check', '.', '--log-level', 'warn']),
]);
checks.push(['typecheck', generated && typedNode && typedClient], ['eslint', linted], ['prettier', formatted]);

// Four lanes on two cores: the browser tests (two files at a time, mostly waiting on Chromium and on the
// bots' think time), the platform's multi-process tests (mostly waiting on process start-ups, failovers and
// clusters), the load tools (their swarm cluster test of 5 workers and 2 gateways alone takes ≈ 4 min) and
// every other workspace in turn. Run one after the other they took 28 min of a 20-minute budget (CI,
// 2026-12-01); with the load tools inside the last lane that lane took 20.7 min at load 28 (2026-12-03).
// JOKE_TEST_LANES=1 runs everything in one lane.
const testArgs = (filters) => [
  'run',
  'test',
  ...filters,
  ...(filters.some((f) => f.startsWith('--concurrency')) ? [] : ['--concurrency=1']),
  '--continue',
];
// The platform's heaviest multi-process files (a release build plus a whole stack, a rendered cluster,
// SIGKILLs of workers in a cluster) run after the load tools, in their lane: the platform lane alone took
// 1,100 s of a 1,250 s suite while the load tools' lane was done at 754 s (2026-12-07, load ≈ 30).
const PLATFORM_HEAVY = ['test/compiled-start.test.ts', 'test/rendered-cluster.test.ts', 'test/cluster-kill.test.ts'];
// The rest runs two files at once (JOKE_PLATFORM_WORKERS; vitest's default here is one, a worker per core
// less): alone, one at a time, the part spent 180 s of CPU in 742 s of wall at load 28 (2026-12-07), its
// files waiting on process start-ups, games and failovers, and every file owns its namespace, schema,
// ports and processes. Two at a time it took 522 s under two busy loops (docs/measurements/tests.md).
const PLATFORM_MAIN_WORKERS = process.env.JOKE_PLATFORM_WORKERS ?? '2';
const platformDir = join(root, 'services', 'platform');
const platformPart = (part, args) => `cd "${platformDir}" && JOKE_TEST_PART=${part} "${bin('vitest')}" run ${args}`;
const LANES = [
  ['client (browser)', turbo, testArgs(['--filter=@joke/client'])],
  [
    'platform (processes)',
    'sh',
    [
      '-c',
      platformPart(
        'main',
        [
          ...(PLATFORM_MAIN_WORKERS ? [`--maxWorkers=${Number(PLATFORM_MAIN_WORKERS)}`] : []),
          ...PLATFORM_HEAVY.map((f) => `--exclude ${f}`),
        ].join(' '),
      ),
    ],
  ],
  [
    "load tools, then the platform's heaviest",
    'sh',
    [
      '-c',
      `"${turbo}" ${testArgs(['--filter=@joke/load-tests']).join(' ')}; a=$?; ` +
        `${platformPart('heavy', PLATFORM_HEAVY.join(' '))}; b=$?; [ $a -eq 0 ] && [ $b -eq 0 ]`,
    ],
  ],
  // Two runs at a time here: the engine's property tests are one long CPU-bound run (1,120 s of this lane's
  // 1,444 under two busy loops, 2026-12-03) that the small workspaces, one after another, share the lane with.
  [
    'every other workspace',
    'sh',
    [
      '-c',
      // The engine's property tests, the lane's longest run and all CPU, start at once beside the rest (one at
      // a time): turbo put the engine last once, and the lane ran past the suite's 20 minutes by itself.
      `(cd "${join(root, 'engine')}" && "${bin('vitest')}" run) & e=$!; ` +
        `"${turbo}" ${testArgs(['--filter=!@joke/client', '--filter=!@joke/platform', '--filter=!@joke/load-tests', '--filter=!@joke/engine']).join(' ')}; ` +
        `o=$?; wait $e; [ $? -eq 0 ] && [ $o -eq 0 ]`,
    ],
  ],
];
const testsStarted = Date.now();
const testsOk =
  process.env.JOKE_TEST_LANES === '1'
    ? step('tests (vitest, every workspace)', turbo, testArgs([]))
    : (await Promise.all(LANES.map(([name, cmd, args]) => lane(`tests: ${name}`, cmd, args)))).every(Boolean);
process.stdout.write(`=== tests: ${((Date.now() - testsStarted) / 1000).toFixed(1)}s\n`);

let passed = 0;
let failed = 0;
let skipped = 0;
const perWorkspace = [];
/** Each failed test by name with the first line of its failure, printed last so a CI log's tail shows it. */
const failures = [];
// vitest reports its own test and hook timeouts with the stack of a marker error, whose first line is
// "Error: STACK_TRACE_ERROR"; say what that means.
// A Playwright timeout's first line does not say what it waited for: its call log ("waiting for
// getByTestId('…')") and the test file's line that waited do, so both follow it.
const firstLine = (msg, rel = '') => {
  const lines = stripVTControlCharacters(String(msg ?? '')).split('\n');
  const line =
    lines
      .find((l) => l.trim())
      ?.trim()
      .slice(0, 300) ?? '';
  if (line === 'Error: STACK_TRACE_ERROR') return 'timed out (the test or hook ran past its vitest timeout)';
  const waited = lines
    .find((l) => /^\s*-\s*waiting for /.test(l))
    ?.trim()
    .slice(2, 200);
  const at = rel
    ? lines.find((l) => l.includes(rel) && /:\d+:\d+\)?$/.test(l))?.match(/[^/(\s]+:\d+:\d+/)?.[0]
    : undefined;
  return [line, waited, at && `at ${at}`].filter(Boolean).join(' — ');
};
if (existsSync(results)) {
  for (const f of readdirSync(results).filter((x) => x.endsWith('.json'))) {
    const r = JSON.parse(readFileSync(join(results, f), 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += r.numPendingTests + (r.numTodoTests ?? 0);
    // A file that failed without a failed test (syntax error, missing module, a beforeAll that threw and
    // left its tests skipped) must still fail the run, and be named.
    const broken = (t) => t.status === 'failed' && !t.assertionResults.some((a) => a.status === 'failed');
    const brokenFiles = (r.testResults ?? []).filter(broken).length;
    failed += brokenFiles;
    for (const file of r.testResults ?? []) {
      const rel = file.name.startsWith(root) ? file.name.slice(root.length) : file.name;
      if (broken(file))
        failures.push(`FAILED ${rel} (the file failed outside its tests): ${firstLine(file.message, rel)}`);
      for (const a of file.assertionResults ?? [])
        if (a.status === 'failed')
          failures.push(`FAILED ${rel} > ${a.fullName}: ${firstLine(a.failureMessages?.[0], rel)}`);
    }
    perWorkspace.push(
      `${f.replace('.json', '')}: ${r.numPassedTests} passed, ${r.numFailedTests + brokenFiles} failed`,
    );
  }
}
for (const [name, ok] of checks) {
  if (ok) continue;
  failed++;
  perWorkspace.push(`${name}: failed`);
}
if (!testsOk && failed === 0) {
  failed++;
  perWorkspace.push('tests: a workspace failed without a JSON report');
}
if (failures.length) console.log(`\n${failures.join('\n')}`);
console.log(`\n${perWorkspace.join('\n')}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
