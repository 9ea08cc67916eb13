/** Builds exact 훌라 positions for rule tests, on top of a real setup(). */
import { expect } from 'vitest';
import { hula } from '../../src/games/hula/index.ts';
import { DECKS } from '../../src/games/hula/setup.ts';
import { TIMERS } from '../../src/games/hula/timers.ts';
import type { Card, HulaMode, HulaOptions, HulaState, Meld, Phase } from '../../src/games/hula/types.ts';
import type { GameEvent } from '../../src/core/types.ts';
import { verifyRecord, type RecordedStep } from '../../src/record/record.ts';

export const T0 = 1_800_000_000_000;
export const ids = ['p1', 'p2', 'p3', 'p4', 'p5'];
const NAMES = ['민수', '지영', '철수', '영희', '동현'];

export function card(id: string): Card {
  const c = DECKS.joker.find((x) => x.id === id);
  if (!c) throw new Error(`no card ${id}`);
  return c;
}
export const cards = (list: string): Card[] => (list.trim() ? list.trim().split(/\s+/).map(card) : []);

export function players(n: number) {
  return Array.from({ length: n }, (_, i) => ({ id: ids[i], name: NAMES[i] }));
}

export function options(o: Partial<HulaOptions> = {}): HulaOptions {
  return hula.optionsSchema.parse(o);
}

export interface Position {
  mode?: HulaMode;
  opts?: Partial<HulaOptions>;
  /** One string of card ids per seat. */
  hands: string[];
  /** Top of the stock first; when absent, every unused card in deck order. */
  stock?: string;
  /** Bottom first, the last one on top. */
  discard?: string;
  melds?: { owner: number; cards: string }[];
  registered?: boolean[];
  hadTurn?: boolean[];
  /** Whose draw phase it is (default seat 0), unless `phase` is given. */
  turn?: number;
  phase?: Phase;
  now?: number;
}

/** A state in the middle of round 1 with exactly these cards. Cards not placed anywhere form the stock. */
export function position(p: Position): HulaState {
  const mode = p.mode ?? 'monster';
  const n = p.hands.length;
  const base = hula.setup({
    seed: 'fixture',
    players: players(n),
    options: options({ mode, ...p.opts }),
    now: p.now ?? T0,
  });
  const hands = p.hands.map(cards);
  const discard = cards(p.discard ?? '');
  const meldList: Meld[] = (p.melds ?? []).map((m, i) => {
    const shape = meldShape(cards(m.cards));
    return { id: i + 1, owner: ids[m.owner], ...shape };
  });
  const used = new Set([...hands.flat(), ...discard, ...meldList.flatMap((m) => m.cards)].map((c) => c.id));
  const stock = p.stock !== undefined ? cards(p.stock) : DECKS[mode].filter((c) => !used.has(c.id));
  const turn = p.turn ?? 0;
  const now = p.now ?? T0;
  return {
    ...base,
    hands,
    discard,
    stock,
    stockTop: 0,
    melds: meldList,
    nextMeldId: meldList.length + 1,
    registered: p.registered ?? hands.map(() => false),
    hadTurn: p.hadTurn ?? hands.map((_, i) => i === turn),
    inRound: hands.map(() => true),
    phase: p.phase ?? { kind: 'draw', seat: turn, deadline: now + TIMERS[mode].drawMs },
    turnStartedAt: now,
  };
}

import { classifyMeld } from '../../src/games/hula/melds.ts';
function meldShape(list: Card[]) {
  const shape = classifyMeld(list);
  if (!shape) throw new Error(`not a meld: ${list.map((c) => c.id).join(' ')}`);
  return shape;
}

/** Applies and expects success. */
export function ok(
  s: HulaState,
  actor: string,
  action: unknown,
  now = T0 + 1000,
): { state: HulaState; events: GameEvent[] } {
  const r = hula.apply(s, actor, action, now);
  if (!r.ok) throw new Error(`rejected: ${r.reason} (${JSON.stringify(action)})`);
  return { state: r.state, events: r.events };
}

/** Expects a rejection that leaves the state untouched; returns the reason. */
export function no(s: HulaState, actor: string, action: unknown, now = T0 + 1000): string {
  const before = JSON.stringify(s);
  const r = hula.apply(s, actor, action, now);
  expect(r.ok).toBe(false);
  expect(JSON.stringify(s)).toBe(before);
  return r.ok ? '' : r.reason;
}

export function timeout(s: HulaState, now?: number): { state: HulaState; events: GameEvent[] } {
  const at = now ?? hula.deadline(s)!;
  const r = hula.onTimeout(s, at);
  if (!r.ok) throw new Error(`timeout rejected: ${r.reason}`);
  return { state: r.state, events: r.events };
}

export const handIds = (s: HulaState, seat: number): string[] => s.hands[seat].map((c) => c.id);
export const findEvent = (events: GameEvent[], type: string): GameEvent | undefined =>
  events.find((e) => e.type === type);

/** Deep-freezes a value (purity tests). */
export function deepFreeze<T>(x: T): T {
  if (x && typeof x === 'object' && !Object.isFrozen(x)) {
    Object.freeze(x);
    for (const v of Object.values(x)) deepFreeze(v);
  }
  return x;
}

/** The game played from `T0` replays from its record to the same result, step for step. */
export function expectReplays(
  s: HulaState,
  opts: HulaOptions,
  playerCount: number,
  seed: string,
  actions: RecordedStep[],
): void {
  const v = verifyRecord(hula, {
    game: 'hula',
    options: { ...opts },
    players: players(playerCount),
    startedAt: T0,
    seedCommit: s.seedCommit,
    rulesVersion: s.rulesVersion,
    seed,
    actions,
    result: hula.result(s),
  });
  expect(v.problems).toEqual([]);
  expect(v.steps).toBe(actions.length);
}
