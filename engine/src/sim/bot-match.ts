/**
 * Poker bot against poker bot: two policies (봇 난이도 levels) share a table
 * through the engine contract, seats swapped every game so neither keeps the
 * better position, and every hand's chip result of the first policy is
 * collected. Reports chips won per 100 hands with a 95% confidence interval
 * (normal approximation over per-hand results).
 *
 * `npm run botmatch -- --mode holdem --hands 10000 --seed 1 [--a normal] [--b easy] [--players 2]`
 * Progress on stderr; the last stdout line is a JSON summary.
 */
import { parseArgs } from 'node:util';
import { Rng } from '../core/rng.ts';
import type { BotLevel } from '../core/options.ts';
import { poker, type PokerView } from '../games/poker/index.ts';
import { playPokerTable } from './poker-table.ts';

export interface MatchConfig {
  mode: string;
  /** Stop once at least this many hands are played. */
  hands: number;
  seed: string;
  a: BotLevel;
  b: BotLevel;
  players: number;
  options?: Record<string, unknown>;
  onProgress?: (hands: number) => void;
}

export interface MatchReport {
  mode: string;
  a: BotLevel;
  b: BotLevel;
  players: number;
  hands: number;
  games: number;
  baseUnit: number;
  /** Mean chips per 100 hands won by policy A (per A seat) and the 95% interval half-width. */
  chipsPer100: number;
  ci95: number;
  /** The same in big blinds / base units. */
  unitsPer100: number;
  unitsCi95: number;
}

export function runBotMatch(cfg: MatchConfig): MatchReport {
  const options = poker.optionsSchema.parse({
    mode: cfg.mode,
    // No rebuys: a stack change is exactly what the hand won or lost.
    rebuy: 'off',
    endCondition: 'hands',
    handLimit: 50,
    ...cfg.options,
  });
  const rng = Rng.fromSeed(`botmatch:${cfg.seed}`);
  const results: number[] = [];
  let games = 0;
  while (results.length < cfg.hands) {
    const players = Array.from({ length: cfg.players }, (_, i) => ({ id: `p${i + 1}`, name: `봇${i + 1}` }));
    // Policies alternate around the table, and the first seat's policy alternates game by game.
    const levelOf = new Map(players.map((p, i) => [p.id, (i + games) % 2 === 0 ? cfg.a : cfg.b]));
    const now = 1_000_000;
    let state = poker.setup({ seed: `${cfg.seed}:${games}`, players, options, now });
    // Stacks when the last hand was settled (at first: the starting chips, before any blind).
    let settled = new Map(players.map((p) => [p.id, options.startingChips as number]));
    const onEvents = (events: readonly { type: string }[]): void => {
      if (!events.some((e) => e.type === 'handEnd')) return;
      const stacks = stacksOf(poker.view(state, null));
      for (const p of players)
        if (levelOf.get(p.id) === cfg.a) results.push((stacks.get(p.id) ?? 0) - (settled.get(p.id) ?? 0));
      settled = stacks;
      cfg.onProgress?.(results.length);
    };
    state = playPokerTable(
      state,
      players.map((p) => p.id),
      now,
      (id, v) => {
        const action = poker.bot({ ...v, options: { ...v.options, botLevel: levelOf.get(id)! } } as PokerView, rng);
        return action && { action, thinkMs: 100 };
      },
      (_step, s, events) => {
        state = s;
        onEvents(events);
      },
    );
    games++;
  }
  const n = results.length;
  const mean = results.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(results.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, n - 1));
  const half = (1.96 * sd) / Math.sqrt(n);
  const unit = options.baseUnit;
  return {
    mode: cfg.mode,
    a: cfg.a,
    b: cfg.b,
    players: cfg.players,
    hands: n,
    games,
    baseUnit: unit,
    chipsPer100: round(mean * 100),
    ci95: round(half * 100),
    unitsPer100: round((mean * 100) / unit),
    unitsCi95: round((half * 100) / unit),
  };
}

function stacksOf(v: PokerView): Map<string, number> {
  return new Map(v.seats.map((s) => [s.id, s.stack]));
}

function round(x: number): number {
  return Math.round(x * 10) / 10;
}

const isMain = process.argv[1]?.endsWith('bot-match.ts');
if (isMain) {
  const { values } = parseArgs({
    args: process.argv.slice(2).filter((a) => a !== '--'),
    options: {
      mode: { type: 'string', default: 'holdem' },
      hands: { type: 'string', default: '10000' },
      seed: { type: 'string', default: '1' },
      a: { type: 'string', default: 'normal' },
      b: { type: 'string', default: 'easy' },
      players: { type: 'string', default: '2' },
      options: { type: 'string', default: '{}' },
    },
  });
  const t0 = performance.now();
  const report = runBotMatch({
    mode: values.mode!,
    hands: Number(values.hands),
    seed: values.seed!,
    a: values.a as BotLevel,
    b: values.b as BotLevel,
    players: Number(values.players),
    options: JSON.parse(values.options!),
    onProgress: (h) => {
      if (h % 1000 === 0) process.stderr.write(`${h} hands\n`);
    },
  });
  console.log(JSON.stringify({ ...report, seconds: Math.round((performance.now() - t0) / 100) / 10 }));
}
