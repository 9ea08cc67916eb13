/**
 * 포커 hot paths on one core: 7-card evaluations per second against `phe` and
 * `pokersolver` on the same random hands (each library fed its own card
 * encoding, prepared before timing), and `apply` alone on transitions
 * pre-recorded from bot games (bots and views are not timed).
 */
import { createRequire } from 'node:module';
import { Rng } from '../core/rng.ts';
import type { PlayerId } from '../core/types.ts';
import { poker } from '../games/poker/index.ts';
import { CARDS52, cardText } from '../games/poker/cards.ts';
import { evalIntl7, evalKorean7 } from '../games/poker/eval/high.ts';
import type { PokerState } from '../games/poker/types.ts';
import { simPlayers } from '../sim/runner.ts';
import type { BenchLine } from './main.ts';
import { perSecond } from './util.ts';

const require = createRequire(import.meta.url);

interface Phe {
  cardCodes(cards: string[]): number[];
  evaluateCardCodes(codes: number[]): number;
}
interface Solver {
  Hand: { solve(cards: string[]): { rank: number } };
}

const HANDS = 20_000;

function hands(): { codes: Int32Array; text: string[][] } {
  const rng = Rng.fromSeed('bench:hands');
  const codes = new Int32Array(HANDS * 7);
  const text: string[][] = [];
  for (let i = 0; i < HANDS; i++) {
    const h = rng.shuffle(CARDS52.slice()).slice(0, 7);
    h.forEach((c, j) => (codes[i * 7 + j] = c.id));
    text.push(h.map(cardText));
  }
  return { codes, text };
}

interface Transition {
  state: PokerState;
  actor: PlayerId;
  action: unknown;
  now: number;
}

/** Bot games of every mode; keeps each (state, actor, action) the bots chose. */
function record(games: number): Transition[] {
  const out: Transition[] = [];
  const rng = Rng.fromSeed('bench:poker');
  const modes = [
    ['holdem', 6],
    ['omaha', 6],
    ['sevenPoker', 5],
    ['sevenHiLo', 5],
    ['badugi', 5],
    ['fiveDraw', 5],
    ['indian', 4],
  ] as const;
  for (const [mode, n] of modes) {
    const options = poker.optionsSchema.parse({ mode, handLimit: 10 });
    const ps = simPlayers(n);
    for (let g = 0; g < games; g++) {
      let now = 1_800_000_000_000;
      let state = poker.setup({ seed: `bench:${mode}:${g}`, players: ps, options, now });
      for (let step = 0; step < 20_000 && !poker.result(state); step++) {
        const moves: { actor: PlayerId; action: unknown }[] = [];
        for (const p of ps) {
          const a = poker.bot(poker.view(state, p.id), rng);
          if (a) moves.push({ actor: p.id, action: a });
        }
        now += 700;
        const pick = moves.length > 0 ? moves[rng.int(moves.length)] : null;
        const r = pick
          ? poker.apply(state, pick.actor, pick.action, now)
          : poker.onTimeout(state, poker.deadline(state)!);
        if (!r.ok) throw new Error(`bench ${mode} game ${g}: ${r.reason}`);
        if (pick) out.push({ state, actor: pick.actor, action: pick.action, now });
        state = r.state;
      }
    }
  }
  return out;
}

export function run(): BenchLine[] {
  const phe = require('phe') as Phe;
  const { Hand } = require('pokersolver') as Solver;
  const { codes, text } = hands();
  const pheCodes = text.map((t) => phe.cardCodes(t));
  let i = 0;
  let sink = 0;
  const next = () => (i = i + 1 === HANDS ? 0 : i + 1);

  const ours = perSecond(() => {
    const o = next() * 7;
    sink += evalIntl7(codes[o], codes[o + 1], codes[o + 2], codes[o + 3], codes[o + 4], codes[o + 5], codes[o + 6]);
  }, 2000);
  const korean = perSecond(() => {
    const o = next() * 7;
    sink += evalKorean7(codes[o], codes[o + 1], codes[o + 2], codes[o + 3], codes[o + 4], codes[o + 5], codes[o + 6]);
  }, 2000);
  const pheRate = perSecond(() => {
    sink += phe.evaluateCardCodes(pheCodes[next()]);
  }, 2000);
  const solver = perSecond(() => {
    sink += Hand.solve(text[next()]).rank;
  }, 1000);
  if (sink === 0) throw new Error('evaluations optimised away');

  const ts = record(6);
  let k = 0;
  const applies = perSecond(() => {
    const t = ts[k];
    k = k + 1 === ts.length ? 0 : k + 1;
    const r = poker.apply(t.state, t.actor, t.action, t.now);
    if (!r.ok) throw new Error(r.reason);
  }, 2000);
  let v = 0;
  const views = perSecond(() => {
    const t = ts[v];
    v = v + 1 === ts.length ? 0 : v + 1;
    poker.view(t.state, t.actor);
  }, 1000);

  const ratio = (x: number) =>
    `${(x / pheRate).toFixed(2)}× phe, ${Math.round(x / solver).toLocaleString('en-US')}× pokersolver`;
  return [
    { name: "poker eval 7-card hold'em (ours)", value: ours, unit: 'evals/s', note: ratio(ours) },
    { name: 'poker eval 7-card 7포커 Korean (ours)', value: korean, unit: 'evals/s', note: ratio(korean) },
    { name: "poker eval 7-card hold'em phe", value: pheRate, unit: 'evals/s' },
    { name: "poker eval 7-card hold'em pokersolver", value: solver, unit: 'evals/s' },
    { name: `poker apply (all modes, ${ts.length} recorded)`, value: applies, unit: 'actions/s' },
    { name: 'poker view (actor)', value: views, unit: 'views/s' },
  ];
}
