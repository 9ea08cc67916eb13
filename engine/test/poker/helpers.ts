/**
 * Test helpers: start a table, act, and rig cards. Rigging swaps cards with
 * wherever they currently are, so the deck stays a permutation of itself and
 * the conservation invariants still hold in rigged states.
 */
import { expect } from 'vitest';
import { poker } from '../../src/games/poker/index.ts';
import { simPlayers } from '../../src/sim/runner.ts';
import type { Card, PokerAction, PokerState } from '../../src/games/poker/types.ts';
import type { PlayerId } from '../../src/core/types.ts';

export const T0 = 1_800_000_000_000;

/** A table under the current rules, or under `rulesVersion` to pin a test to an older version's rules. */
export function start(
  options: Record<string, unknown>,
  n = 4,
  seed = 'seed-1',
  now = T0,
  rulesVersion?: number,
): PokerState {
  return poker.setup({ seed, players: simPlayers(n), options: poker.optionsSchema.parse(options), now, rulesVersion });
}

/** Current hand's players from the dealer's next seat (the dealer is last). */
export function order(s: PokerState): PlayerId[] {
  return s.hand!.seatOrder;
}

export function act(
  s: PokerState,
  actor: PlayerId,
  action: PokerAction | Record<string, unknown>,
  now = T0 + 1000,
): PokerState {
  const r = poker.apply(s, actor, action, now);
  if (!r.ok) throw new Error(`rejected ${actor} ${JSON.stringify(action)}: ${r.reason}`);
  return r.state;
}

export function actEv(s: PokerState, actor: PlayerId, action: PokerAction, now = T0 + 1000) {
  const r = poker.apply(s, actor, action, now);
  if (!r.ok) throw new Error(`rejected ${actor} ${JSON.stringify(action)}: ${r.reason}`);
  return r;
}

/** Expects a rejection and returns its reason; also checks the state was left untouched. */
export function rej(s: PokerState, actor: PlayerId, action: unknown): string {
  const before = JSON.stringify(s);
  const r = poker.apply(s, actor, action, T0 + 1000);
  expect(r.ok).toBe(false);
  expect(JSON.stringify(s)).toBe(before);
  return r.ok ? '' : r.reason;
}

export function timeout(s: PokerState): PokerState {
  const due = poker.deadline(s);
  if (due === null) throw new Error('no deadline');
  const r = poker.onTimeout(s, due);
  if (!r.ok) throw new Error(r.reason);
  return r.state;
}

export function pot(s: PokerState): number {
  const h = s.hand!;
  return h.pots.reduce((t, p) => t + p.amount, 0) + h.seatOrder.reduce((t, id) => t + h.players[id].committedRound, 0);
}

export function stack(s: PokerState, id: PlayerId): number {
  return s.seats.find((x) => x.id === id)!.stack;
}

const RANKS: Record<string, number> = { T: 10, J: 11, Q: 12, K: 13, A: 14 };

function spec(t: string): { rank: number; suit: string } {
  const m = /^(10|[2-9TJQKA])([shdc])$/i.exec(t)!;
  return { rank: m[1] === '10' ? 10 : (RANKS[m[1].toUpperCase()] ?? Number(m[1])), suit: m[2].toUpperCase() };
}

type Slot = { arr: Card[]; i: number } | { obj: { forehead: Card | null }; key: 'forehead' };

function locations(s: PokerState): Slot[] {
  const out: Slot[] = [];
  const h = s.hand!;
  const push = (arr: Card[] | null | undefined) => arr?.forEach((_, i) => out.push({ arr, i }));
  push(h.deck);
  push(h.muck);
  push(h.board);
  push(s.indianDeck);
  push(s.indianUsed);
  for (const id of h.seatOrder) {
    const p = h.players[id];
    push(p.hole);
    push(p.up);
    push(p.choice);
    if (p.forehead) out.push({ obj: p, key: 'forehead' });
  }
  return out;
}

const get = (l: Slot): Card => ('arr' in l ? l.arr[l.i] : l.obj.forehead!);
const set = (l: Slot, c: Card): void => {
  if ('arr' in l) l.arr[l.i] = c;
  else l.obj.forehead = c;
};

function matches(c: Card, t: string): boolean {
  const w = spec(t);
  return c.suit === w.suit && (c.rank === w.rank || (w.rank === 14 && c.rank === 1));
}

/** Puts the named cards ("As Kd …") into the target slots by swapping them with their current places. */
function place(s: PokerState, targets: Slot[], cards: string): void {
  const names = cards.trim().split(/\s+/);
  names.forEach((name, k) => {
    const all = locations(s);
    const from = all.find((l) => matches(get(l), name));
    if (!from) throw new Error(`card ${name} not found`);
    const to = targets[k];
    const a = get(to);
    const b = get(from);
    set(to, b);
    set(from, a);
  });
}

export interface Rig {
  hole?: Record<PlayerId, string>;
  choice?: Record<PlayerId, string>;
  up?: Record<PlayerId, string>;
  forehead?: Record<PlayerId, string>;
  /** Cards that will come off the top of the deck next, in order (the indian deck in indian mode). */
  deck?: string;
}

export function rig(state: PokerState, r: Rig): PokerState {
  const s = structuredClone(state);
  const h = s.hand!;
  for (const [field, map] of [
    ['hole', r.hole],
    ['choice', r.choice],
    ['up', r.up],
  ] as const) {
    for (const [id, cards] of Object.entries(map ?? {})) {
      const arr = h.players[id][field] as Card[];
      place(
        s,
        arr.map((_, i) => ({ arr, i })),
        cards,
      );
    }
  }
  for (const [id, card] of Object.entries(r.forehead ?? {})) place(s, [{ obj: h.players[id], key: 'forehead' }], card);
  if (r.deck) {
    const deck = s.options.mode === 'indian' ? s.indianDeck! : h.deck;
    const n = r.deck.trim().split(/\s+/).length;
    place(
      s,
      Array.from({ length: n }, (_, i) => ({ arr: deck, i })),
      r.deck,
    );
  }
  return s;
}

export function viewOf(s: PokerState, viewer: PlayerId | null) {
  return poker.view(s, viewer);
}

export function legalTypes(s: PokerState, viewer: PlayerId): string[] {
  return poker.view(s, viewer).legalActions.map((a) => a.type);
}

export function legal(s: PokerState, viewer: PlayerId, type: string): any {
  return poker.view(s, viewer).legalActions.find((a) => a.type === type);
}

/** Plays every pending action of the hand-end pause. */
export function readyAll(s: PokerState): PokerState {
  let st = s;
  const handNo = st.hand!.handNo;
  for (const id of st.hand!.seatOrder) {
    const h = st.hand!;
    if (st.phase !== 'playing' || h.handNo !== handNo || h.phase !== 'handEnd') break;
    if (!h.players[id].ready) st = act(st, id, { type: 'ready' });
  }
  return st;
}

/** Changes stacks for a scenario, moving the difference to/from `bank` so the chip total is unchanged. */
export function setStacks(state: PokerState, stacks: Record<PlayerId, number>, bank: PlayerId): PokerState {
  const s = structuredClone(state);
  for (const [id, v] of Object.entries(stacks)) {
    const seat = s.seats.find((x) => x.id === id)!;
    const b = s.seats.find((x) => x.id === bank)!;
    b.stack += seat.stack - v;
    seat.stack = v;
  }
  return s;
}

/** Everyone checks until the hand leaves its betting phase. */
export function checkDown(state: PokerState): PokerState {
  let s = state;
  while (s.phase === 'playing' && s.hand!.phase === 'betting') {
    const id = s.hand!.betting!.toAct!;
    s = act(s, id, { type: s.betting === 'korean' ? 'k.check' : 'nl.check' });
  }
  return s;
}

export interface SevenPlan {
  /** Four choice cards: the first is discarded, the second opened. */
  choice: string;
  /** 4th, 5th, 6th (face up) and 7th (down) street cards. */
  streets: string;
}

/** Rigs a 7-poker hand (players in `order`), makes every choice and returns at the first betting round. */
export function rigSeven(state: PokerState, plans: Record<PlayerId, SevenPlan>): PokerState {
  const ids = order(state);
  const streets = ids.map((id) => plans[id].streets.trim().split(/\s+/));
  const deck: string[] = [];
  for (let k = 0; k < 4; k++) for (const st of streets) deck.push(st[k]);
  let s = rig(state, {
    choice: Object.fromEntries(ids.map((id) => [id, plans[id].choice])),
    deck: deck.join(' '),
  });
  for (const id of ids) {
    const cards = s.hand!.players[id].choice!;
    s = act(s, id, { type: 'choose', discardId: cards[0].id, openId: cards[1].id });
  }
  return s;
}

/** Everyone checks until the current betting round (street) is over. */
export function checkRound(state: PokerState): PokerState {
  let s = state;
  const { handNo, street } = s.hand!;
  while (
    s.phase === 'playing' &&
    s.hand!.handNo === handNo &&
    s.hand!.phase === 'betting' &&
    s.hand!.street === street
  ) {
    const id = s.hand!.betting!.toAct!;
    s = act(s, id, { type: s.betting === 'korean' ? 'k.check' : 'nl.check' });
  }
  return s;
}

/** The player to act folds until one is left (then the hand ends). */
export function foldOut(state: PokerState): PokerState {
  let s = state;
  const handNo = s.hand!.handNo;
  while (s.phase === 'playing' && s.hand!.handNo === handNo && s.hand!.phase !== 'handEnd') {
    const h = s.hand!;
    if (h.phase === 'betting') s = act(s, h.betting!.toAct!, { type: s.betting === 'korean' ? 'k.die' : 'nl.fold' });
    else s = timeout(s);
  }
  return s;
}
