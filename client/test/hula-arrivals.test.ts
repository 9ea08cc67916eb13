/**
 * Which cards slide onto the 훌라 table and from where (issue 16 §4), from
 * real engine events: 등록 from the registering hand, 붙이기 from the hand
 * of whoever lays off (even onto another player's meld), 땡큐 from the
 * claimer's hand except the claimed card, which leaves the discard pile.
 * Plus the shared motion helpers' bookkeeping (MotionLog, Flights).
 */
import { describe, expect, it } from 'vitest';
import type { GameEvent } from '@joke/engine/client';
import { arrivalStart, arrivals, type Arrival } from '../src/games/hula/arrivals.ts';
import type { Card, Meld } from '../src/games/hula/model.ts';
import { Flights, MotionLog } from '../src/table-kit/motion.ts';

const c = (id: string, suit: Card['suit'], rank: number) => ({ id, suit, rank }) as Card;
const meld = (id: number, owner: string, cards: Card[]): Meld =>
  ({ id, owner, kind: 'set', cards, rank: cards[0].rank, suit: null }) as Meld;

describe('arrivals', () => {
  it('a registered meld: every card from the owner, none from the pile', () => {
    const m = meld(1, 'a', [c('S7', 'S', 7), c('H7', 'H', 7), c('D7', 'D', 7)]);
    const out = arrivals([{ type: 'melded', player: 'a', meld: m }], 'C9');
    expect(out).toEqual(['S7', 'H7', 'D7'].map((card) => ({ card, meld: 1, by: 'a', kind: 'meld', fromPile: false })));
  });

  it('a lay-off onto someone else’s meld comes from the player who laid it off', () => {
    const grown = meld(4, 'b', [c('S7', 'S', 7), c('H7', 'H', 7), c('D7', 'D', 7), c('C7', 'C', 7)]);
    const e: GameEvent = { type: 'laidOff', player: 'a', meldId: 4, cards: [c('C7', 'C', 7)], meld: grown };
    expect(arrivals([e], null)).toEqual([{ card: 'C7', meld: 4, by: 'a', kind: 'layOff', fromPile: false }]);
  });

  it('땡큐: the claimed card (the pile top before the frame) comes off the pile, the rest from the claimer', () => {
    const m = meld(2, 'b', [c('S9', 'S', 9), c('H9', 'H', 9), c('C9', 'C', 9)]);
    const out = arrivals(
      [
        { type: 'thankYouClaimed', player: 'b' },
        { type: 'thankYou', player: 'b', from: 'a', meld: m },
      ],
      'C9',
    );
    expect(out.filter((a) => a.fromPile).map((a) => a.card)).toEqual(['C9']);
    expect(out.filter((a) => !a.fromPile).map((a) => a.card)).toEqual(['S9', 'H9']);
    expect(out.every((a) => a.by === 'b' && a.kind === 'thankYou')).toBe(true);
  });

  it('nothing else arrives: draws, discards, passes', () => {
    const events: GameEvent[] = [
      { type: 'drew', player: 'a', from: 'stock' },
      { type: 'discarded', player: 'a', card: c('S2', 'S', 2) },
      { type: 'thankYouPass', player: 'b' },
    ];
    expect(arrivals(events, 'S2')).toEqual([]);
  });
});

describe('arrivalStart', () => {
  const places = {
    viewer: 'me',
    layout: {
      discard: { x: 200, y: 150, w: 50, h: 70 },
      hand: { area: { x: 10, y: 500, w: 300, h: 90 } },
    } as never,
    handWas: new Map([['S7', { x: 40, y: 510, w: 20, h: 70 }]]),
    seats: new Map([['b', { x: 300, y: 60 }]]),
  };
  const size = { cardW: 30, cardH: 42 };
  const a = (over: Partial<Arrival>): Arrival => ({
    card: 'S7',
    meld: 1,
    by: 'me',
    kind: 'meld',
    fromPile: false,
    ...over,
  });

  it('my card starts at its own slot in my hand; one not drawn there starts mid-hand', () => {
    expect(arrivalStart(a({}), places, size)).toEqual({ x: 40, y: 510 });
    expect(arrivalStart(a({ card: 'H7' }), places, size)).toEqual({ x: 145, y: 500 });
  });

  it('another player’s card starts centred on their avatar; the claimed card on the pile', () => {
    expect(arrivalStart(a({ by: 'b' }), places, size)).toEqual({ x: 285, y: 39 });
    // Their card with the same id as one I once held still comes from their seat.
    expect(arrivalStart(a({ by: 'b', card: 'S7' }), places, size)).toEqual({ x: 285, y: 39 });
    expect(arrivalStart(a({ by: 'b', fromPile: true }), places, size)).toEqual({ x: 200, y: 150 });
    expect(arrivalStart(a({ by: 'gone' }), places, size)).toBeNull();
  });
});

describe('shared motion bookkeeping', () => {
  it('MotionLog records every move, animated or not, and keeps only the newest', () => {
    const log = new MotionLog<{ n: number }>(3);
    [1, 2, 3, 4].forEach((n) => log.record({ n }, n % 2 ? 300 : 0));
    expect(log.entries).toEqual([
      { n: 2, animated: false },
      { n: 3, animated: true },
      { n: 4, animated: false },
    ]);
  });

  it('Flights: a flight lasts its length on the injected clock, then it is over', () => {
    let now = 1000;
    const f = new Flights(() => now);
    // No window here: motion is on by default (no prefers-reduced-motion to follow).
    expect(f.begin('S7', { x: 0, y: 0 }, 250)).toBe(250);
    expect(f.flying('S7')).toBe(true);
    expect(f.count()).toBe(1);
    now += 249;
    expect(f.flying('S7')).toBe(true);
    now += 1;
    expect(f.flying('S7')).toBe(false);
    expect(f.count()).toBe(0);
    // Never longer than the §9 cap of 300 ms.
    expect(f.begin('H7', { x: 0, y: 0 }, 900)).toBe(300);
  });
});
