/**
 * The bots' header-only reading (src/frames.ts) against real one-card games:
 * every frame the gate lets a bot skip must be one its policy has nothing to
 * do on and that does not end the game. Frames of played games are built by
 * the room worker's own encoder (`@joke/room-worker/frames`: the viewer's own
 * view members first, then the shared ones); the cluster test runs the bots
 * against the real workers and gateways, where a wrong skip or header shows as
 * a swarm error (gateMissed, frameHeader).
 */
import { describe, expect, it } from 'vitest';
import { games, Rng } from '@joke/engine';
import { FixedMembers, StateViews, viewFrameBytes } from '@joke/room-worker/frames';
import {
  askGate,
  headerRoom,
  isHeaderRoom,
  mayFinish,
  readViewHeader,
  VIEW_GATES,
  type ViewHeader,
} from '../src/frames.ts';
import { TimerWheel, WheelTimer } from '../src/timer-wheel.ts';

const game = games['one-card'];

function frame(roomId: string, seq: number, view: unknown, result: unknown, role = 'player'): Buffer {
  const presence = JSON.stringify([{ id: 'u1', connected: true, away: false, bot: false }]);
  return Buffer.from(
    `{"v":1,"t":"view","roomId":${JSON.stringify(roomId)},"seq":${seq},"role":"${role}","view":` +
      JSON.stringify(view) +
      `,"events":[{"type":"played","by":"u1"}],"presence":${presence}` +
      (result === null ? '}' : `,"result":${JSON.stringify(result)}}`),
  );
}

/** Every player's frame after every transition of a few bot-played games. */
function playedFrames(gamesToPlay: number, options: Record<string, unknown>) {
  const players = ['u1', 'u2', 'u3', 'u4'].map((id) => ({ id, name: id }));
  const out: { buf: Buffer; withFixed: Buffer; view: any; result: unknown; seq: number; roomId: string }[] = [];
  for (let g = 0; g < gamesToPlay; g++) {
    const roomId = `room-${g}_x`;
    let state = game.setup({ seed: `frames-${g}`, players, options: game.optionsSchema.parse(options), now: 0 });
    const rng = Rng.fromSeed(`frames-${g}`);
    const fixed = new FixedMembers(game);
    for (let seq = 1; seq < 600; seq++) {
      const result = game.result(state);
      const c = {
        roomIdJson: JSON.stringify(roomId),
        seq,
        events: [{ type: 'played', by: 'u1' }],
        views: new StateViews(game, state),
        presenceJson: JSON.stringify([{ id: 'u1', connected: true, away: false, bot: false }]),
        resultJson: result === null ? null : JSON.stringify(result),
        fixedJson: fixed.json(state),
      };
      for (const p of players) {
        const view = game.view(state, p.id);
        const buf = Buffer.from(viewFrameBytes(game, c, p.id));
        out.push({ buf, withFixed: Buffer.from(viewFrameBytes(game, c, p.id, true)), view, result, seq, roomId });
      }
      if (result !== null) break;
      const actor = players.find((p) => game.bot(game.view(state, p.id), rng) !== null);
      const r = actor
        ? game.apply(state, actor.id, game.bot(game.view(state, actor.id), rng), 0)
        : game.onTimeout(state, game.deadline(state) ?? 0);
      if (!r.ok) break;
      state = r.state;
    }
  }
  return out;
}

describe('view headers', () => {
  const h: ViewHeader = { roomAt: 0, roomEnd: 0, seq: 0, viewAt: 0 };

  it('reads room, seq and where the view starts', () => {
    const buf = frame('abc-9_Z', 1234567, { a: 1 }, null);
    expect(readViewHeader(buf, h)).toBe(true);
    expect([headerRoom(buf, h), h.seq]).toEqual(['abc-9_Z', 1234567]);
    expect(buf.toString('latin1', h.viewAt, h.viewAt + 7)).toBe('{"a":1}');
  });

  it('tells whether the header is for a room by its bytes, as comparing the strings would', () => {
    const buf = frame('abc-9_Z', 1, {}, null);
    expect(readViewHeader(buf, h)).toBe(true);
    expect(isHeaderRoom(buf, h, 'abc-9_Z')).toBe(true);
    for (const other of [null, '', 'abc-9_', 'abc-9_Z1', 'abc-9_z', 'Abc-9_Z', 'xbc-9_Z', 'abc-9_Zabc-9_Z'])
      expect(isHeaderRoom(buf, h, other), String(other)).toBe(false);
  });

  it('declines whatever is not a player view in the worker layout', () => {
    const no = (text: string | Buffer) => expect(readViewHeader(Buffer.from(text), h)).toBe(false);
    no('{"v":1,"t":"ack","roomId":"r","actionId":"a","seq":3}');
    no(frame('r', 3, {}, null, 'spectator'));
    no('{"v":1,"t":"view","seq":3,"roomId":"r","role":"player","view":{}}');
    no('{"v":1,"t":"view","roomId":"r\\"x","seq":3,"role":"player","view":{}}');
    no('{"v":1,"t":"view","roomId":"","seq":3,"role":"player","view":{}}');
    no('{"v":1,"t":"view","roomId":"r","seq":-3,"role":"player","view":{}}');
    no(`{"v":1,"t":"view","roomId":"${'r'.repeat(65)}","seq":3,"role":"player","view":{}}`);
    no('{"v":1,"t":"view","roomId":"r","seq":3,"role":"pla');
    no('{"v":2,"t":"view","roomId":"r","seq":3,"role":"player","view":{}}');
  });
});

describe('the one-card gate', () => {
  const gate = VIEW_GATES['one-card'];
  const h: ViewHeader = { roomAt: 0, roomEnd: 0, seq: 0, viewAt: 0 };
  const frames = [
    ...playedFrames(6, { mode: 'classic' }),
    ...playedFrames(3, { mode: 'uno-style' }),
    ...playedFrames(3, { mode: 'classic', botLevel: 'hard', multiPlay: true }),
  ];

  it('skips only views the policy has nothing to do on, and never one that ends the game', () => {
    let skipped = 0;
    let acting = 0;
    for (const f of frames) {
      expect(readViewHeader(f.buf, h)).toBe(true);
      expect([headerRoom(f.buf, h), h.seq]).toEqual([f.roomId, f.seq]);
      expect(isHeaderRoom(f.buf, h, f.roomId)).toBe(true);
      const answer = askGate(f.buf, h.viewAt, gate);
      expect(answer).not.toBe('unread');
      const skip = !mayFinish(f.buf, h.viewAt) && answer === 'nothingToDo';
      // Several generators: a skipped view must be null for every draw, not just a lucky one.
      const anyAction = [1, 2, 3, 4, 5].some((s) => game.bot(f.view, Rng.fromSeed(`g${s}`)) !== null);
      if (skip) {
        skipped++;
        expect(anyAction).toBe(false);
        expect(f.result).toBeNull();
        expect(f.view.finished).toBe(false);
      } else if (anyAction) acting++;
    }
    // The point of the gate: most views are skipped (3 of 4 players wait), yet every move was kept.
    expect(skipped / frames.length).toBeGreaterThan(0.6);
    expect(acting).toBeGreaterThan(0);
  });

  it('sends every finishing frame to a full parse', () => {
    const last = frames.filter((f) => f.result !== null);
    expect(last.length).toBeGreaterThan(0);
    for (const f of last) {
      readViewHeader(f.buf, h);
      expect(mayFinish(f.buf, h.viewAt)).toBe(true);
    }
  });

  it('sends every frame carrying the fixed view members to a full parse (the bot must keep them)', () => {
    for (const f of frames) {
      expect(readViewHeader(f.withFixed, h)).toBe(true);
      expect(mayFinish(f.withFixed, h.viewAt)).toBe(true);
    }
  });

  it('answers only from all of its flags, read as booleans before the first nested value', () => {
    const ask = (legal: string) =>
      askGate(
        Buffer.from(`{"v":1,"t":"view","roomId":"r","seq":1,"role":"player","view":{"legal":${legal}}}`),
        0,
        gate,
      );
    const all =
      '"canPlay":false,"canDraw":false,"drawCount":1,"canPass":false,"canDeclareOneCard":false,' +
      '"oneCardIsCatch":false,"canChallenge":false,"canAcceptWild4":false,"mustChooseColor":false';
    expect(ask(`{${all},"ids":[],"multiPlay":true}`)).toBe('nothingToDo');
    expect(ask(`{${all}}`)).toBe('nothingToDo');
    expect(ask(`{${all.replace('"canPass":false', '"canPass":true')}}`)).toBe('mayAct');
    expect(ask(`{${all.replace('"mustChooseColor":false', '"mustChooseColor":true')},"ids":[]}`)).toBe('mayAct');
    expect(ask('{"canPlay":false,"canDraw":false}')).toBe('unread');
    expect(ask(`{"ids":[],${all}}`)).toBe('unread');
    expect(ask(`{${all.replace('"canPass":false', '"canPass":"no"')}}`)).toBe('unread');
    expect(ask(`{${all.replace('"canPass":false', '"canPass":0')}}`)).toBe('unread');
    expect(ask(`{${all.replace('"canPass"', '"can\\"Pass"')}}`)).toBe('unread');
  });
});

describe('the timer wheel', () => {
  it('fires in time order, skips cancelled timers and keeps only the latest arming', () => {
    let now = 1000;
    const wheel = new TimerWheel(() => now);
    const fired: string[] = [];
    const t = (name: string) => new WheelTimer(() => fired.push(name));
    const a = t('a');
    const b = t('b');
    const c = t('c');
    const d = t('d');
    wheel.arm(a, 50);
    wheel.arm(b, 20);
    wheel.arm(c, 30);
    wheel.arm(d, 40);
    wheel.cancel(c);
    wheel.arm(b, 100); // moved later: fires once, at the later time
    now += 45;
    wheel.advance();
    expect(fired).toEqual(['d']);
    now += 100;
    wheel.advance();
    expect(fired).toEqual(['d', 'a', 'b']);
    expect(c.armed).toBe(false);
  });

  it('runs a timer armed from inside a firing one on a later pass', () => {
    let now = 0;
    const wheel = new TimerWheel(() => now);
    let n = 0;
    const again: WheelTimer = new WheelTimer(() => {
      if (++n < 3) wheel.arm(again, 0);
    });
    wheel.arm(again, 0);
    wheel.advance();
    expect(n).toBe(1);
    now += 10;
    wheel.advance();
    now += 10;
    wheel.advance();
    expect(n).toBe(3);
    now += 10;
    wheel.advance();
    expect(n).toBe(3);
  });
});
