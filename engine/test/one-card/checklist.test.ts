/** Every item of the spec's §10 checklist, one test each. */
import { describe, expect, it } from 'vitest';
import { oneCard } from '../../src/games/one-card/index.ts';
import { oneCardSim } from '../../src/games/one-card/sim.ts';
import { result } from '../../src/games/one-card/scoring.ts';
import { findLeaks, hiddenSet } from '../../src/sim/secrecy.ts';
import { Rng } from '../../src/core/index.ts';
import { act, codeOf, fresh, hand, idOf, NOW, ok, play, rejects, rig } from './helpers.ts';

describe('§10 checklist', () => {
  it('§10 — setup: the same seed deals the same hands and start card; special start cards go to the bottom', () => {
    const a = fresh({}, 4, 'same');
    const b = fresh({}, 4, 'same');
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(JSON.stringify(fresh({}, 4, 'other').hands)).not.toBe(JSON.stringify(a.hands));
    let sawSpecialMoved = 0;
    for (let i = 0; i < 200; i++) {
      const s = fresh({}, 4, `start-${i}`);
      const start = s.discard[0];
      expect(start.kind).toBe('std');
      if (start.kind === 'std') expect([4, 5, 6, 8, 9, 10]).toContain(start.rank);
      // Everything flipped before the start card sits, in order, at the bottom of the pile.
      const tail = s.drawPile.slice(s.drawPile.length - 10);
      const moved = tail.filter(
        (c) => c.kind === 'joker' || [1, 2, 3, 7, 11, 12, 13].includes(c.kind === 'std' ? c.rank : 0),
      );
      if (s.drawPile.length === 54 - 28 - 1 && moved.length > 0 && tail[tail.length - 1] === moved[moved.length - 1])
        sawSpecialMoved++;
    }
    expect(sawSpecialMoved).toBeGreaterThan(20);
  });

  it('§10 — ♥2 countered with ♥A makes 5; the next player draws exactly 5 and the turn ends', () => {
    const s0 = rig({}, 3, {
      hands: { p1: ['H2', 'C9'], p2: ['HA', 'D9'], p3: ['S4', 'S5'] },
      discard: ['H8'],
      current: 'p1',
    });
    const s1 = ok(play(s0, 'p1', ['H2'])).state;
    expect(s1.pendingAttack).toBe(2);
    const s2 = ok(play(s1, 'p2', ['HA'])).state;
    expect(s2.pendingAttack).toBe(5);
    expect(s2.current).toBe('p3');
    const r = ok(act(s2, 'p3', { type: 'draw' }));
    expect(r.state.hands.p3).toHaveLength(7);
    expect(r.state.pendingAttack).toBe(0);
    expect(r.state.current).toBe('p1');
    expect(r.events.find((e) => e.type === 'cardsDrawn')).toMatchObject({ player: 'p3', count: 5 });
  });

  it('§10 — ♣A on ♥2 is refused (other suit A); ♣2 is allowed', () => {
    const s = rig({}, 3, { hands: { p1: ['CA', 'C2', 'D9'] }, discard: ['H8', 'H2'], pendingAttack: 2, current: 'p1' });
    rejects(s, (x) => play(x, 'p1', ['CA']), '공격을 받고 있어요. 막을 카드를 내거나 카드를 먹으세요');
    const r = ok(play(s, 'p1', ['C2']));
    expect(r.state.pendingAttack).toBe(4);
  });

  it('§10 — ♠A: ♥A refused, black joker allowed; colour joker on black joker allowed, black on colour refused', () => {
    const s = rig({}, 3, {
      hands: { p1: ['HA', 'BJ', 'D9'], p2: ['CJ', 'D4'], p3: ['BJ', 'D5'] },
      discard: ['S8', 'SA'],
      pendingAttack: 5,
      current: 'p1',
    });
    rejects(s, (x) => play(x, 'p1', ['HA']));
    const s1 = ok(play(s, 'p1', ['BJ'])).state;
    expect(s1.pendingAttack).toBe(10);
    const s2 = ok(play(s1, 'p2', ['CJ'])).state;
    expect(s2.pendingAttack).toBe(17);
    rejects(s2, (x) => play(x, 'p3', ['BJ']), '공격을 받고 있어요. 막을 카드를 내거나 카드를 먹으세요');
  });

  it('§10 — threeDefense: ♦3 stops ♦A and the next player takes a normal turn on ♦3; ♣3 and 3 on a joker are refused', () => {
    const s = rig({}, 3, {
      hands: { p1: ['D3', 'C3', 'S9'], p2: ['D7', 'H5'] },
      discard: ['D8', 'DA'],
      pendingAttack: 3,
      current: 'p1',
    });
    rejects(s, (x) => play(x, 'p1', ['C3']));
    const r = ok(play(s, 'p1', ['D3']));
    expect(r.state.pendingAttack).toBe(0);
    expect(r.events.some((e) => e.type === 'attackBlocked')).toBe(true);
    expect(codeOf(r.state.discard.at(-1)!)).toBe('D3');
    expect(r.state.current).toBe('p2');
    expect(oneCard.view(r.state, 'p2').legalCardIds).toEqual([idOf(r.state, 'p2', 'D7')]);
    const j = rig({}, 3, { hands: { p1: ['D3', 'S9'] }, discard: ['D8', 'BJ'], pendingAttack: 5, current: 'p1' });
    rejects(j, (x) => play(x, 'p1', ['D3']));
  });

  it('§10 — after 7 with ♠ named, only ♠ cards or a 7 may follow, not the 7’s own suit', () => {
    const s = rig({}, 3, { hands: { p1: ['H7', 'C9'], p2: ['H5', 'S4', 'C7', 'D9'] }, discard: ['H8'], current: 'p1' });
    rejects(s, (x) => play(x, 'p1', ['H7']), '무늬를 골라 주세요');
    const s1 = ok(play(s, 'p1', ['H7'], { chooseSuit: 'S' })).state;
    expect(s1.declaredSuit).toBe('S');
    expect(rejects(s1, (x) => play(x, 'p2', ['H5']))).toBe('지정된 무늬(♠)나 7만 낼 수 있어요');
    rejects(s1, (x) => play(x, 'p2', ['D9']));
    const legal = oneCard.view(s1, 'p2').legalCardIds.map((id) => codeOf(s1.hands.p2.find((c) => c.id === id)!));
    expect(legal.sort()).toEqual(['C7', 'S4']);
    expect(ok(play(s1, 'p2', ['S4'])).state.declaredSuit).toBeNull();
  });

  it('§10 — J with two players gives the player another turn; Q with two players (default) passes to the opponent', () => {
    const s = rig({}, 2, { hands: { p1: ['HJ', 'HQ', 'C9'], p2: ['D4', 'D5'] }, discard: ['H8'], current: 'p1' });
    const afterJ = ok(play(s, 'p1', ['HJ'])).state;
    expect(afterJ.current).toBe('p1');
    const afterQ = ok(play(afterJ, 'p1', ['HQ'])).state;
    expect(afterQ.current).toBe('p2');
    expect(afterQ.direction).toBe(1);
  });

  it('§10 — K extra-turn: with nothing to play the extra turn draws one; K as the last card goes out at once', () => {
    const s = rig({}, 3, { hands: { p1: ['HK', 'C9', 'S2'], p2: ['D4'], p3: ['D5'] }, discard: ['H8'], current: 'p1' });
    const s1 = ok(play(s, 'p1', ['HK'])).state;
    expect(s1.current).toBe('p1');
    expect(s1.extraTurn).toBe(true);
    const v = oneCard.view(s1, 'p1');
    expect(v.legalCardIds).toEqual([]);
    expect(v.legal.canDraw).toBe(true);
    const s2 = ok(act(s1, 'p1', { type: 'draw' })).state;
    expect(s2.hands.p1).toHaveLength(3);
    expect(s2.current).toBe('p2');
    const last = rig({}, 3, { hands: { p1: ['HK'], p2: ['D4'], p3: ['D5'] }, discard: ['H8'], current: 'p1' });
    const end = ok(play(last, 'p1', ['HK'])).state;
    expect(end.status.p1).toBe('out');
    expect(end.phase.kind).toBe('finished');
    expect(result(end)!.winners).toEqual(['p1']);
  });

  it('§10 — lastCardRule joker: after ♥5 from [joker, ♥5] the lone joker is refused', () => {
    const s = rig({}, 2, { hands: { p1: ['BJ', 'H5'], p2: ['H4', 'D6', 'D7'] }, discard: ['H8'], current: 'p1' });
    const s1 = ok(play(s, 'p1', ['H5'], { declareOneCard: true })).state;
    expect(hand(s1, 'p1')).toEqual(['BJ']);
    const s2 = ok(play(s1, 'p2', ['H4'])).state;
    rejects(s2, (x) => play(x, 'p1', ['BJ']), '마지막 카드로 조커는 낼 수 없어요');
    expect(oneCard.view(s2, 'p1').legalCardIds).toEqual([]);
  });

  it('§10 — one-card race: a catch that arrives first costs a card; a declaration that arrives first makes the catch fail; declaring with the play is safe', () => {
    const s = rig({}, 3, { hands: { p1: ['H5', 'C9'], p2: ['D4', 'D6'], p3: ['S4'] }, discard: ['H8'], current: 'p1' });
    const opened = ok(play(s, 'p1', ['H5'])).state;
    expect(opened.oneCardWindow).toMatchObject({ player: 'p1', declared: false });
    const caught = ok(act(opened, 'p2', { type: 'declareOneCard' }));
    expect(caught.state.hands.p1).toHaveLength(2);
    expect(caught.state.oneCardWindow).toBeNull();
    expect(caught.events.find((e) => e.type === 'oneCardCaught')).toMatchObject({
      catcher: 'p2',
      target: 'p1',
      penalty: 1,
    });
    const safe = ok(act(opened, 'p1', { type: 'declareOneCard' })).state;
    expect(safe.oneCardWindow).toMatchObject({ player: 'p1', declared: true });
    rejects(safe, (x) => act(x, 'p2', { type: 'declareOneCard' }), '이미 원카드를 외쳤어요');
    const withPlay = ok(play(s, 'p1', ['H5'], { declareOneCard: true })).state;
    expect(withPlay.oneCardWindow?.declared).toBe(true);
    rejects(withPlay, (x) => act(x, 'p3', { type: 'declareOneCard' }));
    expect(withPlay.hands.p1).toHaveLength(1);
  });

  it('§10 — bankruptcy: 15 cards plus a 5-card attack makes 20 and the player is out at once; with two players the other wins', () => {
    const big = ['C4', 'C5', 'C6', 'C8', 'C9', 'C10', 'D4', 'D5', 'D6', 'D8', 'D9', 'D10', 'S4', 'S5', 'S6'];
    const s = rig({}, 3, {
      hands: { p1: big, p2: ['S4'], p3: ['H9', 'H10'] },
      discard: ['H8', 'SA'],
      pendingAttack: 5,
      current: 'p1',
    });
    const r = ok(act(s, 'p1', { type: 'draw' }));
    expect(r.state.status.p1).toBe('bankrupt');
    expect(r.state.hands.p1).toEqual([]);
    expect(r.state.drawPile.slice(-20).map((c) => c.id)).toEqual(
      [...s.hands.p1, ...s.drawPile.slice(0, 5)].map((c) => c.id),
    );
    expect(r.state.bankruptOrder).toEqual(['p1']);
    expect(r.state.current).toBe('p2');
    expect(r.state.pendingAttack).toBe(0);
    const after = ok(play(r.state, 'p2', ['S4'])).state;
    expect(after.phase.kind).toBe('finished');
    const two = rig({}, 2, {
      hands: { p1: big, p2: ['H4', 'H5'] },
      discard: ['H8', 'SA'],
      pendingAttack: 5,
      current: 'p1',
    });
    const end = ok(act(two, 'p1', { type: 'draw' })).state;
    expect(end.phase.kind).toBe('finished');
    expect(result(end)!.winners).toEqual(['p2']);
  });

  it('§10 — drawing 7 from an empty pile reshuffles the discard pile (top kept); if still short, draws what there is', () => {
    const s = rig({}, 3, {
      hands: { p1: ['C9'], p2: ['D4'], p3: ['S4'] },
      discard: ['H4', 'H5', 'H6', 'H9', 'H10', 'C4', 'C5', 'C6', 'C7', 'CJ'],
      pile: [],
      pendingAttack: 7,
      current: 'p1',
    });
    const r = ok(act(s, 'p1', { type: 'draw' }));
    expect(r.events.some((e) => e.type === 'reshuffled')).toBe(true);
    expect(r.state.hands.p1).toHaveLength(8);
    expect(r.state.drawPile).toHaveLength(1);
    expect(r.state.discard.map(codeOf)).toEqual(['C7', 'CJ']); // the joker and the card under it stay
    const short = rig({}, 3, {
      hands: { p1: ['C9'], p2: ['D4'], p3: ['S4'] },
      discard: ['H4', 'H5', 'H6'],
      pile: ['D8'],
      pendingAttack: 7,
      current: 'p1',
    });
    const r2 = ok(act(short, 'p1', { type: 'draw' }));
    expect(r2.state.hands.p1).toHaveLength(4);
    expect(r2.state.pendingAttack).toBe(0);
    expect(r2.state.current).toBe('p2');
    expect(r2.events.find((e) => e.type === 'cardsDrawn')).toMatchObject({ count: 3 });
  });

  it('§10 — uno-style strict: red current colour and a red 3 in hand refuse the +4; no red but a blue +2 allows it', () => {
    const s = rig({ mode: 'uno-style' }, 3, { hands: { p1: ['W4', 'R3', 'B+2'] }, discard: ['R5'], current: 'p1' });
    rejects(
      s,
      (x) => play(x, 'p1', ['W4'], { chooseColor: 'B' }),
      '현재 색 카드가 손에 있으면 색 바꾸기+4를 낼 수 없어요',
    );
    const t = rig({ mode: 'uno-style' }, 3, { hands: { p1: ['W4', 'B+2', 'G1'] }, discard: ['R5'], current: 'p1' });
    const r = ok(play(t, 'p1', ['W4'], { chooseColor: 'B' }));
    expect(r.state.hands.p2).toHaveLength(4);
    expect(r.state.current).toBe('p3');
  });

  it('§10 — uno-style challenge: guilty → the player of the +4 draws 4; innocent → the challenger draws 6; only the challenger sees the hand', () => {
    const o = { mode: 'uno-style', unoWild4Rule: 'challenge' };
    const guilty = rig(o, 3, {
      hands: { p1: ['W4', 'R3', 'G7'], p2: ['B1', 'Y2'], p3: ['G1'] },
      discard: ['R5'],
      current: 'p1',
    });
    const g1 = ok(play(guilty, 'p1', ['W4'], { chooseColor: 'B' })).state;
    expect(g1.phase.kind).toBe('wild4Response');
    const g2 = ok(act(g1, 'p2', { type: 'challengeWild4' }));
    expect(g2.state.hands.p1).toHaveLength(6);
    expect(g2.state.hands.p2).toHaveLength(2);
    expect(g2.state.current).toBe('p2');
    expect(g2.events.find((e) => e.type === 'wild4Challenged')).toMatchObject({ result: 'guilty' });
    const reveal = g2.events.find((e) => e.type === 'challengeReveal')!;
    expect(oneCard.eventView(reveal, 'p2')).toMatchObject({ of: 'p1' });
    expect(oneCard.eventView(reveal, 'p3')).toBeNull();
    expect(oneCard.eventView(reveal, null)).toBeNull();
    expect(oneCard.view(g2.state, 'p2').reveal?.cards.map(codeOf)).toEqual(['R3', 'G7']);
    expect(oneCard.view(g2.state, 'p3').reveal).toBeNull();
    expect(oneCard.view(g2.state, null).reveal).toBeNull();
    const innocent = rig(o, 3, {
      hands: { p1: ['W4', 'B3', 'G7'], p2: ['B1', 'Y2'], p3: ['G1'] },
      discard: ['R5'],
      current: 'p1',
    });
    const i1 = ok(play(innocent, 'p1', ['W4'], { chooseColor: 'B' })).state;
    const i2 = ok(act(i1, 'p2', { type: 'challengeWild4' }));
    expect(i2.state.hands.p2).toHaveLength(8);
    expect(i2.state.current).toBe('p3');
    expect(i2.events.find((e) => e.type === 'wild4Challenged')).toMatchObject({ result: 'innocent' });
  });

  it('§10 — uno-style reverse works as a skip with two players; a +2 start card makes the first player draw 2 and lose the turn', () => {
    const s = rig({ mode: 'uno-style' }, 2, {
      hands: { p1: ['Rr', 'G1'], p2: ['R1', 'R2'] },
      discard: ['R5'],
      current: 'p1',
    });
    const r = ok(play(s, 'p1', ['Rr'])).state;
    expect(r.current).toBe('p1');
    let found = false;
    for (let i = 0; i < 400 && !found; i++) {
      const st = fresh({ mode: 'uno-style' }, 4, `d2-${i}`);
      if (st.discard[0].kind !== 'draw2') continue;
      found = true;
      const first = st.seats.find((p) => st.hands[p].length === 9)!;
      expect(st.seats.filter((p) => st.hands[p].length === 9)).toEqual([first]);
      expect(st.current).toBe(st.seats[(st.seats.indexOf(first) + 1) % 4]);
    }
    expect(found).toBe(true);
  });

  it('§10 — uno-style scoring: B=[7, +2], C=[wild], D=[0, 3] gives the winner 80', () => {
    const s = rig({ mode: 'uno-style' }, 4, {
      hands: { p1: ['R9'], p2: ['G7', 'B+2'], p3: ['W'], p4: ['Y0', 'Y3'] },
      discard: ['R5'],
      current: 'p1',
    });
    const end = ok(play(s, 'p1', ['R9'])).state;
    const res = result(end)!;
    expect(res.winners).toEqual(['p1']);
    expect(res.ranking[0]).toMatchObject({ player: 'p1', score: 80 });
    expect(res.scores).toMatchObject({ p1: 80, p2: 0 });
  });

  it('§10 — timeouts: under attack the total is drawn; in afterDraw the timer passes', () => {
    const s = rig({}, 3, { hands: { p1: ['CA', 'D9'] }, discard: ['H8', 'H2'], pendingAttack: 2, current: 'p1' });
    rejects(s, (x) => oneCard.onTimeout(x, NOW + 5_000), '아직 시간이 남아 있어요');
    const r = ok(oneCard.onTimeout(s, NOW + 20_000));
    expect(r.state.hands.p1).toHaveLength(4);
    expect(r.state.current).toBe('p2');
    expect(r.state.timeoutsInRow.p1).toBe(1);
    const d = rig({ playAfterDraw: true }, 3, {
      hands: { p1: ['C9', 'D9'] },
      discard: ['H8'],
      pile: ['H4', 'H5'],
      current: 'p1',
    });
    const d1 = ok(act(d, 'p1', { type: 'draw' })).state;
    expect(d1.phase.kind).toBe('afterDraw');
    const d2 = ok(oneCard.onTimeout(d1, oneCard.deadline(d1)!));
    expect(d2.events.find((e) => e.type === 'timeout')).toMatchObject({ player: 'p1', action: 'pass' });
    expect(d2.state.current).toBe('p2');
    expect(d2.state.hands.p1).toHaveLength(3);
  });

  it('§10 — a disconnected player’s turns are drawn automatically by the timer and the game never stalls', () => {
    const rng = Rng.fromSeed('dc');
    let s = fresh({}, 3, 'disconnect');
    let steps = 0;
    while (!oneCard.result(s) && steps++ < 5000) {
      const mover = s.current;
      if (mover === 'p2') {
        s = ok(oneCard.onTimeout(s, oneCard.deadline(s)!)).state;
        continue;
      }
      const a = oneCard.bot(oneCard.view(s, mover), rng);
      s = a
        ? ok(oneCard.apply(s, mover, a, s.turnStartedAt + 500)).state
        : ok(oneCard.onTimeout(s, oneCard.deadline(s)!)).state;
    }
    expect(oneCard.result(s)).not.toBeNull();
    expect(s.timeoutsInRow.p2).toBeGreaterThanOrEqual(3);
  });

  it('§10 — leaks: spectator and opponent views hold no other hand or draw-pile card; cardsDrawn shows only a count to others', () => {
    const s = rig({}, 3, {
      hands: { p1: ['C9', 'HA'], p2: ['D4', 'D6'], p3: ['S4', 'SK'] },
      discard: ['C8', 'C2'],
      pendingAttack: 2,
      current: 'p1',
    });
    const r = ok(act(s, 'p1', { type: 'draw' }));
    for (const viewer of [null, 'p1', 'p2', 'p3']) {
      const hidden = hiddenSet(oneCardSim, r.state, viewer);
      expect(findLeaks(oneCardSim, hidden, oneCard.view(r.state, viewer))).toEqual([]);
      const json = JSON.stringify(oneCard.view(r.state, viewer));
      for (const c of r.state.drawPile) expect(json).not.toContain(`"${c.id}"`);
      for (const p of ['p1', 'p2', 'p3'])
        if (p !== viewer) for (const c of r.state.hands[p]) expect(json).not.toContain(`"${c.id}"`);
      const drawn = oneCard.eventView(
        r.events.find((e) => e.type === 'cardsDrawn')!,
        viewer,
      )!;
      if (viewer === 'p1') expect((drawn.cards as unknown[]).length).toBe(2);
      else expect(drawn).toEqual({ type: 'cardsDrawn', player: 'p1', count: 2, reason: 'attack' });
    }
  });

  it('§10 — out-of-turn plays, card ids not in hand and replayed card ids are refused and leave the state unchanged', () => {
    const s = rig({}, 3, {
      hands: { p1: ['H5', 'H6', 'C9'], p2: ['H9', 'D6'], p3: ['S4'] },
      discard: ['H8'],
      current: 'p1',
    });
    rejects(s, (x) => play(x, 'p2', ['H9']), '지금은 내 차례가 아니에요');
    rejects(s, (x) => act(x, 'p1', { type: 'play', cardIds: [x.hands.p2[0].id] }), '손에 없는 카드예요');
    rejects(s, (x) => act(x, 'p1', { type: 'play', cardIds: [x.drawPile[0].id] }), '손에 없는 카드예요');
    const a = { type: 'play', cardIds: [idOf(s, 'p1', 'H5')] };
    const s1 = ok(act(s, 'p1', a)).state;
    rejects(s1, (x) => act(x, 'p1', a));
    rejects(s1, (x) => act(x, 'p2', a));
  });
});
