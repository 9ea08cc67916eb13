/**
 * Bytes per view frame as the worker encodes them (src/frames.ts), over 20
 * bot-played games at one table: mean bytes of a seat's frame and of the
 * spectator frame, the bytes of the `fixed` members (sent only in a viewer's
 * first frame, frames.ts), and µs to encode one action's frames (best of 5).
 *
 *   node --import tsx services/room-worker/bench/frame-bytes.ts [game] [mode] [players]
 *
 * Figures, not assertions.
 */
import { games } from '@joke/engine';
import { StateViews, viewFrameBytes, type FrameContext } from '../src/frames.ts';
import { playedSteps, type Step } from './played-steps.ts';

const [gameId = 'one-card', modeArg, playersArg = '4'] = process.argv.slice(2);
const game = games[gameId];
const mode = modeArg || game.modes[0].id;
const players = Array.from({ length: Number(playersArg) }, (_, i) => ({ id: `user-${i}`, name: `플레이어${i}` }));

const steps = playedSteps(game, mode, players, 20, 'frame-bytes');

const presenceJson = JSON.stringify(players.map((p) => ({ id: p.id, connected: true, away: false, bot: false })));
const context = (t: Step): FrameContext => ({
  roomIdJson: '"bench-room_1"',
  seq: t.seq,
  events: t.events,
  views: new StateViews(game, t.state),
  presenceJson,
  resultJson: t.resultJson,
});

let playerBytes = 0;
let spectatorBytes = 0;
for (const t of steps) {
  const c = context(t);
  for (const p of players) playerBytes += viewFrameBytes(game, c, p.id).length;
  spectatorBytes += viewFrameBytes(game, c, null).length;
}
const fixedBytes = game.viewParts?.fixed ? Buffer.byteLength(JSON.stringify(game.viewParts.fixed(steps[0].state))) : 0;

let sink = 0;
let best = Infinity;
for (let round = 0; round < 5; round++) {
  const t0 = performance.now();
  for (const t of steps) {
    const c = context(t);
    for (const p of players) sink += viewFrameBytes(game, c, p.id).length;
  }
  best = Math.min(best, ((performance.now() - t0) * 1000) / steps.length);
}

console.log(
  JSON.stringify({
    game: gameId,
    mode,
    players: players.length,
    actions: steps.length,
    playerFrameBytes: Math.round(playerBytes / steps.length / players.length),
    spectatorFrameBytes: Math.round(spectatorBytes / steps.length),
    bytesPerAction: Math.round((playerBytes + spectatorBytes) / steps.length),
    fixedMemberBytes: fixedBytes,
    encodeUsPerAction: Number(best.toFixed(1)),
    sink: sink > 0,
  }),
);
