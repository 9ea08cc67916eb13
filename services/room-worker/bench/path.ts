/**
 * CPU of the message path's pieces, in one process, as ratios to a floor
 * measured in the same run (JSON.stringify / JSON.parse of one 2 KB view, the
 * PERFORMANCE.md floor row), so the figures compare on a shared, noisy box.
 *
 *   node --import tsx services/room-worker/bench/path.ts
 *
 * 1. The worker alone, per one-card action with 4 player viewers: engine apply,
 *    the snapshot write's text (the record step, and the whole snapshot once
 *    SNAPSHOT_BASE_STEPS steps followed the last whole one, metadata cached),
 *    4 view frames as bytes and the binary Delivery envelope.
 * 2. The Delivery envelope: the JSON envelope this replaced (frames as escaped
 *    strings, parsed by the gateway, re-encoded to UTF-8 by the socket) against
 *    the binary one (header read, frame bytes handed on as they are).
 * 3. Worker heartbeat size at 1,000 and 20,000 rooms, with the room-id list it
 *    used to carry and without.
 * Figures, not assertions.
 */
import { games, Rng } from '@joke/engine';
import { bus as wire, contract, decodeDelivery, encodeDelivery } from '@joke/protocol';
import { StateViews, viewFrame, viewFrameBytes } from '../src/frames.ts';
import { SnapshotEncoder } from '../src/snapshot.ts';
import { workerConfig } from '../src/config.ts';
import { heartbeatMessage } from '../src/upkeep.ts';
import type { RoomData } from '../src/room-types.ts';

const game = games['one-card'];
const rng = Rng.fromSeed('path-bench');

/** µs per call of `f`, best of 5 rounds of `n` calls (the least disturbed by other processes). */
function time(n: number, f: (i: number) => void): number {
  let best = Infinity;
  for (let round = 0; round < 5; round++) {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) f(i);
    best = Math.min(best, ((performance.now() - t0) * 1000) / n);
  }
  return best;
}

const players = ['p1', 'p2', 'p3', 'p4'].map((id) => ({ id, name: id }));
const options = game.optionsSchema.parse({ mode: 'classic' });
const fresh = () => game.setup({ seed: 'ab'.repeat(32), players, options, now: 0 });

// ---- floor: one 2 KB view -------------------------------------------------------------------------
const sampleView = game.view(fresh(), 'p1');
let padded: unknown = sampleView;
while (JSON.stringify(padded).length < 2048)
  padded = { ...(padded as object), pad: 'x'.repeat(2048 - JSON.stringify(padded).length) };
const viewText = JSON.stringify(padded);
const floorStringify = time(20_000, () => JSON.stringify(padded));
const floorParse = time(20_000, () => JSON.parse(viewText));

// ---- 1. the worker alone ---------------------------------------------------------------------------
const data: RoomData = {
  v: 1,
  roomId: 'bench-room',
  game: 'one-card',
  mode: 'classic',
  options: { mode: 'classic' },
  startedAt: 0,
  state: fresh(),
  seats: players.map((p) => ({ ...p, bot: false, away: false, timeouts: 0, disconnectedSince: null })),
  viewers: players.map((p) => ({ userId: p.id, gatewayId: 'g', role: 'player' as const, connected: true })),
  finishedAt: null,
  finishedPublished: false,
};
const snapshot = new SnapshotEncoder(workerConfig.resolve().snapshotBaseSteps);
let seq = 0;
const presenceJson = JSON.stringify(data.seats.map((s) => ({ id: s.id, connected: true, away: false, bot: false })));
let actions = 0;
const actionUs = time(2_000, () => {
  let state = data.state;
  let moved = false;
  for (const p of players) {
    const action = game.bot(game.view(state, p.id), rng);
    if (action === null) continue;
    const r = game.apply(state, p.id, action, 1);
    if (!r.ok) continue;
    state = r.state;
    moved = true;
    const c = {
      roomIdJson: '"bench-room"',
      seq: 1,
      events: r.events,
      views: new StateViews(game, state),
      presenceJson,
      resultJson: null,
    };
    const frames: wire.DeliveryFrame[] = players.map((v) => ({
      kind: 'view',
      viewer: v.id,
      bytes: viewFrameBytes(game, c, v.id),
    }));
    data.state = state;
    JSON.stringify({ s: ++seq, n: 1, a: p.id, x: action, i: `a${seq}` });
    snapshot.next(data, seq, 1);
    encodeDelivery({ roomId: 'bench-room', seq: 1, owner: 'w/1', frames });
    actions++;
    break;
  }
  if (!moved || game.result(state) !== null) data.state = fresh();
});

// ---- 2. the envelope ----------------------------------------------------------------------------
const frameTexts = players.map((p) =>
  viewFrame('"bench-room"', 7, 'player', JSON.stringify(game.view(data.state, p.id)), '[]', presenceJson, null),
);
const oldEnvelope = time(20_000, () => {
  const text = `{"roomId":"bench-room","seq":7,"frames":${JSON.stringify(frameTexts.map((frame, i) => ({ viewer: players[i].id, frame })))}}`;
  const bytes = Buffer.from(text); // NATS payload
  const d = JSON.parse(Buffer.from(bytes).toString('utf8')) as { frames: { frame: string }[] };
  for (const f of d.frames) Buffer.from(f.frame); // what the socket write turns each string into
});
const frameBytes = frameTexts.map((t) => Buffer.from(t));
const newEnvelope = time(20_000, () => {
  const bytes = encodeDelivery({
    roomId: 'bench-room',
    seq: 7,
    owner: 'w/1',
    frames: frameBytes.map((b, i) => ({ kind: 'view', viewer: players[i].id, bytes: b })),
  });
  const d = decodeDelivery(bytes);
  for (const f of d.frames) void f.bytes; // handed to ws.send as they are
});

// ---- 3. heartbeat size ----------------------------------------------------------------------------
const heartbeatBytes = (rooms: number, withIds: boolean): number => {
  const hb = heartbeatMessage({ workerId: 'worker-0', shard: 0 }, 'a1b2c3d4e5f60718', rooms, 2500, 3.2, false);
  const msg = withIds
    ? { ...hb, roomIds: Array.from({ length: rooms }, (_, i) => `q${String(i).padStart(12, 'x')}`) }
    : hb;
  return Buffer.byteLength(
    String(withIds ? JSON.stringify(msg) : contract.workerHeartbeat.message.encode(hb as wire.WorkerHeartbeat)),
  );
};

const r2 = (x: number) => Math.round(x * 100) / 100;
console.log(
  JSON.stringify({
    floor: { stringify2kViewUs: r2(floorStringify), parse2kViewUs: r2(floorParse) },
    worker: {
      actionUs: r2(actionUs),
      actions,
      xStringify2kView: r2(actionUs / floorStringify),
      note: 'apply + snapshot write text (step; whole every K steps) + 4 view frames as bytes + binary delivery, one-card, 4 player viewers',
    },
    envelope: {
      jsonUs: r2(oldEnvelope),
      binaryUs: r2(newEnvelope),
      jsonOverBinary: r2(oldEnvelope / newEnvelope),
      note: '4 frames of ≈ ' + frameTexts[0].length + ' B: encode, carry, read on the gateway, bytes for the socket',
    },
    heartbeatBytes: {
      rooms1k: { withRoomIds: heartbeatBytes(1000, true), now: heartbeatBytes(1000, false) },
      rooms20k: { withRoomIds: heartbeatBytes(20_000, true), now: heartbeatBytes(20_000, false) },
    },
  }),
);
