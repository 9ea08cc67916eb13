/**
 * "처음이라면: 연습 한 판" — the lobby's and the landing page's way into the
 * first-game tutorial of each game (no sign-in needed: it runs in the page).
 */
import type { TutorialGame } from '../tutorial/lessons.ts';
import { el } from './dom.ts';

const GAMES: [TutorialGame, string][] = [
  ['one-card', '원카드'],
  ['poker', '포커'],
  ['hula', '훌라'],
];

export function tutorialEntry(start: (game: TutorialGame) => void): HTMLElement {
  const buttons = GAMES.map(([game, name]) => {
    const b = el('button', { class: 'btn secondary', type: 'button', 'data-testid': `tutorial-${game}` }, [name]);
    b.addEventListener('click', () => start(game));
    return b;
  });
  return el('section', { class: 'card tutorial-entry', 'data-testid': 'tutorial-entry' }, [
    el('p', {}, [el('b', {}, ['처음이라면: 연습 한 판']), ' · 봇과 짧게 한 판 하며 규칙을 배워요']),
    ...buttons,
  ]);
}
