/**
 * The 훌라 result screens over the table: after each round (ranking, hand
 * points, 박, points moved, running totals and a 준비 button) and at the end
 * of the game (final ranking, back to the waiting room or the lobby).
 * Two lines per player so it fits a 390 px portrait screen.
 */
import Phaser from 'phaser';
import type { Rect } from '../table/layout.ts';
import { C, textStyle } from '../table/theme.ts';
import { Button } from '../table/widgets.ts';
import type { HulaResultData } from './result-rows.ts';

export interface PanelAction {
  key: string;
  label: string;
  onTap: () => void;
}

/** Shortens a name with "…" until it fits (a long nickname never runs into the points). */
function fitText(t: Phaser.GameObjects.Text, maxW: number): void {
  let chars = [...t.text];
  while (t.width > maxW && chars.length > 2) {
    chars = chars.slice(0, -1);
    t.setText(`${chars.join('')}…`);
  }
}

export class HulaResultPanel {
  private objects: Phaser.GameObjects.GameObject[] = [];
  private buttons: Button[] = [];
  data: HulaResultData | null = null;
  buttonRects: Record<string, Rect> = {};
  panelRect: Rect | null = null;

  constructor(private readonly scene: Phaser.Scene) {}

  get open(): boolean {
    return this.data !== null;
  }

  show(data: HulaResultData, width: number, height: number, actions: PanelAction[]): void {
    this.close();
    this.data = data;
    const s = this.scene;
    const pw = Math.min(width - 20, 560);
    const px = (width - pw) / 2;
    const top = Math.max(12, Math.min(height * 0.08, 80));
    const dim = s.add.rectangle(0, 0, width, height, 0x000000, 0.55).setOrigin(0).setDepth(960).setInteractive();
    const panel = s.add.graphics().setDepth(961);
    this.objects.push(dim, panel);
    const add = <T extends Phaser.GameObjects.Text>(t: T): T => {
      t.setDepth(962);
      this.objects.push(t);
      return t;
    };
    let y = top + 16;
    const title = add(s.add.text(width / 2, y, data.title, textStyle(24, '#ffd84a', 800)).setOrigin(0.5, 0));
    y += title.height + 6;
    if (data.summary) {
      const sum = add(
        s.add
          .text(width / 2, y, data.summary, textStyle(14, '#ffffff', 600, { align: 'center' }))
          .setOrigin(0.5, 0)
          .setWordWrapWidth(pw - 32, true),
      );
      y += sum.height + 10;
    }
    for (const row of data.rows) {
      let highlight: Phaser.GameObjects.Graphics | null = null;
      if (row.me) {
        const hl = s.add.graphics().setDepth(961);
        this.objects.push(hl);
        highlight = hl;
      }
      add(s.add.text(px + 18, y, `${row.rank}등`, textStyle(16, row.rank === 1 ? '#ffd84a' : '#ffffff', 800)));
      // The game's end leads with each player's total; a round's end with what the round moved.
      const deltaColor = row.delta.startsWith('+') ? '#7ee081' : row.delta.startsWith('−') ? '#ff9f94' : '#ffffff';
      const big = data.final ? `합계 ${row.total}` : row.delta;
      const small = data.final ? `이번 판 ${row.delta}` : `합계 ${row.total}`;
      const value = add(
        s.add.text(px + pw - 18, y, big, textStyle(16, data.final ? '#ffd84a' : deltaColor, 800)).setOrigin(1, 0),
      );
      const name = add(s.add.text(px + 62, y, row.name + (row.me ? ' (나)' : ''), textStyle(16, '#ffffff', 700)));
      fitText(name, pw - 62 - 18 - value.width - 10);
      const detail = add(
        s.add
          .text(px + 62, y + 22, `손패 ${row.hand}  ·  ${row.bak}`, textStyle(12, '#c9dcd2', 600))
          .setWordWrapWidth(pw - 62 - 120, true),
      );
      const rowH = Math.max(52, detail.height + 30);
      add(s.add.text(px + pw - 18, y + 22, small, textStyle(12, '#c9dcd2', 600)).setOrigin(1, 0));
      highlight?.fillStyle(0xffd84a, 0.16).fillRoundedRect(px + 8, y - 4, pw - 16, rowH - 4, 8);
      y += rowH;
    }
    y += 6;
    const bw = Math.min(180, (pw - 40 - 12 * (actions.length - 1)) / Math.max(1, actions.length));
    const total = bw * actions.length + 12 * (actions.length - 1);
    this.buttonRects = {};
    actions.forEach((a, i) => {
      const rect = { x: width / 2 - total / 2 + i * (bw + 12), y, w: bw, h: 46 };
      this.buttons.push(new Button(s, a.label, i === 0 ? 'primary' : 'secondary', a.onTap, 963).setRect(rect));
      this.buttonRects[a.key] = rect;
    });
    if (actions.length) y += 46;
    y += 16;
    const ph = Math.min(height - top - 8, y - top);
    this.panelRect = { x: px, y: top, w: pw, h: ph };
    panel.fillStyle(0x10281c, 0.97).fillRoundedRect(px, top, pw, ph, 18);
    panel.lineStyle(3, C.gold, 1).strokeRoundedRect(px, top, pw, ph, 18);
  }

  close(): void {
    for (const o of this.objects) o.destroy();
    for (const b of this.buttons) b.destroy();
    this.objects = [];
    this.buttons = [];
    this.data = null;
    this.buttonRects = {};
    this.panelRect = null;
  }
}
