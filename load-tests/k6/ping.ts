/**
 * Idle authenticated sockets and the ping → pong round trip through the gateway. Bundled by
 * build.mjs into dist/ping.js:
 *   k6 run -e URL=ws://127.0.0.1:8081/ws -e LOBBY=http://127.0.0.1:8080/trpc -e VUS=200 load-tests/k6/dist/ping.js
 * One iteration per VU: it waits its turn in the ramp (RAMP), signs in (src/signin.ts: refusals are
 * backed off, a run that cannot sign in aborts), says hello, pings once a second until HOLD ends,
 * then closes its socket and clears its timer itself, so k6 interrupts nothing.
 */
import './src/globals.ts';
import exec from 'k6/execution';
import { sleep } from 'k6';
import { WebSocket } from 'k6/websockets';
import { clearInterval, clearTimeout, setInterval, setTimeout } from 'k6/timers';
import { Counter, Trend } from 'k6/metrics';
import type { Options } from 'k6/options';
import { PROTOCOL_REVISION, PROTOCOL_VERSION, type ClientMessage } from '@joke/protocol/client';
import { checkTarget } from './src/target.ts';
import { signIn } from './src/signin.ts';
import { parseDuration } from '../src/scenario.ts';

const URL = checkTarget(__ENV.URL || 'ws://127.0.0.1:8081/ws', __ENV);
const LOBBY = checkTarget(__ENV.LOBBY || 'http://127.0.0.1:8080/trpc', __ENV);
const VUS = Number(__ENV.VUS || 200);
const RAMP_MS = parseDuration(__ENV.RAMP || '30s');
const HOLD_MS = parseDuration(__ENV.HOLD || '60s');
/** Timing thresholds (ms): ping → pong p99 and hello → welcome p95. */
const PONG_P99_MS = Number(__ENV.PONG_P99_MS || 100);
const WELCOME_P95_MS = Number(__ENV.WELCOME_P95_MS || 500);
const rtt = new Trend('pong_rtt', true);
const welcome = new Trend('welcome', true);
const pongs = new Counter('pongs');
const protoErrors = new Counter('protocol_errors');

export const options: Options = {
  scenarios: {
    sockets: {
      executor: 'per-vu-iterations',
      vus: VUS,
      iterations: 1,
      maxDuration: `${RAMP_MS + HOLD_MS + 60_000}ms`,
      gracefulStop: '10s',
    },
  },
  thresholds: {
    http_req_failed: ['rate<0.01'],
    checks: ['rate>=0.99'],
    pong_rtt: [`p(99)<${PONG_P99_MS}`],
    welcome: [`p(95)<${WELCOME_P95_MS}`],
    pongs: ['count>0'],
    protocol_errors: ['count==0'],
  },
};

const send = (ws: WebSocket, m: ClientMessage) => ws.send(JSON.stringify(m));

export default function (): void {
  const index = exec.scenario.iterationInTest;
  const deadline = exec.scenario.startTime + RAMP_MS + HOLD_MS;
  sleep((RAMP_MS * index) / VUS / 1000);
  const token = signIn(LOBBY, index, parseDuration(__ENV.SIGNIN_PATIENCE || '15s'), deadline);
  if (token === null) return;
  const opened = Date.now();
  const ws = new WebSocket(URL);
  let timer: number | null = null;
  const clear = () => {
    if (timer !== null) clearInterval(timer);
    clearTimeout(end);
    timer = null;
  };
  const end = setTimeout(
    () => {
      clear();
      ws.close();
    },
    Math.max(0, deadline - Date.now()),
  );
  ws.onopen = () => send(ws, { v: PROTOCOL_VERSION, t: 'hello', token, revision: PROTOCOL_REVISION });
  ws.onmessage = (e) => {
    const m = JSON.parse(String(e?.data));
    if (m.t === 'welcome') {
      welcome.add(Date.now() - opened);
      timer = setInterval(() => send(ws, { v: PROTOCOL_VERSION, t: 'ping', at: Date.now() }), 1000);
    } else if (m.t === 'pong') {
      rtt.add(Date.now() - m.at);
      pongs.add(1);
    } else if (m.t === 'error') protoErrors.add(1, { kind: String(m.code) });
  };
  ws.onclose = clear;
}
