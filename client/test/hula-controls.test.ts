/**
 * 훌라 action bar and result rows from real engine views: states come from
 * the engine's setup and apply(), then its own view(), so the client is
 * checked against what the server really sends.
 */
import { describe, expect, it } from 'vitest';
import { hula, type HulaCard as Card, type HulaOptions, type HulaState, type HulaView } from '@joke/engine/client';
import { buildAction, deriveControls } from '../src/games/hula/controls.ts';
import { resultRows } from '../src/games/hula/result-rows.ts';
import { eventToast } from '../src/games/hula/events.ts';

const players = ['a', 'b', 'c'].map((id) => ({ id, name: { a: '민수', b: '지영', c: '현우' }[id]! }));
const c = (suit: Card['suit'], rank: number): Card => ({ id: `${suit}${rank}`, suit, rank });

function start(mode: 'monster' | 'joker'): HulaState {
  const options = hula.optionsSchema.parse({ mode, rounds: 1 }) as HulaOptions;
  return hula.setup({ seed: 'ui', players, options, now: 1_000 }) as HulaState;
}

function act(s: HulaState, who: string, action: Parameters<typeof hula.apply>[2], now = 1_100): HulaState {
  const r = hula.apply(s, who, action, now);
  if (!r.ok) throw new Error(`${who} ${JSON.stringify(action)}: ${r.reason}`);
  return r.state as HulaState;
}

const viewOf = (s: HulaState, who: string | null) => hula.view(s, who) as HulaView;
const current = (s: HulaState) => viewOf(s, null).current!;

describe('훌라 controls from the view', () => {
  it('draw phase: 뽑기 / 가져오기 / 스톱 for the mover only; spectators get no buttons', () => {
    const s = start('monster');
    const who = current(s);
    const mine = deriveControls(viewOf(s, who), [], null);
    expect(mine.myTurn).toBe(true);
    expect(mine.buttons.draw).toMatchObject({ visible: true, enabled: true, label: '뽑기' });
    expect(mine.buttons.take.visible).toBe(true);
    expect(mine.buttons.stop.visible).toBe(true);
    expect(mine.buttons.stop.label).toMatch(/^스톱 \d+\/18점$/);
    expect(mine.buttons.discard.visible).toBe(false);
    const other = players.find((p) => p.id !== who)!.id;
    const theirs = deriveControls(viewOf(s, other), [], null);
    expect(theirs.myTurn).toBe(false);
    expect(Object.values(theirs.buttons).some((b) => b.visible)).toBe(false);
    expect(theirs.status).toContain('님 차례');
    const watcher = deriveControls(viewOf(s, null), [], null);
    expect(Object.values(watcher.buttons).some((b) => b.visible)).toBe(false);
    expect(buildAction('draw', viewOf(s, who), [], null)).toEqual({ type: 'draw', from: 'stock' });
  });

  it('act phase: 등록 only for a selection that forms a meld, 버리기 for exactly one card', () => {
    let s = start('monster');
    const who = current(s);
    const seat = s.seats.findIndex((x) => x.id === who);
    s = structuredClone(s);
    s.hands[seat] = [c('S', 5), c('H', 5), c('D', 5), c('C', 9), c('H', 2), c('S', 12), c('D', 1)];
    s = act(s, who, { type: 'draw', from: 'stock' });
    const v = viewOf(s, who);
    expect(deriveControls(v, [], null).buttons.meld).toMatchObject({ visible: true, enabled: false });
    expect(deriveControls(v, ['S5', 'H5'], null).buttons.meld.enabled).toBe(false);
    const three = deriveControls(v, ['S5', 'H5', 'D5'], null);
    expect(three.buttons.meld.enabled).toBe(true);
    expect(three.buttons.discard.enabled).toBe(false);
    // Not registered yet: no 붙이기.
    expect(three.buttons.layOff.visible).toBe(false);
    const one = deriveControls(v, ['C9'], null);
    expect(one.buttons.discard).toMatchObject({ enabled: true, label: '버리기 ♣9' });
    expect(buildAction('meld', v, ['S5', 'H5', 'D5'], null)).toEqual({ type: 'meld', cardIds: ['S5', 'H5', 'D5'] });
    // After registering, 붙이기 shows and lights only for a card that fits a meld on the table.
    s = act(s, who, { type: 'meld', cardIds: ['S5', 'H5', 'D5'] });
    const after = viewOf(s, who);
    const id = after.melds[0].id;
    const withC5 = structuredClone(s);
    withC5.hands[seat].push(c('C', 5));
    expect(deriveControls(viewOf(withC5, who), ['C5'], null).buttons.layOff.enabled).toBe(true);
    expect(buildAction('layOff', viewOf(withC5, who), ['C5'], null)).toEqual({
      type: 'layOff',
      cardIds: ['C5'],
      meldId: id,
    });
    expect(deriveControls(after, ['C9'], null).buttons.layOff).toMatchObject({ visible: true, enabled: false });
  });

  it('괴물 땡큐: the asked player sees 땡큐 and 넘기기, everyone else sees who is asked', () => {
    let s = start('monster');
    const who = current(s);
    s = act(s, who, { type: 'draw', from: 'stock' });
    const v0 = viewOf(s, who);
    const card = v0.hand!.find((x) => x.suit !== 'X')!;
    s = act(s, who, { type: 'discard', cardId: card.id });
    const v = viewOf(s, null);
    expect(v.phase.kind).toBe('thankYouAsk');
    const asked = v.phase.kind === 'thankYouAsk' ? v.phase.asked : '';
    const mine = deriveControls(viewOf(s, asked), [], null);
    expect(mine.buttons.pass).toMatchObject({ visible: true, enabled: true, label: '넘기기' });
    expect(mine.buttons.thankYou.visible).toBe(true);
    expect(mine.mover).toBe(asked);
    const other = deriveControls(viewOf(s, who), [], null);
    expect(other.buttons.pass.visible).toBe(false);
    expect(other.status).toContain('땡큐 확인 중');
  });

  it('조커 레이스: only an eligible player sees 넘기기; the discarder sees nothing', () => {
    let s = start('joker');
    const who = current(s);
    s = act(s, who, { type: 'draw', from: 'stock' });
    const card = viewOf(s, who).hand!.find((x) => x.suit !== 'X')!;
    s = act(s, who, { type: 'discard', cardId: card.id });
    expect(viewOf(s, null).phase.kind).toBe('thankYouRace');
    expect(Object.values(deriveControls(viewOf(s, who), [], null).buttons).some((b) => b.visible)).toBe(false);
    const other = players.find((p) => p.id !== who)!.id;
    const o = deriveControls(viewOf(s, other), [], null);
    expect(o.buttons.pass.visible).toBe(true);
    expect(o.buttons.thankYou.visible).toBe(viewOf(s, other).me!.canThankYou);
  });

  it('스톱 ends the round: result rows carry rank, 박 and points moved in 점', () => {
    let s = start('monster');
    const who = current(s);
    const seat = s.seats.findIndex((x) => x.id === who);
    s = structuredClone(s);
    s.hands[seat] = [c('S', 1), c('H', 1), c('D', 2)];
    expect(deriveControls(viewOf(s, who), [], null).buttons.stop.enabled).toBe(true);
    s = act(s, who, { type: 'stop' });
    const v = viewOf(s, who);
    const data = resultRows(v, null)!;
    expect(data).not.toBeNull();
    expect(data.rows).toHaveLength(3);
    expect(data.rows.map((r) => r.rank)).toEqual([1, 2, 3]);
    expect(data.rows.every((r) => r.delta.endsWith('점') && !r.delta.includes('₩'))).toBe(true);
    expect(data.summary).toContain('승리');
    expect(data.final).toBe(true);
    expect(resultRows(viewOf(start('monster'), null), null)).toBeNull();
    // Everyone is told who stopped; the stopper reads it in the first person.
    const stopEvent = { type: 'stop', player: who };
    expect(eventToast(viewOf(s, who), stopEvent)?.text).toBe('내가 스톱!');
    const other = players.find((p) => p.id !== who)!;
    const name = players.find((p) => p.id === who)!.name;
    expect(eventToast(viewOf(s, other.id), stopEvent)?.text).toBe(`${name} 님이 스톱!`);
    expect(eventToast(viewOf(s, null), { type: 'drew', player: who })).toBeNull();
  });
});
