/**
 * The colour deck ("색깔 카드"): a coloured face with a colour-blind pattern
 * (dots, stripes, grid, waves) and the colour's name, a rounded-square centre
 * panel — deliberately unlike any commercial layout — and drawn action icons.
 */
import { R, TEX_H, TEX_W, roundRect, text } from './art-common.ts';
import { COLOR_HEX, COLOR_NAME_KO, COLOR_PATTERN, COLORS, type Card, type Color } from './model.ts';

export function pattern(g: CanvasRenderingContext2D, kind: 'dots' | 'stripes' | 'grid' | 'waves'): void {
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
export function actionIcon(
  g: CanvasRenderingContext2D,
  kind: string,
  x: number,
  y: number,
  s: number,
  ink: string,
): void {
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

export function drawColorCard(g: CanvasRenderingContext2D, card: Card): void {
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
