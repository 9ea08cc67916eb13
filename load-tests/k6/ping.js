/* global __ENV, __VU, __ITER */
// Sockets + ping/pong round trip through the gateway (no game): how many idle
// authenticated sockets one gateway holds, and its protocol-level latency.
//   k6 run -e URL=ws://127.0.0.1:8081/ws -e VUS=2000 -e DURATION=60s load-tests/k6/ping.js
// UNTESTED HERE: k6 cannot be installed on this repo's development machines.
import ws from 'k6/ws';
import { check } from 'k6';
import { Trend, Counter } from 'k6/metrics';
import { signToken, checkTarget, DEV_JWT_SECRET } from './lib.js';

const URL = checkTarget(__ENV.URL || 'ws://127.0.0.1:8081/ws');
const SECRET = __ENV.JWT_SECRET || DEV_JWT_SECRET;
const rtt = new Trend('pong_rtt_ms', true);
const protoErrors = new Counter('protocol_errors');

export const options = {
  vus: Number(__ENV.VUS || 200),
  duration: __ENV.DURATION || '60s',
  thresholds: { pong_rtt_ms: ['p(99)<100'], protocol_errors: ['count==0'] },
};

export default function () {
  const sub = `k6-ping-${__VU}-${__ITER}`;
  const res = ws.connect(URL, {}, (socket) => {
    socket.on('open', () =>
      socket.send(JSON.stringify({ v: 1, t: 'hello', token: signToken(SECRET, sub, `k6 ${__VU}`) })),
    );
    socket.on('message', (text) => {
      const m = JSON.parse(text);
      if (m.t === 'welcome')
        socket.setInterval(() => socket.send(JSON.stringify({ v: 1, t: 'ping', at: Date.now() })), 1000);
      else if (m.t === 'pong') rtt.add(Date.now() - m.at);
      else if (m.t === 'error') protoErrors.add(1);
    });
    socket.setTimeout(() => socket.close(), 30000);
  });
  check(res, { 'upgraded (101)': (r) => r && r.status === 101 });
}
