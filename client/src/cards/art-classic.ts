/**
 * The trump deck: paper face, large corner index readable in a fanned hand,
 * one big pip, original court emblems (crown, circlet, shield) and two jokers.
 */
import { GOLD, INK, PAPER, R, RED, TEX_H, TEX_W, drawSuit, roundRect, star, suitInk, text } from './art-common.ts';
import { indexLabel, isNumericOne, isRed, type Card, type Suit } from './model.ts';

export function paperBase(g: CanvasRenderingContext2D): void {
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
  const c = suitInk(suit);
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

export function drawClassic(g: CanvasRenderingContext2D, card: Card): void {
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
  const color = suitInk(card.suit);
  classicIndex(g, indexLabel(card), card.suit, color);
  if (card.rank >= 11) {
    courtEmblem(g, card.rank, card.suit);
  } else if (card.rank === 1 && !isNumericOne(card)) {
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
