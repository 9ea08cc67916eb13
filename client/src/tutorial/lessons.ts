/**
 * The first-game lessons: one short hand per game against bots, on a fixed
 * seed with a prepared deal so the hand meets the rules worth learning first
 * (원카드: follow suit/rank, an attack and its defence, the 원카드 call; 포커:
 * blinds, check/call/raise, a showdown that names the hands; 훌라: draw,
 * 등록, 붙이기, 땡큐 or 스톱). The prepared state is still one the engine
 * reads; the engine judges every move and computes every view.
 */
import {
  type AnyGame,
  type GameStateBase,
  oneCard,
  type OneCardCard as OneCard,
  type OneCardState,
  poker,
  type PokerState,
  hula,
  type HulaCard,
  type HulaState,
} from '@joke/engine/client';

export type TutorialGame = 'one-card' | 'poker' | 'hula';

export interface Lesson {
  game: TutorialGame;
  def: AnyGame;
  /** Phaser scene key of the game's table. */
  scene: string;
  title: string;
  players: number;
  options: Record<string, unknown>;
  seed: string;
  names: string[];
  prepare?: (s: GameStateBase, players: string[]) => void;
  /** The lesson is over (the game's result, or the end of its first hand). */
  done: (s: GameStateBase) => boolean;
  /** What the summary says was practised, and where the rest is explained. */
  summary: string[];
}

/** Moves the cards matching `want` (in order) out of `pool`, keeping the others in order. */
function pick<C>(pool: C[], want: ((c: C) => boolean)[]): { picked: C[]; rest: C[] } {
  const rest = pool.slice();
  const picked = want.map((w) => {
    const i = rest.findIndex(w);
    if (i < 0) throw new Error('prepared deal: card not in the deck');
    return rest.splice(i, 1)[0];
  });
  return { picked, rest };
}

const std = (suit: string, rank: number) => (c: OneCard) => c.kind === 'std' && c.suit === suit && c.rank === rank;

/** 원카드: ♥5 on the pile; my ♥9/♠5 follow it, the bot's only answer to ♥9 is its ♥2, my ♣2 blocks it. */
function prepareOneCard(state: GameStateBase, [me, bot]: string[]): void {
  const s = state as OneCardState;
  const all = [...s.discard, ...s.hands[me], ...s.hands[bot], ...s.drawPile];
  const mine = pick(all, [std('H', 9), std('S', 5), std('C', 2), std('D', 9), std('C', 4)]);
  const theirs = pick(mine.rest, [std('H', 2), std('D', 11), std('C', 6), std('D', 4), std('S', 10)]);
  const top = pick(theirs.rest, [std('H', 5)]);
  s.hands[me] = mine.picked;
  s.hands[bot] = theirs.picked;
  s.discard = top.picked;
  // Plain cards first in the pile: the lesson stays short and free of surprises.
  s.drawPile = top.rest;
  s.current = me;
  s.declaredSuit = null;
  s.pendingAttack = 0;
}

/** 훌라: three 5s to 등록, a lone 7, and a ♠8 that goes on the bot's ♠9-10-J once it shows. */
function prepareHula(state: GameStateBase, players: string[]): void {
  const s = state as HulaState;
  const me = players.indexOf(players[0]);
  const card = (suit: string, rank: number) => (c: HulaCard) => c.suit === suit && c.rank === rank;
  const pool = [...s.hands.flat(), ...s.discard, ...s.stock.slice(s.stockTop)];
  const mine = pick(pool, [
    card('S', 5),
    card('H', 5),
    card('D', 5),
    card('C', 7),
    card('S', 8),
    card('D', 13),
    card('C', 12),
  ]);
  const theirs = pick(mine.rest, [
    card('S', 9),
    card('S', 10),
    card('S', 11),
    card('H', 1),
    card('D', 3),
    card('C', 2),
    card('H', 4),
  ]);
  const top = pick(theirs.rest, [card('C', 5)]);
  s.hands = s.hands.map((_, i) => (i === me ? mine.picked : theirs.picked));
  s.discard = top.picked;
  s.stock = [...s.stock.slice(0, s.stockTop), ...top.rest];
  s.phase = { ...s.phase, kind: 'draw', seat: me } as HulaState['phase'];
}

const firstHandOver = (s: GameStateBase) => {
  const p = s as PokerState;
  return p.phase === 'finished' || p.hand?.phase === 'handEnd';
};

export const LESSONS: Record<TutorialGame, Lesson> = {
  'one-card': {
    game: 'one-card',
    def: oneCard,
    scene: 'table',
    title: '원카드 연습',
    players: 2,
    // The longest turn clock: the lesson's source lets no deadline expire, and a short ring would rush.
    options: {
      mode: 'classic',
      handSize: 5,
      multiPlay: false,
      autoDeclare: false,
      voluntaryDraw: false,
      turnSeconds: 60,
    },
    seed: 'tutorial-one-card',
    names: ['나', '봇 똘이'],
    prepare: prepareOneCard,
    done: (s) => oneCard.result(s as OneCardState) !== null,
    summary: [
      '같은 무늬나 같은 숫자 카드를 냈어요',
      '공격 카드(2·A·조커)는 같은 공격 카드로 막거나 카드를 먹어요',
      '한 장 남기면 원카드를 외쳐요',
      '색깔 카드 모드와 다른 규칙은 규칙에서 볼 수 있어요',
    ],
  },
  poker: {
    game: 'poker',
    def: poker,
    scene: 'poker',
    title: '포커 연습 (홀덤)',
    players: 2,
    options: { mode: 'holdem', turnSeconds: 60 },
    seed: 'tutorial-poker',
    names: ['나', '봇 똘이'],
    done: firstHandOver,
    summary: [
      '블라인드를 내고 카드 2장을 받았어요',
      '체크·콜·레이즈·폴드 중에서 골랐어요',
      '쇼다운에서 다섯 장으로 만든 족보가 높은 사람이 이겨요',
      '세븐 포커·바둑이 같은 다른 모드는 규칙에서 설명해요',
    ],
  },
  hula: {
    game: 'hula',
    def: hula,
    scene: 'hula',
    title: '훌라 연습',
    players: 2,
    options: { mode: 'monster', rounds: 1 },
    seed: 'tutorial-hula',
    names: ['나', '봇 똘이'],
    prepare: prepareHula,
    done: (s) => {
      const k = (s as HulaState).phase.kind;
      return k === 'roundEnd' || k === 'finished';
    },
    summary: [
      '차례마다 한 장 가져오고 한 장 버렸어요',
      '같은 숫자 3장, 같은 무늬 연속 3장, 7 한 장은 등록할 수 있어요',
      '등록된 묶음에 카드를 붙일 수 있어요',
      '남이 버린 카드로 묶음이 되면 땡큐, 점수가 낮으면 스톱',
      '점수 계산과 박은 규칙에서 볼 수 있어요',
    ],
  },
};
