/**
 * A stand-in for the platform, used by scripts/measure-swarm.sh to measure the
 * swarm's own CPU per action: one process that speaks the gateway's client
 * protocol (hello, queue → matched, join, action → ack + a view to every seat,
 * leave), plays real games with the engine and writes each view frame in the
 * room worker's byte layout (services/room-worker/src/frames.ts), so the bots
 * get the same frames as from the real stack. Nothing is persisted or routed:
 * this process's CPU is not the platform's, and is reported apart.
 *
 *   node --import tsx load-tests/bench/table-server.ts PORT
 */
import { WebSocketServer, type WebSocket } from 'ws';
import { games, type AnyGame } from '@joke/engine';
import { PROTOCOL_VERSION as v } from '@joke/protocol';

interface Table {
  id: string;
  game: AnyGame;
  state: unknown;
  seq: number;
  seats: string[];
  sockets: Map<string, WebSocket>;
}

const port = Number(process.argv[2] ?? 19790);
const tables = new Map<string, Table>();
const waiting = new Map<string, { userId: string; name: string; ws: WebSocket }[]>();
let nextTable = 0;

const send = (ws: WebSocket, m: object) => ws.send(JSON.stringify(m));

/** `withFixed`: the join's reply, which carries the game's fixed view members (the views leave them out). */
function viewFrame(t: Table, viewer: string, events: unknown[], withFixed = false): string {
  const result = t.game.result(t.state);
  const presence = t.seats.map((id) => ({ id, connected: t.sockets.has(id), away: false, bot: false }));
  const parts = t.game.viewParts;
  const view = parts ? { ...parts.own(t.state, viewer), ...parts.shared(t.state) } : t.game.view(t.state, viewer);
  return (
    `{"v":${v},"t":"view","roomId":${JSON.stringify(t.id)},"seq":${t.seq},"role":"player","view":` +
    JSON.stringify(view) +
    ',"events":' +
    JSON.stringify(events.map((e) => t.game.eventView(e as never, viewer)).filter((e) => e !== null)) +
    ',"presence":' +
    JSON.stringify(presence) +
    (parts && withFixed ? `,"fixed":${JSON.stringify(parts.fixed(t.state))}` : '') +
    (result === null ? '}' : `,"result":${JSON.stringify(result)}}`)
  );
}

function transition(t: Table, state: unknown, events: unknown[]): void {
  t.state = state;
  t.seq++;
  for (const [id, ws] of t.sockets) ws.send(viewFrame(t, id, events));
}

function queue(ws: WebSocket, userId: string, name: string, m: { game: string; mode: string; players: number }): void {
  const game = games[m.game];
  if (!game) return send(ws, { v, t: 'error', code: 'noRoom', message: m.game });
  // Bots of different swarm runs (measure-swarm.sh runs two side by side) never share a table: runId is in the id.
  const key = `${m.game}/${m.mode}/${m.players}/${userId.split('-')[1]}`;
  const list = waiting.get(key) ?? [];
  if (!list.some((w) => w.userId === userId)) list.push({ userId, name, ws });
  waiting.set(key, list);
  if (list.length < m.players) return;
  waiting.delete(key);
  const id = `bench${nextTable++}`;
  const players = list.map((w) => ({ id: w.userId, name: w.name }));
  const state = game.setup({
    seed: id,
    players,
    options: game.optionsSchema.parse({ mode: m.mode }),
    now: Date.now(),
  });
  tables.set(id, { id, game, state, seq: 0, seats: players.map((p) => p.id), sockets: new Map() });
  for (const w of list) send(w.ws, { v, t: 'matched', roomId: id, game: m.game, mode: m.mode });
}

function action(ws: WebSocket, userId: string, m: { roomId: string; actionId: string; action: unknown }): void {
  const t = tables.get(m.roomId);
  if (!t) return send(ws, { v, t: 'error', code: 'noRoom', message: m.roomId, roomId: m.roomId });
  const r = t.game.apply(t.state, userId, m.action, Date.now());
  if (!r.ok)
    return send(ws, { v, t: 'rejected', roomId: t.id, actionId: m.actionId, reason: r.reason, code: 'illegal' });
  send(ws, { v, t: 'ack', roomId: t.id, actionId: m.actionId, seq: t.seq + 1 });
  transition(t, r.state, r.events);
}

const wss = new WebSocketServer({ port, host: '127.0.0.1', perMessageDeflate: false });
wss.on('connection', (ws) => {
  let userId: string | null = null;
  let name = '';
  const joined = new Set<Table>();
  ws.on('message', (data) => {
    const m = JSON.parse(String(data));
    if (m.t === 'hello') {
      // The bench trusts the token: its claims are read, not checked (the real gateway checks the signature).
      // Its name goes into the views as the real stack's does: the swarm's are Korean (봇…), so its frames are
      // not all ASCII, and decoding them costs the bots what it costs them against the real stack.
      const claims = JSON.parse(Buffer.from(String(m.token).split('.')[1], 'base64url').toString());
      userId = claims.sub as string;
      name = String(claims.name ?? userId);
      return send(ws, { v, t: 'welcome', userId, name, serverTime: Date.now() });
    }
    if (userId === null) return;
    if (m.t === 'queue') return queue(ws, userId, name, m);
    if (m.t === 'action') return action(ws, userId, m);
    const t = tables.get(m.roomId);
    if (!t) return;
    if (m.t === 'join') {
      t.sockets.set(userId, ws);
      joined.add(t);
      ws.send(viewFrame(t, userId, [], true));
    } else if (m.t === 'leave') {
      t.sockets.delete(userId);
      joined.delete(t);
      if (t.sockets.size === 0) tables.delete(t.id);
    }
  });
  ws.on('close', () => {
    for (const t of joined) {
      if (userId && t.sockets.get(userId) === ws) t.sockets.delete(userId);
      if (t.sockets.size === 0) tables.delete(t.id);
    }
  });
});

// Turn timers, as the room worker runs them: a seat whose policy had nothing to do must not stall its table.
setInterval(() => {
  const now = Date.now();
  for (const t of tables.values()) {
    const due = t.game.deadline(t.state);
    if (due === null || due > now || t.game.result(t.state) !== null) continue;
    const r = t.game.onTimeout(t.state, now);
    if (r.ok) transition(t, r.state, r.events);
  }
}, 500).unref();

wss.on('listening', () => process.stdout.write(`table-server listening on ${port}\n`));
process.on('SIGTERM', () => process.exit(0));
