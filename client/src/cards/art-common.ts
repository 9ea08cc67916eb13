/** Drawing primitives and palette shared by both card designs (Canvas 2D). */
import { isRed, type Suit } from './model.ts';
import { getSettings } from '../settings.ts';

/** Texture size; the table draws cards between 48×68 and ~130×182 px. */
export const TEX_W = 180;
export const TEX_H = 252;
export const R = 16;
export const FONT = 'Pretendard, "Noto Sans KR", "Apple SD Gothic Neo", "Malgun Gothic", sans-serif';

export const INK = '#1c1d24';
export const RED = '#cf2a2a';
export const GOLD = '#d7a232';
export const PAPER = '#fbf8f1';
/** The 4-colour deck's extra inks: dark enough on paper for the corner index at 48 px wide. */
export const BLUE = '#1d5bc4';
export const GREEN = '#17833a';

/** Ink of a suit: two colours by default, ♠ black ◆ blue ♥ red ♣ green with the §9 4-colour deck. */
export function suitInk(suit: Suit, fourColor = getSettings().fourColorDeck): string {
  if (!fourColor) return isRed(suit) ? RED : INK;
  return suit === 'D' ? BLUE : suit === 'C' ? GREEN : suit === 'H' ? RED : INK;
}

/** Texture-key suffix of the palette, so a live switch draws new faces instead of reusing old ones. */
export function paletteKey(): string {
  return getSettings().fourColorDeck ? '-4c' : '';
}

export function roundRect(g: CanvasRenderingContext2D, x: number, y: number, w: number, h: number, r: number): void {
  g.beginPath();
  g.moveTo(x + r, y);
  g.arcTo(x + w, y, x + w, y + h, r);
  g.arcTo(x + w, y + h, x, y + h, r);
  g.arcTo(x, y + h, x, y, r);
  g.arcTo(x, y, x + w, y, r);
  g.closePath();
}

/** Suit path centred on (0,0) fitting a box of size s. */
export function suitPath(g: CanvasRenderingContext2D, suit: Suit, s: number): void {
  const h = s / 2;
  g.beginPath();
  switch (suit) {
    case 'H':
      g.moveTo(0, h * 0.95);
      g.bezierCurveTo(-h * 1.25, h * 0.05, -h * 0.95, -h * 1.05, 0, -h * 0.45);
      g.bezierCurveTo(h * 0.95, -h * 1.05, h * 1.25, h * 0.05, 0, h * 0.95);
      break;
    case 'D':
      g.moveTo(0, -h);
      g.quadraticCurveTo(h * 0.35, -h * 0.3, h * 0.78, 0);
      g.quadraticCurveTo(h * 0.35, h * 0.3, 0, h);
      g.quadraticCurveTo(-h * 0.35, h * 0.3, -h * 0.78, 0);
      g.quadraticCurveTo(-h * 0.35, -h * 0.3, 0, -h);
      break;
    case 'S':
      g.moveTo(0, -h);
      g.bezierCurveTo(h * 0.4, -h * 0.45, h * 1.15, -h * 0.1, h * 0.85, h * 0.42);
      g.bezierCurveTo(h * 0.6, h * 0.78, h * 0.2, h * 0.62, h * 0.08, h * 0.38);
      g.lineTo(h * 0.3, h);
      g.lineTo(-h * 0.3, h);
      g.lineTo(-h * 0.08, h * 0.38);
      g.bezierCurveTo(-h * 0.2, h * 0.62, -h * 0.6, h * 0.78, -h * 0.85, h * 0.42);
      g.bezierCurveTo(-h * 1.15, -h * 0.1, -h * 0.4, -h * 0.45, 0, -h);
      break;
    case 'C': {
      const r = h * 0.42;
      g.arc(0, -h * 0.48, r, 0, Math.PI * 2);
      g.moveTo(-h * 0.5 + r, h * 0.08);
      g.arc(-h * 0.5, h * 0.08, r, 0, Math.PI * 2);
      g.moveTo(h * 0.5 + r, h * 0.08);
      g.arc(h * 0.5, h * 0.08, r, 0, Math.PI * 2);
      g.moveTo(-h * 0.12, 0);
      g.lineTo(-h * 0.3, h);
      g.lineTo(h * 0.3, h);
      g.lineTo(h * 0.12, 0);
      break;
    }
  }
  g.closePath();
}

export function drawSuit(
  g: CanvasRenderingContext2D,
  suit: Suit,
  x: number,
  y: number,
  s: number,
  color?: string,
): void {
  g.save();
  g.translate(x, y);
  suitPath(g, suit, s);
  g.fillStyle = color ?? suitInk(suit);
  g.fill('nonzero');
  g.restore();
}

export function text(
  g: CanvasRenderingContext2D,
  str: string,
  x: number,
  y: number,
  size: number,
  color: string,
  opts: { weight?: number; align?: CanvasTextAlign; baseline?: CanvasTextBaseline; stroke?: string } = {},
): void {
  g.font = `${opts.weight ?? 800} ${size}px ${FONT}`;
  g.textAlign = opts.align ?? 'center';
  g.textBaseline = opts.baseline ?? 'middle';
  if (opts.stroke) {
    g.lineJoin = 'round';
    g.lineWidth = size * 0.16;
    g.strokeStyle = opts.stroke;
    g.strokeText(str, x, y);
  }
  g.fillStyle = color;
  g.fillText(str, x, y);
}

export function star(g: CanvasRenderingContext2D, x: number, y: number, r: number, points = 5, inner = 0.45): void {
  g.beginPath();
  for (let i = 0; i < points * 2; i++) {
    const a = -Math.PI / 2 + (i * Math.PI) / points;
    const rr = i % 2 === 0 ? r : r * inner;
    g.lineTo(x + Math.cos(a) * rr, y + Math.sin(a) * rr);
  }
  g.closePath();
}
