/* global __ENV, __VU, __ITER */
// Quick-matched one-card tables through the gateway, one VU per seat: each VU
// signs in through the lobby, queues, joins the table it is matched to and plays
// from its own view after THINK_MS with the policy in protocol.js.
//   k6 run -e URL=ws://127.0.0.1:8081/ws -e LOBBY=http://127.0.0.1:8080/trpc -e TABLES=200 \
//          -e PLAYERS=4 -e THINK_MS=2000 load-tests/k6/tables.js
// UNTESTED HERE: k6 cannot be installed on this repo's development machines.
import { WebSocket } from 'k6/websockets';
import { setTimeout } from 'k6/timers';
import { Trend, Counter } from 'k6/metrics';
import { checkTarget, vuToken } from './lib.js';
import { action, chooseOneCard, hello, join, queue } from './protocol.js';

const URL = checkTarget(__ENV.URL || 'ws://127.0.0.1:8081/ws');
const LOBBY = checkTarget(__ENV.LOBBY || 'http://127.0.0.1:8080/trpc');
const MODE = __ENV.MODE || 'classic';
const PLAYERS = Number(__ENV.PLAYERS || 4);
const THINK_MS = Number(__ENV.THINK_MS || 2000);
const SEATS = Number(__ENV.TABLES || 50) * PLAYERS;

const actionToView = new Trend('action_to_view_ms', true);
const acks = new Counter('acks');
const rejects = new Counter('rejected');
const protoErrors = new Counter('protocol_errors');
const finished = new Counter('tables_finished');

export const options = {
  scenarios: {
    // Ramp to the table count, hold, then a spike of twice as many seats, as the Node swarm's stages do.
    tables: {
      executor: 'ramping-vus',
      startVUs: 0,
      stages: [
        { duration: __ENV.RAMP || '60s', target: SEATS },
        { duration: __ENV.HOLD || '120s', target: SEATS },
        { duration: '10s', target: 0 },
      ],
      gracefulRampDown: '30s',
    },
    spike: {
      executor: 'ramping-vus',
      startTime: __ENV.SPIKE_AT || '120s',
      startVUs: 0,
      stages: [
        { duration: '5s', target: SEATS },
        { duration: '30s', target: SEATS },
        { duration: '5s', target: 0 },
      ],
      gracefulRampDown: '30s',
    },
  },
  thresholds: {
    action_to_view_ms: ['p(99)<100', 'p(50)<30'],
    protocol_errors: ['count==0'],
    'http_req_duration{name:auth.guest}': ['p(95)<1000'],
  },
};

export default function () {
  const token = vuToken(LOBBY, __VU);
  let roomId = null;
  let pending = null; // { id, sentAt, ackSeq }
  let n = 0;
  let thinking = false;
  let lastView = null;
  // The game's fixed view members (a view's `fixed`, in the join's reply), merged into every view.
  let fixed = null;
  let resyncing = false;
  const ws = new WebSocket(URL);
  const send = (m) => ws.send(JSON.stringify(m));

  const act = () => {
    thinking = false;
    // Decide on the latest view, not the one that woke us.
    const a = chooseOneCard(lastView, Math.random);
    if (!a || pending) return;
    pending = { id: `${__VU}.${__ITER}.${++n}`, sentAt: Date.now(), ackSeq: null };
    send(action(roomId, pending.id, a));
  };

  ws.onopen = () => send(hello(token));
  ws.onmessage = (e) => {
    const m = JSON.parse(String(e.data));
    if (m.t === 'welcome') send(queue('one-card', MODE, PLAYERS));
    else if (m.t === 'matched') {
      roomId = m.roomId;
      fixed = null;
      send(join(roomId, false));
    } else if (m.t === 'ack') {
      acks.add(1);
      if (pending && pending.id === m.actionId) pending.ackSeq = m.seq;
    } else if (m.t === 'rejected') {
      rejects.add(1);
      pending = null;
    } else if (m.t === 'error') protoErrors.add(1);
    else if (m.t === 'view' && m.roomId === roomId) {
      if (m.fixed) {
        fixed = m.fixed;
        resyncing = false;
      } else if (!fixed) {
        // A view without them before any came: join again (the reply carries them) and skip this one.
        if (!resyncing) send(join(roomId, false));
        resyncing = true;
        return;
      }
      lastView = Object.assign({}, fixed, m.view);
      if (pending && pending.ackSeq !== null && m.seq >= pending.ackSeq) {
        actionToView.add(Date.now() - pending.sentAt);
        pending = null;
      }
      if (m.result !== undefined || (m.view && m.view.finished)) {
        finished.add(1);
        ws.close();
        return;
      }
      if (!pending && !thinking && chooseOneCard(lastView, Math.random)) {
        thinking = true;
        setTimeout(act, THINK_MS * (0.5 + Math.random()));
      }
    }
  };
  setTimeout(() => ws.close(), 10 * 60 * 1000);
}
