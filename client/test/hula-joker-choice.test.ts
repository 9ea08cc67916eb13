/** docs/games/hula.md §5.3 in the client: the 조커 toggle names the joker's role and the action carries it. */
import { describe, expect, it } from 'vitest';
import { hula, type HulaCard as Card, type HulaOptions, type HulaState, type HulaView } from '@joke/engine/client';
import { buildAction, deriveControls } from '../src/games/hula/controls.ts';
import { jokerChoices } from '../src/games/hula/joker-choice.ts';

const players = ['a', 'b'].map((id) => ({ id, name: id === 'a' ? '민수' : '지영' }));
const c = (suit: Card['suit'], rank: number): Card => ({
  id: suit === 'X' ? `X${rank}` : `${suit}${rank}`,
  suit,
  rank: suit === 'X' ? 0 : rank,
});

/** The mover's act phase with exactly `hand` (joker mode). */
function acting(hand: Card[], melds: HulaState['melds'] = []): { s: HulaState; who: string } {
  const options = hula.optionsSchema.parse({ mode: 'joker', rounds: 1 }) as HulaOptions;
  let s = hula.setup({ seed: 'joker-ui', players, options, now: 1_000 }) as HulaState;
  const who = (hula.view(s, null) as HulaView).current!;
  const r = hula.apply(s, who, { type: 'draw', from: 'stock' }, 1_100);
  if (!r.ok) throw new Error(r.reason);
  s = structuredClone(r.state as HulaState);
  const seat = s.seats.findIndex((x) => x.id === who);
  // Keep card conservation out of it: the view is all the client sees.
  s.hands[seat] = hand;
  s.melds = melds;
  s.registered[seat] = melds.length > 0;
  return { s, who };
}

describe('훌라 joker role in the client (§5.3)', () => {
  it('§5.3 — joker + ♠5 + ♠6: the toggle offers ♠5~7 (the default) then ♠4~6, and 등록 sends the chosen form', () => {
    const { s, who } = acting([c('X', 1), c('S', 5), c('S', 6), c('D', 9)]);
    const v = hula.view(s, who) as HulaView;
    const sel = ['X1', 'S5', 'S6'];
    expect(jokerChoices(v, sel, null).map((x) => x.label)).toEqual(['♠5~7 런', '♠4~6 런']);
    expect(deriveControls(v, sel, null, 0).buttons.joker).toMatchObject({ visible: true, label: '조커: ♠5~7 런' });
    expect(deriveControls(v, sel, null, 1).buttons.joker.label).toBe('조커: ♠4~6 런');
    const low = buildAction('meld', v, sel, null, 1)!;
    expect(low).toEqual({ type: 'meld', cardIds: sel, form: { kind: 'run', low: 4 } });
    const r = hula.apply(s, who, low, 1_200);
    expect(r.ok && r.state.melds[0].rank).toBe(4);
    // Nothing to choose without a joker: no toggle, and the action carries no form.
    expect(deriveControls(v, ['S5', 'S6', 'D9'], null).buttons.joker.visible).toBe(false);
  });

  it('§5.3 — a joker on a lone 7: 7 세트 / 조커는 6 / 조커는 8, sent as the lay-off end', () => {
    const seven = { id: 1, owner: 'b', kind: 'seven' as const, cards: [c('H', 7)], rank: 7, suit: 'H' as const };
    const { s, who } = acting([c('X', 1), c('D', 9), c('C', 2)], [seven]);
    const v = hula.view(s, who) as HulaView;
    expect(jokerChoices(v, ['X1'], 1).map((x) => x.label)).toEqual(['7 세트', '조커는 6', '조커는 8']);
    expect(buildAction('layOff', v, ['X1'], 1, 0)).toEqual({ type: 'layOff', cardIds: ['X1'], meldId: 1 });
    const asSix = buildAction('layOff', v, ['X1'], 1, 1)!;
    expect(asSix).toEqual({ type: 'layOff', cardIds: ['X1'], meldId: 1, end: 'low' });
    const r = hula.apply(s, who, asSix, 1_200);
    expect(r.ok && r.state.melds[0].kind).toBe('run');
  });
});
