/**
 * Quick-matched tables of every game through the gateway, played by the engine's own bot policy
 * (src/seat.ts). Bundled for k6 by build.mjs (`npm run k6:build -w load-tests`) into dist/tables.js:
 *   k6 run -e URL=ws://127.0.0.1:8081/ws -e LOBBY=http://127.0.0.1:8080/trpc -e TABLES=200 \
 *          -e MIX=one-card/classic/4:60,poker/holdem/6:30,hula/monster/4:10 load-tests/k6/dist/tables.js
 *
 * Each VU runs exactly one iteration (per-vu-iterations): it waits its turn in the ramp, signs in,
 * plays until the stage's planned end, then closes its sockets and clears its timers itself, so the
 * run ends with no interrupted iteration. `PER_TABLE=1`: one VU per table holding every seat (one
 * event loop drives the whole table) instead of one VU per seat. `SPIKE=1`: a second scenario of
 * SPIKE_TABLES more tables from SPIKE_AT for SPIKE_FOR. The slot a VU plays is its
 * `iterationInTest`, unique across execution segments, so k6-operator's runners (and two processes
 * with complementary `--execution-segment`s) split the tables between them without overlap.
 *
 * Thresholds (a failure exits 99): sign-in and other HTTP failures, checks, protocol errors, seats
 * seated ≥ 95 % of the plan (a share, so each execution segment checks its own part), every mix entry
 * acknowledged actions, actions delivered ≥ 95 %, sent on time ≥ ON_TIME (0.95), action→view p99 < P99_MS.
 * A run whose sign-ins stay refused aborts early (src/signin.ts, exit 108).
 */
import './src/globals.ts';
import exec from 'k6/execution';
import { sleep } from 'k6';
import type { Options } from 'k6/options';
import { planFrom, seatAt, seatsOf } from './src/plan.ts';
import { Seat } from './src/seat.ts';
import { signIn } from './src/signin.ts';
import { summaryOf } from './src/summary.ts';
import { metrics } from './src/metrics.ts';
import { checkMix } from './src/bots.ts';

const plan = planFrom(__ENV);
const P99_MS = Number(__ENV.P99_MS || 100);
/** Share of actions sent within their think time's bound (a timing threshold, like P99_MS). */
const ON_TIME = Number(__ENV.ON_TIME || 0.95);
const GRACE_MS = 60_000;

function scenario(tables: number, startMs: number, lengthMs: number) {
  const vus = plan.perTable ? tables : seatsOf(plan.mix, plan.slots, tables);
  return {
    executor: 'per-vu-iterations' as const,
    vus,
    iterations: 1,
    startTime: `${startMs}ms`,
    // Sign-in back-off and the seats' own close need a little past the planned end.
    maxDuration: `${lengthMs + GRACE_MS}ms`,
    gracefulStop: '10s',
    exec: 'play',
    env: { STAGE_MS: String(lengthMs), STAGE_TABLES: String(tables) },
  };
}

export const options: Options = {
  scenarios: {
    tables: scenario(plan.tables, 0, plan.rampMs + plan.holdMs),
    ...(plan.spikeTables > 0 ? { spike: scenario(plan.spikeTables, plan.spikeAtMs, plan.spikeForMs) } : {}),
  },
  thresholds: {
    http_req_failed: ['rate<0.01'],
    checks: ['rate>=0.99'],
    protocol_errors: ['count==0'],
    seats_seated: ['rate>=0.95'],
    actions_delivered: ['rate>=0.95'],
    actions_on_time: [`rate>=${ON_TIME}`],
    actions: ['count>0'],
    action_to_view: [`p(99)<${P99_MS}`],
    // Each game and mode of the mix plays: its acknowledged actions show in the summary too.
    ...Object.fromEntries(plan.mix.map((m) => [`actions{game:${m.game},mode:${m.mode}}`, ['count>0']])),
  },
  summaryTrendStats: ['avg', 'min', 'med', 'p(50)', 'p(95)', 'p(99)', 'max'],
};

/** Once per run, before any VU plays: the mix's games and modes exist in the engine. */
export function setup(): void {
  checkMix(plan.mix);
}

export function play(): void {
  const index = exec.scenario.iterationInTest;
  const tables = Number(__ENV.STAGE_TABLES);
  const units = plan.perTable ? tables : seatsOf(plan.mix, plan.slots, tables);
  // The ramp: unit k of n starts k/n of the way through it (the spike starts at once).
  const ramp = exec.scenario.name === 'tables' ? plan.rampMs : 0;
  const deadline = exec.scenario.startTime + Number(__ENV.STAGE_MS);
  sleep((ramp * index) / units / 1000);
  const tag = exec.scenario.name === 'tables' ? 't' : 's';
  const seats = plan.perTable
    ? Array.from({ length: plan.mix[plan.slots[index].entry].players }, (_, seat) => ({ slot: index, seat }))
    : [seatAt(plan, index)];
  const tokens = seats.map((s) =>
    signIn(plan.lobby, plan.slots[s.slot].firstSeat + s.seat, plan.signinPatienceMs, deadline),
  );
  if (Date.now() >= deadline) return;
  seats.forEach((s, i) => {
    const token = tokens[i];
    if (token === null) return metrics.seatedShare.add(false);
    new Seat({
      url: plan.url,
      entry: plan.mix[plan.slots[s.slot].entry],
      token,
      seed: `k6${tag}-${s.slot}-${s.seat}`,
      deadline,
      think: plan.think,
      checkEvery: plan.checkEvery,
    }).start();
  });
}

export function handleSummary(data: unknown) {
  return summaryOf(data as Parameters<typeof summaryOf>[0], plan, __ENV.SUMMARY_JSON);
}
