/** Rules of docs/games/hula.md not already covered item by item in the §10 checklist; titles name the section. */
import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/core/rng.ts';
import { hula, substituteAction, substituteDue } from '../../src/games/hula/index.ts';
import { REASONS } from '../../src/games/hula/hand.ts';
import { classifyMeld, layOffOnto } from '../../src/games/hula/melds.ts';
import { settle, type Contestant } from '../../src/games/hula/scoring.ts';
import { DECKS } from '../../src/games/hula/setup.ts';
import type { HulaState, Meld } from '../../src/games/hula/types.ts';
import { T0, cards, findEvent, ids, no, ok, options, players, position, timeout } from './helpers.ts';

const act = (seat: number, via: 'stock' | 'thankYou' = 'stock', from: number | null = null) =>
  ({ kind: 'act', seat, deadline: T0 + 15_000, via, thankYouFrom: from }) as const;
const meld = (list: string, owner = 'p2', id = 1): Meld => ({ id, owner, ...classifyMeld(cards(list))! });
const who = (hands: string[]): Contestant[] =>
  hands.map((h, i) => ({ seat: i, id: ids[i], hand: cards(h), registered: true, hadTurn: true }));
const noBonus = { owner: null, multiplier: 1, streak: 0 };

describe('§4 setup', () => {
  it('§4 — a joker met as the start card goes to the bottom of the stock and the next card is turned up', () => {
    let found = 0;
    for (let i = 0; i < 400 && found < 3; i++) {
      const seed = `deal${i}`;
      const rng = Rng.fromSeed(seed, 'hula');
      rng.int(3);
      const deck = rng.shuffle([...DECKS.joker]);
      if (deck[21].suit !== 'X') continue;
      found++;
      const s = hula.setup({ seed, players: players(3), options: options({ mode: 'joker' }), now: T0 });
      const firstNatural = deck.slice(21).find((c) => c.suit !== 'X')!;
      expect(s.discard[0]).toBe(firstNatural);
      expect(s.stock.at(-1)!.suit).toBe('X');
      expect(s.stock).toHaveLength(54 - 21 - 1);
    }
    expect(found).toBeGreaterThan(0);
  });

  it('§4 — from the second round the last winner leads; if they left, the next seat clockwise', () => {
    let s = position({ hands: ['C1 C2 C3', 'H5 D5 C5', 'D2 D3 D4'], turn: 1, phase: act(1), opts: { rounds: 3 } });
    s = { ...s, seats: s.seats.map((x, i) => (i === 1 ? { ...x, leave: 'requested' as const } : x)) };
    s = ok(s, 'p2', { type: 'meld', cardIds: ['H5', 'D5', 'C5'] }).state;
    const r = timeout(s);
    expect(findEvent(r.events, 'roundStart')).toMatchObject({ first: 'p3', players: ['p1', 'p3'] });
  });
});

describe('§5.1 turns', () => {
  it('§5.1 — a card taken from the discard pile need not be used and may be thrown back', () => {
    const s = position({ hands: ['S2 S4 S6 S8 S10 S12 C1', 'C3 C5'], discard: 'H9' });
    const t = ok(s, 'p1', { type: 'draw', from: 'discard' }).state;
    const r = ok(t, 'p1', { type: 'discard', cardId: 'H9' });
    expect(r.state.discard.at(-1)!.id).toBe('H9');
  });
});

describe('§5.2 melds and lay-offs', () => {
  it('§5.2 — runs are cyclic and at most 13 long; a 12-card run takes its missing rank at the end chosen', () => {
    const twelve = meld('S1 S2 S3 S4 S5 S6 S7 S8 S9 S10 S11 S12');
    expect(twelve.rank).toBe(1);
    const high = layOffOnto(twelve, cards('S13')[0])!;
    expect(high.cards.at(-1)!.id).toBe('S13');
    const low = layOffOnto(twelve, cards('S13')[0], 'low')!;
    expect([low.rank, low.cards[0].id]).toEqual([13, 'S13']);
    expect(layOffOnto(high, cards('X1')[0])).toBeNull();
    expect(classifyMeld(cards('S11 S12 S13 S1 S2 S3'))).toMatchObject({ kind: 'run', rank: 11 });
    expect(classifyMeld(cards('S1 S3 S5'))).toBeNull();
  });

  it('§5.2 — sets hold at most four distinct suits', () => {
    const four = meld('S9 H9 D9 C9');
    expect(layOffOnto(four, cards('X1')[0])).toBeNull();
    expect(layOffOnto(meld('S9 H9 D9'), cards('S9')[0])).toBeNull();
    expect(classifyMeld(cards('S9 S9 H9'))).toBeNull();
  });

  it('§5.2 — several cards lay off in order; without meldId the first meld taking them all is used', () => {
    const s = position({
      hands: ['D7 D8 C2', 'C3 C4'],
      melds: [
        { owner: 1, cards: 'S4 S5 S6' },
        { owner: 1, cards: 'D4 D5 D6' },
      ],
      registered: [true, true],
      phase: act(0),
    });
    const r = ok(s, 'p1', { type: 'layOff', cardIds: ['D7', 'D8'] });
    expect(r.state.melds[1].cards.map((c) => c.id)).toEqual(['D4', 'D5', 'D6', 'D7', 'D8']);
    expect(findEvent(r.events, 'laidOff')).toMatchObject({ player: 'p1', meldId: 2 });
    expect(no(s, 'p1', { type: 'layOff', cardIds: ['D8', 'D7'], meldId: 2 })).toBe('그 자리에는 붙일 수 없어요');
  });
});

describe('§5.3 jokers', () => {
  it('§5.3 — a group that could be a set or a run is a set; jokers alone are no meld; a joker on a lone 7 makes a set of 7s', () => {
    expect(classifyMeld(cards('X1 X2 S5'))).toMatchObject({ kind: 'set', rank: 5 });
    expect(classifyMeld(cards('X1 X2'))).toBeNull();
    expect(classifyMeld(cards('X1'))).toBeNull();
    expect(layOffOnto(meld('S7'), cards('X1')[0])).toMatchObject({ kind: 'set', rank: 7 });
    expect(classifyMeld(cards('X1 S12 S13'))).toMatchObject({ kind: 'run', rank: 12, cards: cards('S12 S13 X1') });
  });
});

describe('§5.4 땡큐', () => {
  it('§5.4 — 땡큐 may use three hand cards (a four-card set); laying the discard off or using one card is not a 땡큐', () => {
    const s = position({
      hands: ['S2 S4 S6 S8 S10 S12 D7', 'H7 C7 S7 C1', 'D8 C2'],
      melds: [{ owner: 2, cards: 'D4 D5 D6' }],
      registered: [false, false, true],
      phase: act(0),
    });
    const asked = ok(s, 'p1', { type: 'discard', cardId: 'D7' }).state;
    const four = ok(asked, 'p2', { type: 'thankYou', cardIds: ['H7', 'C7', 'S7'] }).state;
    expect(four.melds.at(-1)).toMatchObject({ kind: 'set', rank: 7 });
    expect(four.melds.at(-1)!.cards).toHaveLength(4);
    const third = ok(asked, 'p2', { type: 'pass' }).state;
    expect(no(third, 'p3', { type: 'thankYou', cardIds: ['D8'] })).toBe(REASONS.badThankYou);
    expect(no(third, 'p3', { type: 'thankYou', cardIds: ['D8', 'C2'] })).toBe(REASONS.badThankYou);
  });

  it('§5.4 — going out later in the act phase a 땡큐 started is still a 땡큐 훌라 (땡큐박)', () => {
    const s = position({ hands: ['C2 C4', 'H5 D5 C5 S9'], phase: act(1, 'thankYou', 0), turn: 1 });
    const done = ok(ok(s, 'p2', { type: 'meld', cardIds: ['H5', 'D5', 'C5'] }).state, 'p2', {
      type: 'discard',
      cardId: 'S9',
    }).state;
    expect(done.lastRound).toMatchObject({ winner: 'p2', byThankYou: true, thankYouFrom: 'p1' });
  });

  it('§5.4.1 — in a two-player game only the opponent is asked; a player not being asked cannot pass', () => {
    const s = position({ hands: ['S2 S4 S6 H9', 'C3 C5'], phase: act(0) });
    const asked = ok(s, 'p1', { type: 'discard', cardId: 'H9' }).state;
    expect(hula.view(asked, null).phase).toMatchObject({ order: ['p2'] });
    const three = position({ hands: ['S2 S4 S6 H9', 'C3 C5', 'D3 D5'], phase: act(0) });
    const a3 = ok(three, 'p1', { type: 'discard', cardId: 'H9' }).state;
    expect(no(a3, 'p3', { type: 'pass' })).toBe('아직 내 땡큐 차례가 아니에요');
  });

  const raceBase = () =>
    position({
      mode: 'joker',
      hands: ['S2 S4 S6 S8 H9', 'C3 D5 D7', 'H10 H11 D2', 'S9 D9 H2'],
      phase: act(0),
    });

  it('§5.4.2 — when everyone but the discarder has passed the race ends at once', () => {
    const race = ok(raceBase(), 'p1', { type: 'discard', cardId: 'H9' }).state;
    let t = ok(race, 'p2', { type: 'pass' }).state;
    t = ok(t, 'p3', { type: 'pass' }).state;
    expect(no(t, 'p3', { type: 'pass' })).toBe('이미 패스했어요');
    expect(no(t, 'p3', { type: 'thankYou', cardIds: ['H10', 'H11'] })).toBe('이미 패스했어요');
    t = ok(t, 'p4', { type: 'pass' }).state;
    expect(t.phase).toMatchObject({ kind: 'draw', seat: 1 });
  });

  it('§5.4.2 — when everyone has claimed or passed the window is decided at once, nearest seat first', () => {
    const race = ok(raceBase(), 'p1', { type: 'discard', cardId: 'H9' }, T0 + 1000).state;
    let t = ok(race, 'p4', { type: 'thankYou', cardIds: ['S9', 'D9'] }, T0 + 1010).state;
    expect(no(t, 'p4', { type: 'thankYou', cardIds: ['S9', 'D9'] }, T0 + 1020)).toBe('이미 땡큐를 신청했어요');
    t = ok(t, 'p2', { type: 'pass' }, T0 + 1020).state;
    const r = ok(t, 'p3', { type: 'thankYou', cardIds: ['H10', 'H11'] }, T0 + 1050);
    expect(findEvent(r.events, 'thankYou')).toMatchObject({ player: 'p3' });
    expect(r.state.phase).toMatchObject({ kind: 'act', seat: 2 });
  });

  it('§5.4.2 — the window is 100 ms from the first claim, end excluded; claimants are public, their cards are not', () => {
    const race = ok(raceBase(), 'p1', { type: 'discard', cardId: 'H9' }, T0 + 1000).state;
    const claimed = ok(race, 'p4', { type: 'thankYou', cardIds: ['S9', 'D9'] }, T0 + 2000).state;
    const v = hula.view(claimed, 'p2');
    expect(v.phase).toMatchObject({ kind: 'thankYouRace', claimants: ['p4'] });
    expect(JSON.stringify(v)).not.toContain('S9');
    expect(no(claimed, 'p3', { type: 'thankYou', cardIds: ['H10', 'H11'] }, T0 + 2100)).toBe('지금은 땡큐할 수 없어요');
    const inTime = ok(claimed, 'p3', { type: 'thankYou', cardIds: ['H10', 'H11'] }, T0 + 2099).state;
    expect(timeout(inTime).state.phase).toMatchObject({ seat: 2 });
  });

  it('§5.4.2 — in 조커 mode one card left after 땡큐 is prompted, not thrown automatically', () => {
    const s = position({ mode: 'joker', hands: ['S2 S4 S6 H9', 'H10 H11 C3', 'D2 D4'], phase: act(0) });
    const race = ok(s, 'p1', { type: 'discard', cardId: 'H9' }).state;
    const t = ok(ok(race, 'p2', { type: 'thankYou', cardIds: ['H10', 'H11'] }).state, 'p3', { type: 'pass' }).state;
    expect(t.phase).toMatchObject({ kind: 'act', seat: 1, via: 'thankYou' });
    expect(hula.view(t, 'p2').me!.discardPrompt).toBe('C3');
  });

  it('§5.4.2 — a discarded joker (only jokers in hand) skips the race', () => {
    const s = position({ mode: 'joker', hands: ['X1 X2', 'C3 C5', 'D3 D5'], phase: act(0) });
    const r = ok(s, 'p1', { type: 'discard', cardId: 'X1' });
    expect(r.state.phase).toMatchObject({ kind: 'draw', seat: 1 });
  });
});

describe('§5.5 stop', () => {
  it('§5.5 — a stopper holding a joker is behind every joker-free hand, so the stop fails', () => {
    const s = position({
      mode: 'joker',
      hands: ['X1 H1', 'C9 C10', 'D13 D12', 'S13 S12 S11'],
      registered: [true, true, true, true],
      hadTurn: [true, true, true, true],
    });
    const done = ok(s, 'p1', { type: 'stop' }).state;
    expect(done.lastRound).toMatchObject({ winner: 'p2', stopFailed: true });
    const p1 = done.lastRound!.lines.find((l) => l.player === 'p1')!;
    // 21 points is within the 4-player limit, but the joker puts p1 last (×3), and p1 alone pays 1.5× the lot.
    expect(p1).toMatchObject({ rank: 4, due: 300 * 3, delta: -1.5 * (100 + 200 + 900) });
  });
});

describe('§5.6 special wins', () => {
  it('§5.6 — may be declared after drawing (8 cards) but only on one’s own turn', () => {
    const s = position({ hands: ['S13 H13 D13 C13 S12 H12 D2', 'C3 C4'], stock: 'D12 S1' });
    expect(no(s, 'p1', { type: 'special' })).toBe('대카·소카·7777 조건이 아니에요');
    const drawn = ok(s, 'p1', { type: 'draw', from: 'stock' }).state;
    expect(hula.view(drawn, 'p1').me!.special).toBe('daeka');
    expect(no(drawn, 'p2', { type: 'special' })).toBe('특수 승리는 내 차례에만 선언할 수 있어요');
    expect(ok(drawn, 'p1', { type: 'special' }).state.lastRound).toMatchObject({
      winType: 'special',
      special: 'daeka',
    });
  });
});

describe('§5.7 end of round', () => {
  it('§5.7 — deck exhaustion ties go to fewer cards, then the seat nearest clockwise from the player who would have drawn', () => {
    const st = settle(who(['C4 C5', 'H9', 'D9', 'S2 S3 S4']), { type: 'exhaustion', seat: 3 }, options(), noBonus, 4);
    expect(st.summary.winner).toBe('p2');
    const tied = settle(who(['C4 C5', 'H9', 'D9', 'S4 S5']), { type: 'exhaustion', seat: 2 }, options(), noBonus, 4);
    expect(tied.summary.winner).toBe('p3');
  });
});

describe('§6 settlement', () => {
  it('§6.2-4 — deck exhaustion: tied losers are ordered from the player whose turn was next, not from the winner', () => {
    // p4 wins with the lowest hand; p1 and p2 tie (9 points, 2 cards); p2 would have drawn next (seat 1).
    const st = settle(who(['C4 C5', 'S4 S5', 'D13', 'H1']), { type: 'exhaustion', seat: 1 }, options(), noBonus, 4);
    expect(st.summary.winner).toBe('p4');
    const lines = st.summary.lines;
    expect(lines.map((l) => l.player)).toEqual(['p4', 'p2', 'p1', 'p3']);
    // From the winner's seat p1 would have come first and paid 100; from the next player's seat p2 pays 100, p1 200.
    expect(lines.find((l) => l.player === 'p2')!.due).toBe(100);
    expect(lines.find((l) => l.player === 'p1')!.due).toBe(200);
  });

  it('§6.2 — tied losers: fewer cards first, then nearer clockwise from the winner', () => {
    const st = settle(who(['H1', 'C2 C3', 'D5', 'S2 S3']), { type: 'hula', seat: 0 }, options(), noBonus, 4);
    expect(st.summary.lines.map((l) => l.player)).toEqual(['p1', 'p3', 'p2', 'p4']);
  });

  it('§6.5 — the fee is rounded down', () => {
    const st = settle(
      who(['H1', 'C2 C3', 'C4 C5 C6']),
      { type: 'hula', seat: 0 },
      options({ baseUnit: 10 }),
      noBonus,
      3,
    );
    expect(st.summary.gross).toBe(80);
    expect(st.summary.fee).toBe(4);
    const odd = settle(
      who(['H1', 'C2 C3', 'C4 C5 C6']),
      { type: 'stop', seat: 1 },
      options({ baseUnit: 10 }),
      noBonus,
      3,
    );
    expect(odd.summary.gross).toBe(60);
    expect(odd.summary.fee).toBe(3);
    const frac = settle(
      who(['H1', 'S7', 'C8 C9', 'D13 D12']),
      { type: 'stop', seat: 0 },
      options({ baseUnit: 10 }),
      noBonus,
      4,
    );
    expect(frac.summary.gross).toBe(10 * 2 + 20 + 30);
    expect(frac.summary.fee).toBe(3); // 5% of 70 is 3.5
    expect(frac.deltas.get(0)).toBe(67);
  });

  it('§6.6 — the 배판 multiplier applies to every loser’s amount', () => {
    const st = settle(
      who(['H1', 'C2', 'C3', 'C4']),
      { type: 'hula', seat: 0 },
      options(),
      { owner: 'p1', multiplier: 3, streak: 2 },
      4,
    );
    expect(st.summary.lines.slice(1).map((l) => l.due)).toEqual([600, 1200, 1800]);
  });
});

describe('§8 engine', () => {
  it('§8.2 — every rejection reason is Korean', () => {
    for (const r of Object.values(REASONS)) expect(typeof r === 'function' ? r(15, 16) : r).toMatch(/[가-힣]/);
  });

  it('§8.2 — reserveLeave is accepted in any phase, even past a deadline', () => {
    const s = position({ hands: ['H5 D5 C5', 'C1 C2'] });
    ok(s, 'p2', { type: 'reserveLeave', on: true }, T0 + 59_999);
    ok(s, 'p2', { type: 'reserveLeave', on: true }, T0 + 90_000);
  });

  it('§8.3 — views carry counts for the stock and other hands, the own hand only, and settlement hands only between rounds', () => {
    const s = position({ hands: ['H5 D5 C5', 'C1 C2 C3 C4'], phase: act(0) });
    const v = hula.view(s, 'p1');
    expect(v.hand!.map((c) => c.id)).toEqual(['H5', 'D5', 'C5']);
    expect(v.seats[1].handCount).toBe(4);
    expect(v.stockCount).toBe(s.stock.length);
    expect(JSON.stringify(v)).not.toContain('C4');
    expect(hula.view(s, null).hand).toBeNull();
    expect(v.lastRound).toBeNull();
    const done = ok(s, 'p1', { type: 'meld', cardIds: ['H5', 'D5', 'C5'] }).state;
    expect(JSON.stringify(hula.view(done, null).lastRound)).toContain('C4');
  });

  it('§8.3 — eventView names a drawn card to its drawer only', () => {
    const e = { type: 'drew', player: 'p1', from: 'stock', card: cards('S5')[0] };
    expect(hula.eventView(e, 'p1')).toEqual(e);
    expect(hula.eventView(e, 'p2')).toEqual({ type: 'drew', player: 'p1', from: 'stock' });
    expect(hula.eventView({ ...e, from: 'discard' }, null)).toEqual({ type: 'drew', player: 'p1', from: 'discard' });
    expect(hula.eventView({ type: 'melded', player: 'p1' }, 'p2')).toEqual({ type: 'melded', player: 'p1' });
  });

  it('§8.5 — deadline() is the earliest of phase deadline + grace, the race window end, and the watchdog', () => {
    const s = position({ hands: ['H5 D5 C5', 'C1 C2'] });
    expect(hula.deadline(s)).toBe(T0 + 15_500);
    const slow = { ...s, phase: { ...s.phase, deadline: T0 + 70_000 } } as HulaState;
    expect(hula.deadline(slow)).toBe(T0 + 60_000);
    const race: HulaState = {
      ...s,
      phase: {
        kind: 'thankYouRace',
        discarder: 0,
        deadline: T0 + 7000,
        claims: [{ seat: 1, cardIds: [], at: T0 + 10 }],
        windowEnd: T0 + 110,
        passed: [],
      },
    };
    expect(hula.deadline(race)).toBe(T0 + 110);
    expect(hula.deadline({ ...s, phase: { kind: 'finished' } })).toBeNull();
  });

  it('§8.6 — the substitute readies a disconnected player on the result screen and ignores players who left', () => {
    const s = position({ hands: ['H5 D5 C5', 'C1 C2'], phase: act(0), opts: { rounds: 3 } });
    const end = ok(s, 'p1', { type: 'meld', cardIds: ['H5', 'D5', 'C5'] }).state;
    expect(substituteAction(end, 'p2', T0 + 1000)).toEqual({ type: 'ready', substitute: true });
    const left = { ...end, seats: end.seats.map((x, i) => (i === 1 ? { ...x, status: 'left' as const } : x)) };
    expect(substituteDue(left, 'p2')).toBeNull();
    expect(substituteDue(end, 'nobody')).toBeNull();
  });

  it('§8.8 — equal room points share a rank in the result', () => {
    const s = position({ hands: ['H5 D5 C5', 'C1 C2', 'C3 C4'] });
    const over: HulaState = {
      ...s,
      phase: { kind: 'finished' },
      seats: s.seats.map((x, i) => ({ ...x, points: [100, -50, -50][i] })),
    };
    const res = hula.result(over)!;
    expect(res.ranking.map((r) => [r.player, r.rank, r.points])).toEqual([
      ['p1', 1, 100],
      ['p2', 2, -50],
      ['p3', 2, -50],
    ]);
    expect(res.winners).toEqual(['p1']);
    expect(hula.result(s)).toBeNull();
  });
});
