/**
 * The table's way to the rules: `openTableRules` for scenes that already
 * draw a 규칙 button, and `addRulesButton` for a scene that has none — an
 * HTML button over the canvas, removed with the scene. The scene's layout
 * owns its place: `placeRulesButton` puts it on a layout rect every layout, so
 * no CSS offset has to agree with what the canvas draws.
 */
import type Phaser from 'phaser';
import { boundsRect, type Rect } from '../table-kit/rect.ts';
import { el } from './dom.ts';
import { openGameRules, type RulesContext, type RulesGame } from './rules/game-rules.ts';

/** A view's options as the plain record the rules sheet reads (undefined before the first frame). */
export function roomOptions(options: object | undefined): Record<string, unknown> | undefined {
  return options ? Object.fromEntries(Object.entries(options)) : undefined;
}

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

/** Puts the button on `rect` (world units, which are CSS pixels: display.ts) of the canvas as it sits on the page. */
export function placeRulesButton(button: HTMLButtonElement | null, canvas: HTMLCanvasElement, rect: Rect): void {
  if (!button) return;
  const c = canvas.getBoundingClientRect();
  button.style.left = `${c.left + rect.x}px`;
  button.style.top = `${c.top + rect.y}px`;
  button.style.width = `${rect.w}px`;
  button.style.height = `${rect.h}px`;
}

/** Where the button is on the page (CSS px), or null while it is hidden (for the test hook). */
export function rulesButtonRect(button: HTMLButtonElement | null): Rect | null {
  return button && !button.hidden ? boundsRect(button.getBoundingClientRect()) : null;
}
