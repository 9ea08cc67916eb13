/**
 * What every page of the client sets up once before anything shows (the game page from entry.ts, the
 * dev harness from main.ts): the §9 큰 글씨 class on the document and audio on the first tap.
 * Idempotent, and free of Phaser: the lobby's chunk runs it before the game chunk exists.
 */
import { getSettings, onSettings } from './settings.ts';
import { sound } from './sound/player.ts';

let prepared = false;

export function preparePage(): void {
  if (prepared) return;
  prepared = true;
  // §9 큰 글씨: the DOM lobby and sheets grow by CSS zoom (styles.css, .large-text), the canvas by textScale().
  const markLargeText = () => document.documentElement.classList.toggle('large-text', getSettings().largeText);
  markLargeText();
  onSettings(markLargeText);
  // Audio starts on the first tap anywhere (lobby included), as mobile browsers require.
  sound.install();
}
