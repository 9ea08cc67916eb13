/**
 * §9 controls, derived from real engine views: the states below come from
 * the engine's setup with hands and piles rearranged, then the engine's own
 * view() — so the client is checked against what the server really sends.
 */
import { describe, expect, it } from 'vitest';
import {
  oneCard,
  type OneCardCard as Card,
  type OneCardOptions,
  type OneCardState,
  type OneCardView,
} from '@joke/engine/client';
import { sortHand } from '../src/cards/model.ts';
import { buildPlay, deriveControls, explainLegal, initialOf, timerFraction } from '../src/games/one-card/controls.ts';

const players = ['a', 'b', 'c'].map((id) => ({ id, name: { a: '민수', b: '지영', c: '현우' }[id]! }));

function table(mode: 'classic' | 'uno-style', patch: (s: OneCardState) => void, extra: Partial<OneCardOptions> = {}) {
  const options = oneCard.optionsSchema.parse({ mode, ...extra }) as OneCardOptions;
  const s = structuredClone(oneCard.setup({ seed: 'ui', players, options, now: 1_000 })) as OneCardState;
  s.current = 'a';
  patch(s);
  return s;
}

const std = (id: string, suit: 'S' | 'H' | 'D' | 'C', rank: number): Card => ({ id, kind: 'std', suit, rank });
const view = (s: OneCardState, who: string | null) => oneCard.view(s, who) as OneCardView;

describe('table controls derived from the view', () => {
  it('§9 — legal cards come from legalCardIds; playing needs a selected legal card', () => {
    const s = table('classic', (st) => {
      st.hands.a = [std('h5', 'H', 5), std('s9', 'S', 9), std('h8', 'H', 8)];
      st.discard = [std('top', 'H', 4)];
    });
    const v = view(s, 'a');
    const none = deriveControls(v, [], { hints: true });
    expect(none.myTurn).toBe(true);
    expect([...none.legalIds].sort()).toEqual(['h5', 'h8']);
    expect(none.play.enabled).toBe(false);
    expect(none.draw).toMatchObject({ visible: true, enabled: true, label: '1장 먹기', action: 'draw' });
    expect(none.hint).toBe('낼 수 있는 카드 2장 · 카드를 눌러 고르세요');
    const picked = deriveControls(v, ['h5'], { hints: true });
    expect(picked.play.enabled).toBe(true);
    expect(picked.hint).toBe('♥ 무늬가 같아요');
    expect(deriveControls(v, ['s9'], { hints: true }).play.enabled).toBe(false);
  });

  it('§9 — under attack: "N장 먹기" and the hint lists the cards that can block', () => {
    const s = table('classic', (st) => {
      st.hands.a = [std('c2', 'C', 2), { id: 'bj', kind: 'joker', joker: 'black' }, std('h9', 'H', 9)];
      st.discard = [std('top', 'H', 2)];
      st.pendingAttack = 4;
    });
    const c = deriveControls(view(s, 'a'), [], { hints: true });
    expect(c.underAttack).toBe(true);
    expect(c.draw.label).toBe('4장 먹기');
    expect(c.hint).toBe('막을 수 있는 카드: ♣2, 조커');
    expect(c.status).toBe('공격을 받고 있어요! 막거나 4장 먹으세요');
  });

  it('§9 — under attack with nothing to block: the hint says how many cards to take', () => {
    const s = table('classic', (st) => {
      st.hands.a = [std('h9', 'H', 9)];
      st.discard = [std('top', 'S', 1)];
      st.pendingAttack = 5;
    });
    expect(deriveControls(view(s, 'a'), [], { hints: true }).hint).toBe('막을 수 있는 카드가 없어요. 5장 먹어야 해요');
  });

  it('§9 — a 7 needs the suit picker and a wild the colour picker before it is sent', () => {
    const s = table('classic', (st) => {
      st.hands.a = [std('h7', 'H', 7), std('h3', 'H', 3)];
      st.discard = [std('top', 'H', 4)];
    });
    expect(deriveControls(view(s, 'a'), ['h7'], { hints: true }).picker).toEqual({ kind: 'suit' });
    expect(deriveControls(view(s, 'a'), ['h3'], { hints: true }).picker).toBeNull();
    const u = table('uno-style', (st) => {
      st.hands.a = [
        { id: 'w', kind: 'wild' },
        { id: 'r1', kind: 'num', color: 'R', value: 1 },
      ];
      st.discard = [{ id: 'top', kind: 'num', color: 'B', value: 5 }];
      st.declaredColor = null;
    });
    expect(deriveControls(view(u, 'a'), ['w'], { hints: true }).picker).toEqual({ kind: 'color' });
    expect(buildPlay(['w'], { color: 'G' }, false)).toEqual({ type: 'play', cardIds: ['w'], chooseColor: 'G' });
  });

  it('§9 — "원카드 외치며 내기" is offered (and on by default in the scene) only when the play leaves one card', () => {
    const s = table('classic', (st) => {
      st.hands.a = [std('h5', 'H', 5), std('h6', 'H', 6)];
      st.discard = [std('top', 'H', 4)];
    });
    expect(deriveControls(view(s, 'a'), ['h5'], { hints: true }).declareToggle.visible).toBe(true);
    s.hands.a.push(std('h8', 'H', 8));
    expect(deriveControls(view(s, 'a'), ['h5'], { hints: true }).declareToggle.visible).toBe(false);
    expect(buildPlay(['h5'], {}, true)).toEqual({ type: 'play', cardIds: ['h5'], declareOneCard: true });
  });

  it('§5.3/§9 — the one-card button shakes for everyone and catches for the others', () => {
    const s = table('classic', (st) => {
      st.hands.b = [std('x', 'S', 5)];
      st.oneCardWindow = { player: 'b', declared: false, openedSeq: 0 };
    });
    const other = deriveControls(view(s, 'a'), [], { hints: true });
    expect(other.oneCard).toMatchObject({ enabled: true, shake: true, catch: true });
    expect(other.oneCard.label).toContain('잡기');
    const owner = deriveControls(view(s, 'b'), [], { hints: true });
    expect(owner.oneCard).toMatchObject({ enabled: true, catch: false, label: '원카드!' });
    const watcher = deriveControls(view(s, null), [], { hints: true });
    expect(watcher.oneCard.enabled).toBe(false);
    expect(watcher.spectator).toBe(true);
    expect(watcher.play.visible).toBe(false);
    expect(watcher.status).toBe('관전 중 · 민수 님 차례');
  });

  it('not my turn: nothing to play or draw, the status names who is moving', () => {
    const s = table('classic', (st) => {
      st.current = 'b';
    });
    const c = deriveControls(view(s, 'a'), [], { hints: true });
    expect(c.myTurn).toBe(false);
    expect(c.play.enabled || c.draw.enabled).toBe(false);
    expect(c.status).toBe('지영 님 차례예요');
  });

  it('§9 hint — why a card is legal, in both modes', () => {
    const s = table('classic', (st) => {
      st.discard = [std('top', 'D', 9)];
      st.declaredSuit = 'S';
    });
    const v = view(s, 'a');
    expect(explainLegal(v, std('s4', 'S', 4))).toBe('지정된 ♠ 무늬예요');
    expect(explainLegal(v, std('c7', 'C', 7))).toBe('7은 무늬 지정과 상관없이 낼 수 있어요');
    s.declaredSuit = null;
    expect(explainLegal(view(s, 'a'), std('h9', 'H', 9))).toBe('숫자가 같아요 (9)');
    const u = table('uno-style', (st) => {
      st.discard = [{ id: 'top', kind: 'num', color: 'Y', value: 3 }];
      st.declaredColor = null;
    });
    expect(explainLegal(view(u, 'a'), { id: 'y', kind: 'num', color: 'Y', value: 8 })).toBe('노랑 색이 같아요');
    expect(explainLegal(view(u, 'a'), { id: 'g', kind: 'num', color: 'G', value: 3 })).toBe('숫자가 같아요 (3)');
  });

  it('turn timer ring: full at the start of the turn, empty at the deadline', () => {
    const s = table('classic', () => undefined, { turnSeconds: 20 });
    const v = view(s, 'a');
    expect(v.deadline).toBe(21_000);
    expect(timerFraction(v, 1_000)).toBe(1);
    expect(timerFraction(v, 11_000)).toBeCloseTo(0.5);
    expect(timerFraction(v, 30_000)).toBe(0);
  });

  it('sorting is visual only: by suit or by rank, never losing a card', () => {
    const hand = [
      std('a', 'C', 9),
      std('b', 'S', 2),
      std('c', 'H', 9),
      { id: 'j', kind: 'joker', joker: 'black' } as Card,
    ];
    expect(sortHand(hand, 'suit').map((c) => c.id)).toEqual(['b', 'c', 'a', 'j']);
    expect(sortHand(hand, 'rank').map((c) => c.id)).toEqual(['b', 'c', 'a', 'j']);
    expect(sortHand(hand, 'none').map((c) => c.id)).toEqual(['a', 'b', 'c', 'j']);
  });

  it('seat initials skip the lobby\'s "봇" prefix so bots are told apart', () => {
    expect(initialOf('봇 번개')).toBe('번');
    expect(initialOf('민수')).toBe('민');
  });
});
