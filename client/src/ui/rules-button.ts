/**
 * The table's way to the rules: `openTableRules` for scenes that already
 * draw a 규칙 button, and `addRulesButton` for a scene that has none — an
 * HTML button over the canvas corner, removed with the scene, so the scene
 * needs one line and no layout change.
 */
import type Phaser from 'phaser';
import { el } from './dom.ts';
import { openGameRules, type RulesContext, type RulesGame } from './rules/game-rules.ts';

export function openTableRules(game: RulesGame, ctx: RulesContext = {}): void {
  openGameRules(game, ctx);
}

/**
 * Adds a 규칙 button for `game` while `scene` runs; `ctx` is read at the tap (the mode may arrive later).
 * Returns it so the scene can hide it under a full-screen panel (it would sit on the panel's title).
 */
export function addRulesButton(
  scene: Phaser.Scene,
  game: RulesGame,
  ctx: () => RulesContext = () => ({}),
): HTMLButtonElement {
  const button = el('button', { class: 'btn ghost small table-rules', 'data-testid': 'table-rules' }, ['규칙']);
  button.addEventListener('click', () => openTableRules(game, ctx()));
  document.getElementById('ui')?.append(button);
  scene.events.once('shutdown', () => button.remove());
  return button as HTMLButtonElement;
}
