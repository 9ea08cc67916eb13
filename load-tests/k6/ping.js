/* global __ENV, __VU */
// Idle authenticated sockets and the ping → pong round trip through the gateway.
//   k6 run -e URL=ws://127.0.0.1:8081/ws -e LOBBY=http://127.0.0.1:8080/trpc -e VUS=2000 load-tests/k6/ping.js
// UNTESTED HERE: k6 cannot be installed on this repo's development machines.
import { WebSocket } from 'k6/websockets';
import { setInterval, setTimeout, clearInterval } from 'k6/timers';
import { Trend, Counter } from 'k6/metrics';
import { checkTarget, vuToken } from './lib.js';
import { hello, ping } from './protocol.js';

const URL = checkTarget(__ENV.URL || 'ws://127.0.0.1:8081/ws');
const LOBBY = checkTarget(__ENV.LOBBY || 'http://127.0.0.1:8080/trpc');
const VUS = Number(__ENV.VUS || 200);
const rtt = new Trend('pong_rtt_ms', true);
const welcome = new Trend('welcome_ms', true);
const protoErrors = new Counter('protocol_errors');

export const options = {
  scenarios: {
    sockets: {
      executor: 'ramping-vus',
      startVUs: 0,
      stages: [
        { duration: __ENV.RAMP || '30s', target: VUS },
        { duration: __ENV.HOLD || '60s', target: VUS },
        { duration: '10s', target: 0 },
      ],
      gracefulRampDown: '5s',
    },
  },
  thresholds: {
    pong_rtt_ms: ['p(99)<100'],
    welcome_ms: ['p(95)<500'],
    protocol_errors: ['count==0'],
    'http_req_duration{name:auth.guest}': ['p(95)<1000'],
  },
};

export default function () {
  const token = vuToken(LOBBY, __VU);
  const opened = Date.now();
  const ws = new WebSocket(URL);
  let timer = null;
  ws.onopen = () => ws.send(JSON.stringify(hello(token)));
  ws.onmessage = (e) => {
    const m = JSON.parse(String(e.data));
    if (m.t === 'welcome') {
      welcome.add(Date.now() - opened);
      timer = setInterval(() => ws.send(JSON.stringify(ping(Date.now()))), 1000);
    } else if (m.t === 'pong') rtt.add(Date.now() - m.at);
    else if (m.t === 'error') protoErrors.add(1);
  };
  ws.onclose = () => timer !== null && clearInterval(timer);
  setTimeout(() => ws.close(), 30000);
}
