import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

// Who may import whom (issue 39 §6). The shared libraries every service may use; a service package
// imported by another is a coupling the bus contract (services/protocol) exists to avoid, so each
// exception below is one that exists today, with its reason.
const SHARED = ['@joke/protocol', '@joke/bus', '@joke/stores', '@joke/ops', '@joke/patches', '@joke/engine'];
const SERVICES = ['gateway', 'lobby', 'matchmaker', 'room-worker', 'web', 'platform'];
const LIBRARIES = ['bus', 'ops', 'patches', 'protocol', 'session', 'stores'];
const ALLOWED = {
  // The lobby's HTTP server serves the built client through web's handler.
  lobby: { all: ['@joke/web'] },
  // The matchmaker's tests place rooms on real room workers, with the room worker's test game.
  'matchmaker/test': { all: ['@joke/room-worker'], relative: ['room-worker/test/fixtures/'] },
  // The platform composes every service into one process (and its tests load it).
  platform: { all: [...SERVICES.map((s) => `@joke/${s}`), '@joke/load-tests'] },
  // The platform's tests check the NATS permissions the protocol's deploy script writes.
  'platform/test': { relative: ['protocol/scripts/'] },
};
/** A relative path out of this package into another one's folder (services/<name>/…, engine/…), but `except`. */
const outOfPackage = (except = []) =>
  `^(\\.\\./)+${except.map((e) => `(?!${e.replace(/\./g, '\\.')})`).join('')}(${[...SERVICES, ...LIBRARIES].join('|')}|engine|client|load-tests|services)/`;

/** no-restricted-imports for one service folder (`dir` is `<service>` or `<service>/test`). */
function serviceImports(dir) {
  const name = dir.split('/')[0];
  const allowed = new Set([`@joke/${name}`, ...SHARED, ...(ALLOWED[name]?.all ?? []), ...(ALLOWED[dir]?.all ?? [])]);
  const refused = [...SERVICES, 'load-tests', 'client'].map((s) => `@joke/${s}`).filter((p) => !allowed.has(p));
  return {
    files: [`services/${dir}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...(refused.length
              ? [
                  {
                    group: refused.flatMap((p) => [p, `${p}/*`]),
                    message: `${name}: another service is reached over the bus (services/protocol), not imported; the shared packages are ${SHARED.join(', ')}`,
                  },
                ]
              : []),
            {
              regex: outOfPackage(ALLOWED[dir]?.relative),
              message: `${name}: import another package by its declared name (@joke/…), never its files by relative path`,
            },
          ],
        },
      ],
    },
  };
}

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/generated/**',
      'test-results/**',
      '**/.vite/**',
      'helm/**',
      'infra/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      // No `any` outside declared boundary types (issue 39): the few that must stay are named aliases,
      // disabled inline with their reason (AnyGame; bench/script modules loaded from another tree).
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    // Tests may read untyped frames and fixtures as `any`.
    files: ['**/test/**', '**/*.test.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The engine is pure and deterministic (core/types.ts): time comes in as `now`, randomness from the
    // seeded Rng in the state, and it does no I/O, so a replayed record gives the same game. The tools that
    // drive it from a shell (bench, sim and record CLIs) are its only files allowed the clock and node:.
    files: ['engine/src/**/*.ts'],
    ignores: [
      'engine/src/bench/**',
      'engine/src/sim/cli.ts',
      'engine/src/sim/bot-match.ts',
      'engine/src/record/cli.ts',
      'engine/src/fairplay/bench.ts',
    ],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'engine: time comes in as `now` (pure, replayable)' },
        { object: 'Math', property: 'random', message: 'engine: draw from the seeded Rng in the state' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'engine: time comes in as `now` (pure, replayable)',
        },
        {
          selector: 'ImportExpression[source.value=/^node:/]',
          message: 'engine: no I/O (node: modules) outside the CLI tools',
        },
      ],
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['node:*'], message: 'engine: no I/O (node: modules) outside the CLI tools' }] },
      ],
    },
  },
  {
    // The client sees the engine through one curated entry (engine/src/client.ts: what it may use, so the
    // engine's internals can change without touching the browser), and no service's code at all outside
    // its tests' stacks (the wire contract is @joke/protocol).
    files: ['client/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@joke/engine/*', '!@joke/engine/client'],
              message: 'client: the engine is @joke/engine/client (engine/src/client.ts lists what the client uses)',
            },
            { regex: outOfPackage(), message: 'client: import another package by its declared name (@joke/…)' },
          ],
        },
      ],
    },
  },
  ...[...SERVICES, ...LIBRARIES].flatMap((s) => [serviceImports(s), serviceImports(`${s}/test`)]),
);
