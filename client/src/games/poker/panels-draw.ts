/**
 * Draws the models of panels.ts into the scene's per-render container: the PC
 * 족보표 under the hand log and 인디언's used-card panel on the felt. Every
 * text is shrunk until it fits its row (large text included), so a panel
 * never spills onto its neighbours; a rank table longer than its rectangle
 * folds its high rows into two columns of names before it shrinks further.
 */
import type Phaser from 'phaser';
import type { Rect } from '../../table-kit/rect.ts';
import { C, textStyle } from '../../table-kit/theme.ts';
import type { RankTable, UsedColumn } from './panels.ts';

function fitText(
  scene: Phaser.Scene,
  into: Phaser.GameObjects.Container,
  x: number,
  y: number,
  s: string,
  size: number,
  color: string,
  box: { w: number; h: number },
  weight: 600 | 700 | 800 = 600,
  origin: [number, number] = [0, 0],
): Phaser.GameObjects.Text {
  const t = scene.add.text(x, y, s, textStyle(size, color, weight)).setOrigin(...origin);
  let px = Number.parseFloat(String(t.style.fontSize));
  while ((t.width > box.w || t.height > box.h) && px > 8) t.setFontSize(--px);
  into.add(t);
  return t;
}

/** PC 족보표 (§9): the ranking of the mode being played, best first, with a short example each. */
export function drawRanks(scene: Phaser.Scene, into: Phaser.GameObjects.Container, r: Rect, table: RankTable): void {
  const g = scene.add.graphics();
  into.add(g);
  g.fillStyle(C.panel, 0.6).fillRoundedRect(r.x, r.y, r.w, r.h, 10);
  const inner = r.w - 20;
  fitText(scene, into, r.x + 10, r.y + 8, table.title, 14, '#a9c2b5', { w: inner, h: 20 }, 800);
  const low = table.low;
  const top = r.y + 32;
  const lines = table.rows.length + (low ? low.rows.length + 1 : 0);
  const lineH = Math.min(22, (r.y + r.h - 6 - top) / lines);
  // Too many rows for the height: the high rows go in two columns of names (numbered, best first).
  const fold = lineH < 15;
  const highRows = fold ? Math.ceil(table.rows.length / 2) : table.rows.length;
  const rowH = fold ? Math.min(22, (r.y + r.h - 6 - top) / (highRows + (low ? low.rows.length + 1 : 0))) : lineH;
  const rowBox = { w: inner, h: rowH };
  table.rows.forEach((row, i) => {
    if (fold) {
      const col = i < highRows ? 0 : 1;
      const y = top + (i - col * highRows) * rowH;
      const half = { w: inner / 2 - 4, h: rowH };
      fitText(scene, into, r.x + 10 + col * (inner / 2 + 4), y, `${i + 1}. ${row.name}`, 12, '#ffffff', half, 700);
      return;
    }
    const y = top + i * rowH;
    const name = fitText(
      scene,
      into,
      r.x + 10,
      y,
      `${i + 1}. ${row.name}`,
      13,
      '#ffffff',
      { w: inner * 0.58, h: rowH },
      700,
    );
    const rest = { w: inner - name.width - 8, h: rowH };
    if (rest.w > 30) fitText(scene, into, r.x + r.w - 10, y, row.example, 12, '#cfe3d8', rest, 600, [1, 0]);
  });
  if (!low) return;
  let y = top + highRows * rowH;
  fitText(scene, into, r.x + 10, y, low.title, 13, '#ffd84a', rowBox, 800);
  for (const row of low.rows) {
    y += rowH;
    fitText(scene, into, r.x + 10, y, `${row.name}: ${row.example}`, 12, '#ffffff', rowBox, 600);
  }
}

const BOX_FILL: Record<UsedColumn['boxes'][number], number | null> = { empty: null, used: 0xd9534f, table: 0xffd84a };

/**
 * 인디언 사용된 카드 (§9): one column per number, its label over one box per
 * copy. Columns go in one row, or two when the rectangle is tall and narrow
 * (a phone on its side); a legend names the two fills.
 */
export function drawUsed(
  scene: Phaser.Scene,
  into: Phaser.GameObjects.Container,
  r: Rect,
  columns: UsedColumn[],
): Rect[] {
  const g = scene.add.graphics();
  into.add(g);
  g.fillStyle(0x000000, 0.28).fillRoundedRect(r.x, r.y, r.w, r.h, 6);
  const legendW = Math.min(72, r.w * 0.2);
  const area = { x: r.x + 4, y: r.y + 2, w: r.w - legendW - 8, h: r.h - 4 };
  const rows = area.h >= 44 && columns.length * 30 > area.w ? 2 : 1;
  const perRow = Math.ceil(columns.length / rows);
  const cw = area.w / perRow;
  const ch = area.h / rows;
  const boxes: Rect[] = [];
  columns.forEach((c, i) => {
    const cx = area.x + (i % perRow) * cw;
    const cy = area.y + Math.floor(i / perRow) * ch;
    const labelH = Math.min(14, ch * 0.45);
    fitText(scene, into, cx + cw / 2, cy, c.label, 11, '#ffffff', { w: cw - 2, h: labelH }, 700, [0.5, 0]);
    const n = c.boxes.length;
    const size = Math.max(4, Math.min(12, ch - labelH - 3, (cw - 4 - (n - 1) * 2) / n));
    const bx = cx + (cw - (n * size + (n - 1) * 2)) / 2;
    c.boxes.forEach((b, k) => {
      const box = { x: bx + k * (size + 2), y: cy + labelH + 1, w: size, h: size };
      boxes.push(box);
      const fill = BOX_FILL[b];
      if (fill !== null) g.fillStyle(fill, 1).fillRect(box.x, box.y, box.w, box.h);
      g.lineStyle(1, 0xffffff, 0.8).strokeRect(box.x, box.y, box.w, box.h);
    });
  });
  const lx = r.x + r.w - legendW - 2;
  const half = { w: legendW - 14, h: r.h / 2 - 1 };
  g.fillStyle(BOX_FILL.used!, 1).fillRect(lx, r.y + r.h / 4 - 4, 8, 8);
  fitText(scene, into, lx + 11, r.y + r.h / 4, '지난 판', 10, '#ffffff', half, 600, [0, 0.5]);
  g.fillStyle(BOX_FILL.table!, 1).fillRect(lx, r.y + (3 * r.h) / 4 - 4, 8, 8);
  fitText(scene, into, lx + 11, r.y + (3 * r.h) / 4, '이번 판', 10, '#ffffff', half, 600, [0, 0.5]);
  return boxes;
}
