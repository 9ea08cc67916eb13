/* global __ENV, __VU, __ITER */
// Quick-match one-card tables through the gateway, one VU per seat. Each VU signs its
// own token, queues, joins the table it is matched to and plays from its own view after
// THINK_MS with a minimal policy read from the view's `legal` flags (the Node swarm uses
// the engine's real bot policy instead; k6 cannot import TypeScript).
//   k6 run -e URL=ws://127.0.0.1:8081/ws -e GAME=one-card -e MODE=classic -e PLAYERS=4 \
//          -e VUS=800 -e DURATION=120s -e THINK_MS=2000 load-tests/k6/tables.js
// UNTESTED HERE: k6 cannot be installed on this repo's development machines.
import ws from 'k6/ws';
import { check } from 'k6';
import { Trend, Counter } from 'k6/metrics';
import { signToken, checkTarget, DEV_JWT_SECRET } from './lib.js';

const URL = checkTarget(__ENV.URL || 'ws://127.0.0.1:8081/ws');
const SECRET = __ENV.JWT_SECRET || DEV_JWT_SECRET;
const GAME = __ENV.GAME || 'one-card';
const MODE = __ENV.MODE || 'classic';
const PLAYERS = Number(__ENV.PLAYERS || 4);
const THINK_MS = Number(__ENV.THINK_MS || 2000);

const SUITS = ['S', 'H', 'D', 'C'];
const COLORS = ['R', 'Y', 'G', 'B'];
/** A crude one-card policy on the view alone: declare, choose, play the first legal card, else draw/pass. */
function choose(view) {
  const L = view.legal;
  if (!L || view.finished || !view.hand) return null;
  if (L.canDeclareOneCard && !L.oneCardIsCatch) return { type: 'declareOneCard' };
  if (L.mustChooseColor) return { type: 'chooseColor', color: COLORS[Math.floor(Math.random() * 4)] };
  if (L.canChallenge || L.canAcceptWild4) return { type: 'acceptWild4' };
  if (L.canPlay && view.legalCardIds.length > 0) {
    const id = view.legalCardIds[0];
    const play = { type: 'play', cardIds: [id] };
    if (L.mustChooseSuitFor.includes(id)) play.chooseSuit = SUITS[Math.floor(Math.random() * 4)];
    if (L.mustChooseColorFor.includes(id)) play.chooseColor = COLORS[Math.floor(Math.random() * 4)];
    if (view.hand.length === 2) play.declareOneCard = true;
    return play;
  }
  if (L.canPass) return { type: 'pass' };
  if (L.canDraw) return { type: 'draw' };
  return null;
}

const actionToView = new Trend('action_to_view_ms', true);
const acks = new Counter('acks');
const rejects = new Counter('rejected');
const protoErrors = new Counter('protocol_errors');
const finished = new Counter('tables_finished');

export const options = {
  vus: Number(__ENV.VUS || PLAYERS * 50),
  duration: __ENV.DURATION || '120s',
  thresholds: { action_to_view_ms: ['p(99)<100'], protocol_errors: ['count==0'] },
};

export default function () {
  const sub = `k6-bot-${__VU}-${__ITER}`;
  let roomId = null;
  let pending = null; // { id, sentAt, ackSeq }
  let n = 0;
  let thinking = false;
  let lastView = null;

  const res = ws.connect(URL, {}, (socket) => {
    const send = (m) => socket.send(JSON.stringify(Object.assign({ v: 1 }, m)));
    socket.on('open', () => send({ t: 'hello', token: signToken(SECRET, sub, `k6 ${__VU}`) }));
    socket.on('message', (text) => {
      const m = JSON.parse(text);
      if (m.t === 'welcome') send({ t: 'queue', game: GAME, mode: MODE, players: PLAYERS });
      else if (m.t === 'matched') {
        roomId = m.roomId;
        send({ t: 'join', roomId });
      } else if (m.t === 'ack') {
        acks.add(1);
        if (pending && pending.id === m.actionId) pending.ackSeq = m.seq;
      } else if (m.t === 'rejected') {
        rejects.add(1);
        pending = null;
      } else if (m.t === 'error') protoErrors.add(1);
      else if (m.t === 'view') {
        if (pending && pending.ackSeq !== null && m.seq >= pending.ackSeq) {
          actionToView.add(Date.now() - pending.sentAt);
          pending = null;
        }
        if (m.result !== undefined || (m.view && m.view.finished)) {
          finished.add(1);
          socket.close();
          return;
        }
        if (!pending && !thinking && choose(m.view)) {
          thinking = true;
          lastView = m.view;
          socket.setTimeout(
            () => {
              thinking = false;
              const action = choose(lastView); // decide on the latest view, not the one that woke us
              if (!action) return;
              pending = { id: `${sub}.${++n}`, sentAt: Date.now(), ackSeq: null };
              send({ t: 'action', roomId, actionId: pending.id, action });
            },
            THINK_MS * (0.5 + Math.random()),
          );
        } else if (m.view) lastView = m.view;
      }
    });
    socket.setTimeout(() => socket.close(), 10 * 60 * 1000);
  });
  check(res, { 'upgraded (101)': (r) => r && r.status === 101 });
}
