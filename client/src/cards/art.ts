/**
 * Card art drawn in code with the Canvas 2D API: one original design for the
 * trump deck and one for the colour deck (no commercial design is imitated —
 * in particular no tilted white oval on the colour cards). Suits are vector
 * paths, not font glyphs, so they look the same on every device.
 *
 * The same canvases become Phaser textures on the table and <img> data URLs
 * in the rules sheet.
 */
import { GOLD, PAPER, R, TEX_H, TEX_W, drawSuit, roundRect, text } from './art-common.ts';
import { drawClassic } from './art-classic.ts';
import { drawColorCard, pattern } from './art-color.ts';
import { COLOR_HEX, COLOR_PATTERN, type Card, type Color, type Suit } from './model.ts';
import { resolution } from '../display.ts';

export { FONT, TEX_H, TEX_W } from './art-common.ts';
export { suitPath } from './art-common.ts';

function drawBack(g: CanvasRenderingContext2D, deck: 'classic' | 'color'): void {
  roundRect(g, 1, 1, TEX_W - 2, TEX_H - 2, R);
  g.fillStyle = '#fdfdfd';
  g.fill();
  roundRect(g, 9, 9, TEX_W - 18, TEX_H - 18, R - 6);
  g.save();
  g.clip();
  if (deck === 'classic') {
    g.fillStyle = '#1f3a68';
    g.fillRect(0, 0, TEX_W, TEX_H);
    g.strokeStyle = 'rgba(255,255,255,0.18)';
    g.lineWidth = 2;
    for (let y = -20; y < TEX_H + 20; y += 20)
      for (let x = -20; x < TEX_W + 20; x += 20) {
        g.beginPath();
        g.moveTo(x, y + 10);
        g.lineTo(x + 10, y);
        g.lineTo(x + 20, y + 10);
        g.lineTo(x + 10, y + 20);
        g.closePath();
        g.stroke();
      }
  } else {
    const bands = ['#d83a34', '#e9b21f', '#2f9a4e', '#2a6cc9'];
    for (let i = -12; i < 24; i++) {
      g.fillStyle = bands[((i % 4) + 4) % 4];
      g.beginPath();
      g.moveTo(i * 26, 0);
      g.lineTo(i * 26 + 26, 0);
      g.lineTo(i * 26 + 26 + TEX_H * 0.6, TEX_H);
      g.lineTo(i * 26 + TEX_H * 0.6, TEX_H);
      g.closePath();
      g.fill();
    }
    g.fillStyle = 'rgba(20,20,30,0.45)';
    g.fillRect(0, 0, TEX_W, TEX_H);
  }
  g.restore();
  g.beginPath();
  g.arc(TEX_W / 2, TEX_H / 2, 40, 0, Math.PI * 2);
  g.fillStyle = '#fdfdfd';
  g.fill();
  g.lineWidth = 4;
  g.strokeStyle = GOLD;
  g.stroke();
  text(g, '원', TEX_W / 2, TEX_H / 2 + 2, 40, deck === 'classic' ? '#1f3a68' : '#202127', { weight: 900 });
}

/**
 * Pixels per art unit of the card textures. The biggest card on any table is
 * ≈ 170 CSS px tall, so at the device ratio the bitmap needs ≈ 170 × ratio
 * pixels: 1× art (252 px) up to ratio 1.5, 2× (504 px) at ratio 3. Drawing is
 * in art units either way (the canvas context is scaled).
 */
export function artScale(ratio = resolution()): number {
  return Math.max(1, Math.ceil(((ratio * 170) / TEX_H) * 4) / 4);
}

function newCanvas(): [HTMLCanvasElement, CanvasRenderingContext2D] {
  const s = artScale();
  const c = document.createElement('canvas');
  c.width = Math.round(TEX_W * s);
  c.height = Math.round(TEX_H * s);
  const g = c.getContext('2d');
  if (!g) throw new Error('2d canvas unavailable');
  g.scale(s, s);
  return [c, g];
}

export function drawCardFace(card: Card): HTMLCanvasElement {
  const [c, g] = newCanvas();
  if (card.kind === 'std' || card.kind === 'joker') drawClassic(g, card);
  else drawColorCard(g, card);
  return c;
}

export function drawCardBack(deck: 'classic' | 'color'): HTMLCanvasElement {
  const [c, g] = newCanvas();
  drawBack(g, deck);
  return c;
}

/** Big suit or colour swatch for the pickers and the declared-suit chip. */
export function drawChoiceIcon(kind: { suit: Suit } | { color: Color }, size = 96): HTMLCanvasElement {
  const s = artScale();
  const c = document.createElement('canvas');
  c.width = Math.round(size * s);
  c.height = Math.round(size * s);
  const g = c.getContext('2d');
  if (!g) throw new Error('2d canvas unavailable');
  g.scale(s, s);
  if ('suit' in kind) {
    g.beginPath();
    g.arc(size / 2, size / 2, size / 2 - 2, 0, Math.PI * 2);
    g.fillStyle = PAPER;
    g.fill();
    drawSuit(g, kind.suit, size / 2, size / 2, size * 0.6);
  } else {
    g.beginPath();
    g.arc(size / 2, size / 2, size / 2 - 2, 0, Math.PI * 2);
    g.save();
    g.clip();
    g.fillStyle = COLOR_HEX[kind.color];
    g.fillRect(0, 0, size, size);
    g.restore();
    g.save();
    g.beginPath();
    g.arc(size / 2, size / 2, size / 2 - 2, 0, Math.PI * 2);
    g.clip();
    g.scale(size / TEX_W, size / TEX_W);
    pattern(g, COLOR_PATTERN[kind.color]);
    g.restore();
  }
  return c;
}
