/**
 * Every table sound is synthesised here with WebAudio at run time: short
 * noise bursts for cards, bright clicks for chips, small tone figures for
 * calls and wins. Nothing is recorded or shipped, so there is no sound file
 * and no licence to track; the whole library is this file.
 */

export type Effect =
  | 'unlock'
  | 'deal'
  | 'play'
  | 'draw'
  | 'chipBet'
  | 'chipCall'
  | 'chipRaise'
  | 'fold'
  | 'win'
  | 'warning'
  | 'thankYou'
  | 'oneCard'
  | 'stop'
  | 'chat';

type Recipe = (ctx: AudioContext, out: AudioNode, t: number) => void;

let noiseBuffer: AudioBuffer | null = null;
function noise(ctx: AudioContext): AudioBuffer {
  if (noiseBuffer && noiseBuffer.sampleRate === ctx.sampleRate) return noiseBuffer;
  const b = ctx.createBuffer(1, Math.floor(ctx.sampleRate * 0.5), ctx.sampleRate);
  const d = b.getChannelData(0);
  // A fixed linear congruential sequence: the same "paper" every time, no Math.random needed.
  let x = 12345;
  for (let i = 0; i < d.length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    d[i] = (x / 0xffffffff) * 2 - 1;
  }
  return (noiseBuffer = b);
}

/** A filtered noise burst: the sound of a card sliding (long, rising) or landing (short, low). */
function swish(ctx: AudioContext, out: AudioNode, t: number, dur: number, from: number, to: number, gain: number) {
  const src = ctx.createBufferSource();
  src.buffer = noise(ctx);
  const f = ctx.createBiquadFilter();
  f.type = 'bandpass';
  f.Q.value = 1.2;
  f.frequency.setValueAtTime(from, t);
  f.frequency.exponentialRampToValueAtTime(to, t + dur);
  const g = ctx.createGain();
  g.gain.setValueAtTime(0.0001, t);
  g.gain.exponentialRampToValueAtTime(gain, t + 0.008);
  g.gain.exponentialRampToValueAtTime(0.0001, t + dur);
  src.connect(f).connect(g).connect(out);
  src.start(t);
  src.stop(t + dur + 0.02);
}

/** One enveloped oscillator note. */
function tone(
  ctx: AudioContext,
  out: AudioNode,
  t: number,
  freq: number,
  dur: number,
  gain: number,
  type: OscillatorType,
) {
  const o = ctx.createOscillator();
  o.type = type;
  o.frequency.setValueAtTime(freq, t);
  const g = ctx.createGain();
  g.gain.setValueAtTime(0.0001, t);
  g.gain.exponentialRampToValueAtTime(gain, t + 0.01);
  g.gain.exponentialRampToValueAtTime(0.0001, t + dur);
  o.connect(g).connect(out);
  o.start(t);
  o.stop(t + dur + 0.02);
}

/** Chips: a few bright, slightly detuned clicks, more of them for a bigger bet. */
function chips(ctx: AudioContext, out: AudioNode, t: number, count: number) {
  for (let i = 0; i < count; i++) {
    const at = t + i * 0.045;
    tone(ctx, out, at, 2600 + i * 170, 0.05, 0.25, 'triangle');
    swish(ctx, out, at, 0.04, 5000, 3000, 0.2);
  }
}

const NOTE = (semitones: number) => 440 * 2 ** (semitones / 12);

const RECIPES: Record<Effect, Recipe> = {
  // Near silent: a mobile browser unlocks audio only for a sound started inside the tap itself.
  unlock: (c, o, t) => tone(c, o, t, 440, 0.03, 0.001, 'sine'),
  deal: (c, o, t) => {
    for (let i = 0; i < 3; i++) swish(c, o, t + i * 0.07, 0.09, 1800, 4200, 0.35);
  },
  play: (c, o, t) => {
    swish(c, o, t, 0.07, 900, 500, 0.6);
    tone(c, o, t, 140, 0.06, 0.25, 'sine');
  },
  draw: (c, o, t) => swish(c, o, t, 0.16, 1200, 3600, 0.35),
  chipBet: (c, o, t) => chips(c, o, t, 2),
  chipCall: (c, o, t) => chips(c, o, t, 3),
  chipRaise: (c, o, t) => chips(c, o, t, 6),
  fold: (c, o, t) => swish(c, o, t, 0.12, 700, 300, 0.3),
  win: (c, o, t) => {
    [0, 4, 7, 12].forEach((s, i) => tone(c, o, t + i * 0.11, NOTE(s + 3), 0.35, 0.22, 'triangle'));
  },
  warning: (c, o, t) => tone(c, o, t, 880, 0.09, 0.2, 'square'),
  thankYou: (c, o, t) => {
    tone(c, o, t, NOTE(7), 0.12, 0.25, 'triangle');
    tone(c, o, t + 0.12, NOTE(12), 0.2, 0.25, 'triangle');
  },
  oneCard: (c, o, t) => {
    [0, 7, 12].forEach((s, i) => tone(c, o, t + i * 0.08, NOTE(s + 5), 0.16, 0.25, 'sawtooth'));
  },
  stop: (c, o, t) => {
    tone(c, o, t, NOTE(12), 0.14, 0.25, 'square');
    tone(c, o, t + 0.14, NOTE(5), 0.25, 0.25, 'square');
    tone(c, o, t + 0.14, 90, 0.2, 0.4, 'sine');
  },
  chat: (c, o, t) => tone(c, o, t, NOTE(10), 0.08, 0.12, 'sine'),
};

export function playRecipe(ctx: AudioContext, out: AudioNode, effect: Effect): void {
  RECIPES[effect](ctx, out, ctx.currentTime + 0.005);
}
