/**
 * Card art drawn in code with the Canvas 2D API: one original design for the
 * trump deck and one for the colour deck (no commercial design is imitated —
 * in particular no tilted white oval on the colour cards). Suits are vector
 * paths, not font glyphs, so they look the same on every device.
 *
 * The same canvases become Phaser textures on the table and <img> data URLs
 * in the rules sheet.
 */
import {
  COLOR_HEX,
  COLOR_NAME_KO,
  COLOR_PATTERN,
  COLORS,
  isRed,
  rankLabel,
  type Card,
  type Color,
  type Suit,
} from './model.ts';

/** Texture size; the table draws cards between 48×68 and ~130×182 px. */
export const TEX_W = 180;
export const TEX_H = 252;
const R = 16;
export const FONT = 'Pretendard, "Noto Sans KR", "Apple SD Gothic Neo", "Malgun Gothic", sans-serif';

const INK = '#1c1d24';
const RED = '#cf2a2a';
const GOLD = '#d7a232';
const PAPER = '#fbf8f1';

function roundRect(g: CanvasRenderingContext2D, x: number, y: number, w: number, h: number, r: number): void {
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

function drawSuit(g: CanvasRenderingContext2D, suit: Suit, x: number, y: number, s: number, color?: string): void {
  g.save();
  g.translate(x, y);
  suitPath(g, suit, s);
  g.fillStyle = color ?? (isRed(suit) ? RED : INK);
  g.fill('nonzero');
  g.restore();
}

function text(
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

function star(g: CanvasRenderingContext2D, x: number, y: number, r: number, points = 5, inner = 0.45): void {
  g.beginPath();
  for (let i = 0; i < points * 2; i++) {
    const a = -Math.PI / 2 + (i * Math.PI) / points;
    const rr = i % 2 === 0 ? r : r * inner;
    g.lineTo(x + Math.cos(a) * rr, y + Math.sin(a) * rr);
  }
  g.closePath();
}

function paperBase(g: CanvasRenderingContext2D): void {
  roundRect(g, 1, 1, TEX_W - 2, TEX_H - 2, R);
  g.fillStyle = PAPER;
  g.fill();
  g.lineWidth = 2;
  g.strokeStyle = '#bdb5a2';
  g.stroke();
}

/** The corner index must be readable in the visible strip of a fanned card (left ~40%). */
function classicIndex(g: CanvasRenderingContext2D, label: string, suit: Suit | null, color: string): void {
  const draw = () => {
    const size = label.length > 1 ? 46 : 54;
    text(g, label, 30, 36, size, color, { weight: 900 });
    if (suit) drawSuit(g, suit, 30, 84, 40, color);
  };
  draw();
  g.save();
  g.translate(TEX_W, TEX_H);
  g.rotate(Math.PI);
  draw();
  g.restore();
}

/** Original court emblems: a three-point crown (K), a gem circlet (Q), a shield with a feather (J). */
function courtEmblem(g: CanvasRenderingContext2D, rank: number, suit: Suit): void {
  const c = isRed(suit) ? RED : INK;
  const cx = TEX_W / 2 + 8;
  const cy = TEX_H / 2;
  g.save();
  roundRect(g, 60, 52, 96, 148, 10);
  g.fillStyle = isRed(suit) ? '#fbe9e4' : '#e9eaf0';
  g.fill();
  g.lineWidth = 3;
  g.strokeStyle = GOLD;
  g.stroke();
  g.translate(cx, cy - 8);
  g.lineWidth = 4;
  g.strokeStyle = c;
  g.fillStyle = GOLD;
  if (rank === 13) {
    g.beginPath();
    g.moveTo(-34, 18);
    g.lineTo(-34, -20);
    g.lineTo(-17, 0);
    g.lineTo(0, -30);
    g.lineTo(17, 0);
    g.lineTo(34, -20);
    g.lineTo(34, 18);
    g.closePath();
    g.fill();
    g.stroke();
    for (const x of [-34, 0, 34]) {
      g.beginPath();
      g.arc(x, x === 0 ? -32 : -22, 5, 0, Math.PI * 2);
      g.fillStyle = c;
      g.fill();
    }
  } else if (rank === 12) {
    g.beginPath();
    g.arc(0, 0, 28, 0, Math.PI * 2);
    g.fill();
    g.stroke();
    for (let i = 0; i < 8; i++) {
      const a = (i * Math.PI) / 4;
      g.beginPath();
      g.arc(Math.cos(a) * 28, Math.sin(a) * 28, 6, 0, Math.PI * 2);
      g.fillStyle = c;
      g.fill();
    }
    g.beginPath();
    g.arc(0, 0, 12, 0, Math.PI * 2);
    g.fillStyle = PAPER;
    g.fill();
  } else {
    g.beginPath();
    g.moveTo(-26, -28);
    g.lineTo(26, -28);
    g.lineTo(26, 4);
    g.quadraticCurveTo(26, 24, 0, 36);
    g.quadraticCurveTo(-26, 24, -26, 4);
    g.closePath();
    g.fill();
    g.stroke();
    g.beginPath();
    g.moveTo(-10, 22);
    g.quadraticCurveTo(-4, -8, 14, -22);
    g.quadraticCurveTo(6, 4, -10, 22);
    g.fillStyle = c;
    g.fill();
  }
  g.restore();
  drawSuit(g, suit, cx, cy + 50, 34);
}

function drawClassic(g: CanvasRenderingContext2D, card: Card): void {
  paperBase(g);
  if (card.kind === 'joker') {
    const colorful = card.joker === 'color';
    const ink = colorful ? RED : INK;
    const letters = 'JOKER';
    for (let i = 0; i < letters.length; i++) text(g, letters[i], 24, 30 + i * 30, 28, ink, { weight: 900 });
    const cx = TEX_W / 2 + 12;
    const cy = TEX_H / 2 + 6;
    if (colorful) {
      const grad = g.createLinearGradient(cx - 50, cy - 50, cx + 50, cy + 50);
      grad.addColorStop(0, '#e0413a');
      grad.addColorStop(0.35, '#f0b323');
      grad.addColorStop(0.65, '#2f9a4e');
      grad.addColorStop(1, '#2a6cc9');
      star(g, cx, cy, 56, 7, 0.5);
      g.fillStyle = grad;
      g.fill();
      g.lineWidth = 3;
      g.strokeStyle = INK;
      g.stroke();
    } else {
      star(g, cx, cy, 56, 7, 0.5);
      g.fillStyle = '#3a3b44';
      g.fill();
      star(g, cx, cy, 30, 7, 0.5);
      g.fillStyle = PAPER;
      g.fill();
    }
    text(g, colorful ? '컬러' : '흑백', cx, TEX_H - 30, 26, ink, { weight: 800 });
    return;
  }
  if (card.kind !== 'std') return;
  const color = isRed(card.suit) ? RED : INK;
  classicIndex(g, rankLabel(card.rank), card.suit, color);
  if (card.rank >= 11) {
    courtEmblem(g, card.rank, card.suit);
  } else if (card.rank === 1) {
    g.beginPath();
    g.arc(TEX_W / 2 + 8, TEX_H / 2, 52, 0, Math.PI * 2);
    g.lineWidth = 3;
    g.strokeStyle = GOLD;
    g.stroke();
    drawSuit(g, card.suit, TEX_W / 2 + 8, TEX_H / 2, card.suit === 'S' ? 84 : 70);
  } else {
    drawSuit(g, card.suit, TEX_W / 2 + 10, TEX_H / 2, 80);
  }
}

function pattern(g: CanvasRenderingContext2D, kind: 'dots' | 'stripes' | 'grid' | 'waves'): void {
  g.save();
  g.strokeStyle = 'rgba(255,255,255,0.33)';
  g.fillStyle = 'rgba(255,255,255,0.33)';
  g.lineWidth = 5;
  if (kind === 'dots') {
    for (let y = 10; y < TEX_H; y += 22)
      for (let x = (y / 22) % 2 ? 8 : 19; x < TEX_W; x += 22) {
        g.beginPath();
        g.arc(x, y, 4.5, 0, Math.PI * 2);
        g.fill();
      }
  } else if (kind === 'stripes') {
    for (let x = -TEX_H; x < TEX_W; x += 20) {
      g.beginPath();
      g.moveTo(x, TEX_H);
      g.lineTo(x + TEX_H, 0);
      g.stroke();
    }
  } else if (kind === 'grid') {
    g.lineWidth = 4;
    for (let x = 12; x < TEX_W; x += 24) {
      g.beginPath();
      g.moveTo(x, 0);
      g.lineTo(x, TEX_H);
      g.stroke();
    }
    for (let y = 12; y < TEX_H; y += 24) {
      g.beginPath();
      g.moveTo(0, y);
      g.lineTo(TEX_W, y);
      g.stroke();
    }
  } else {
    for (let y = 8; y < TEX_H + 20; y += 22) {
      g.beginPath();
      for (let x = 0; x <= TEX_W; x += 6) g.lineTo(x, y + Math.sin(x / 10) * 5);
      g.stroke();
    }
  }
  g.restore();
}

/** Icon for a colour-card action, centred on (x,y), roughly s wide. */
function actionIcon(g: CanvasRenderingContext2D, kind: string, x: number, y: number, s: number, ink: string): void {
  g.save();
  g.translate(x, y);
  g.strokeStyle = ink;
  g.fillStyle = ink;
  g.lineCap = 'round';
  if (kind === 'skip') {
    g.lineWidth = s * 0.13;
    g.beginPath();
    g.arc(0, 0, s * 0.36, 0, Math.PI * 2);
    g.stroke();
    g.beginPath();
    g.moveTo(-s * 0.25, s * 0.25);
    g.lineTo(s * 0.25, -s * 0.25);
    g.stroke();
  } else if (kind === 'reverse') {
    g.lineWidth = s * 0.12;
    for (const dir of [1, -1]) {
      g.save();
      g.rotate(dir === 1 ? 0 : Math.PI);
      g.beginPath();
      g.arc(0, 0, s * 0.32, Math.PI * 1.05, Math.PI * 1.85);
      g.stroke();
      const ax = Math.cos(Math.PI * 1.85) * s * 0.32;
      const ay = Math.sin(Math.PI * 1.85) * s * 0.32;
      g.beginPath();
      g.moveTo(ax + s * 0.16, ay + s * 0.02);
      g.lineTo(ax - s * 0.06, ay - s * 0.14);
      g.lineTo(ax - s * 0.02, ay + s * 0.16);
      g.closePath();
      g.fill();
      g.restore();
    }
  } else if (kind === 'wheel') {
    const r = s * 0.4;
    COLORS.forEach((c, i) => {
      g.beginPath();
      g.moveTo(0, 0);
      g.arc(0, 0, r, -Math.PI / 2 + (i * Math.PI) / 2, (i * Math.PI) / 2);
      g.closePath();
      g.fillStyle = COLOR_HEX[c];
      g.fill();
    });
    g.beginPath();
    g.arc(0, 0, r, 0, Math.PI * 2);
    g.lineWidth = 4;
    g.strokeStyle = '#fff';
    g.stroke();
  }
  g.restore();
}

function colorSymbol(card: Card): string {
  switch (card.kind) {
    case 'num':
      return String(card.value);
    case 'draw2':
      return '+2';
    case 'wild4':
      return '+4';
    default:
      return '';
  }
}

function drawColorCard(g: CanvasRenderingContext2D, card: Card): void {
  const color: Color | null = 'color' in card ? card.color : null;
  roundRect(g, 1, 1, TEX_W - 2, TEX_H - 2, R);
  g.save();
  g.clip();
  g.fillStyle = color ? COLOR_HEX[color] : '#202127';
  g.fillRect(0, 0, TEX_W, TEX_H);
  if (color) pattern(g, COLOR_PATTERN[color]);
  g.restore();
  roundRect(g, 1, 1, TEX_W - 2, TEX_H - 2, R);
  g.lineWidth = 6;
  g.strokeStyle = '#fdfdfd';
  g.stroke();

  // Centre panel: a rounded square, deliberately unlike any commercial layout.
  roundRect(g, 34, 62, TEX_W - 50, 118, 22);
  g.fillStyle = color ? '#fff' : '#34353d';
  g.fill();
  const ink = color ? COLOR_HEX[color] : '#fff';
  const sym = colorSymbol(card);
  const cx = 34 + (TEX_W - 50) / 2;
  if (card.kind === 'wild' || card.kind === 'wild4') {
    actionIcon(g, 'wheel', cx, 121, card.kind === 'wild4' ? 70 : 96, ink);
    if (card.kind === 'wild4') text(g, '+4', cx, 121, 44, '#fff', { stroke: '#202127' });
  } else if (card.kind === 'skip' || card.kind === 'reverse') {
    actionIcon(g, card.kind, cx, 121, 96, ink);
  } else {
    text(g, sym, cx, 124, sym.length > 1 ? 70 : 86, ink, { weight: 900 });
    if (card.kind === 'num' && (card.value === 6 || card.value === 9)) {
      g.fillStyle = ink;
      g.fillRect(cx - 20, 166, 40, 6);
    }
  }

  // Corner index (left strip stays visible in a fanned hand).
  const idx = sym || (card.kind === 'skip' ? '⊘' : card.kind === 'reverse' ? '⇄' : '');
  if (card.kind === 'skip' || card.kind === 'reverse') actionIcon(g, card.kind, 28, 32, 40, '#fff');
  else if (card.kind === 'wild') actionIcon(g, 'wheel', 28, 32, 44, '#fff');
  else text(g, idx, 28, 32, idx.length > 1 ? 36 : 46, '#fff', { weight: 900, stroke: 'rgba(0,0,0,0.35)' });

  // Colour name (§9 accessibility): readable at the smallest hand size.
  const label = color ? COLOR_NAME_KO[color] : card.kind === 'wild4' ? '색+4' : '색 바꿈';
  roundRect(g, 14, TEX_H - 62, TEX_W - 28, 46, 12);
  g.fillStyle = 'rgba(0,0,0,0.38)';
  g.fill();
  text(g, label, TEX_W / 2, TEX_H - 38, 34, '#fff', { weight: 800 });
}

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

function newCanvas(): [HTMLCanvasElement, CanvasRenderingContext2D] {
  const c = document.createElement('canvas');
  c.width = TEX_W;
  c.height = TEX_H;
  const g = c.getContext('2d');
  if (!g) throw new Error('2d canvas unavailable');
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
  const c = document.createElement('canvas');
  c.width = size;
  c.height = size;
  const g = c.getContext('2d');
  if (!g) throw new Error('2d canvas unavailable');
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
