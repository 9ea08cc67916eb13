/**
 * The 훌라 result screens over the table: after each round (ranking, hand
 * points, 박, points moved, running totals and a 준비 button) and at the end
 * of the game (final ranking, back to the waiting room or the lobby).
 * Two lines per player (three when a long name meets the total); every
 * name is shown whole, and five players fit a phone either way up.
 */
import Phaser from 'phaser';
import type { Rect } from '../../table-kit/rect.ts';
import { C, textStyle } from '../../table-kit/theme.ts';
import { Button } from '../../table-kit/widgets.ts';
import type { HulaResultData } from './result-rows.ts';
import { clearOfChatButton } from '../../chat/chat-place.ts';

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

  /**
   * Draws the panel; when it would run past the bottom of the screen (five
   * players on a phone on its side) it is drawn again compact: smaller type,
   * tighter rows and, on a wide screen, a wider panel so details keep to one line.
   */
  show(data: HulaResultData, width: number, height: number, actions: PanelAction[]): void {
    for (const compact of [false, true]) {
      this.close();
      this.data = data;
      const bottom = this.draw(data, width, height, actions, compact);
      if (bottom <= height - 4) return;
    }
  }

  /** Draws everything; returns where the panel ends. */
  private draw(data: HulaResultData, width: number, height: number, actions: PanelAction[], compact: boolean): number {
    const s = this.scene;
    const m = compact
      ? { title: 19, name: 15, small: 11, line: 19, rowMin: 38, button: 40, gap: 4 }
      : { title: 24, name: 16, small: 12, line: 22, rowMin: 52, button: 46, gap: 10 };
    const pw = Math.min(width - 20, compact && width > 600 ? 720 : 560);
    const px = (width - pw) / 2;
    const top = clearOfChatButton(px, pw, compact ? 8 : Math.max(12, Math.min(height * 0.08, 80)), height);
    const dim = s.add.rectangle(0, 0, width, height, 0x000000, 0.55).setOrigin(0).setDepth(960).setInteractive();
    const panel = s.add.graphics().setDepth(961);
    this.objects.push(dim, panel);
    const add = <T extends Phaser.GameObjects.Text>(t: T): T => {
      t.setDepth(962);
      this.objects.push(t);
      return t;
    };
    let y = top + (compact ? 10 : 16);
    const title = add(s.add.text(width / 2, y, data.title, textStyle(m.title, '#ffd84a', 800)).setOrigin(0.5, 0));
    y += title.height + (compact ? 2 : 6);
    if (data.summary) {
      const sum = add(
        s.add
          .text(width / 2, y, data.summary, textStyle(compact ? 12 : 14, '#ffffff', 600, { align: 'center' }))
          .setOrigin(0.5, 0)
          .setWordWrapWidth(pw - 32, true),
      );
      y += sum.height + m.gap;
    }
    const nameX = px + (compact ? 54 : 62);
    for (const row of data.rows) {
      let highlight: Phaser.GameObjects.Graphics | null = null;
      if (row.me) {
        const hl = s.add.graphics().setDepth(961);
        this.objects.push(hl);
        highlight = hl;
      }
      add(s.add.text(px + 16, y, `${row.rank}등`, textStyle(m.name, row.rank === 1 ? '#ffd84a' : '#ffffff', 800)));
      // The game's end leads with each player's total; a round's end with what the round moved.
      const deltaColor = row.delta.startsWith('+') ? '#7ee081' : row.delta.startsWith('−') ? '#ff9f94' : '#ffffff';
      const big = data.final ? `합계 ${row.total}` : row.delta;
      const small = data.final ? `이번 판 ${row.delta}` : `합계 ${row.total}`;
      const right = px + pw - 16;
      const value = add(
        s.add.text(right, y, big, textStyle(m.name, data.final ? '#ffd84a' : deltaColor, 800)).setOrigin(1, 0),
      );
      // The whole name, always: smaller type first; if it still meets the total, the total drops a line.
      const name = add(s.add.text(nameX, y, row.name + (row.me ? ' (나)' : ''), textStyle(m.name, '#ffffff', 700)));
      const room = () => right - nameX - value.width - 10;
      for (let size = m.name - 1; name.width > room() && size >= 12; size--) name.setFontSize(size);
      let line = y + m.line;
      if (name.width > room()) {
        value.setY(line);
        line += m.line;
        fitText(name, right - nameX);
      }
      const detailW = right - nameX - 110;
      const detail = add(
        s.add
          .text(nameX, line, `손패 ${row.hand}  ·  ${row.bak}`, textStyle(m.small, '#c9dcd2', 600))
          .setWordWrapWidth(detailW, true),
      );
      add(s.add.text(right, line, small, textStyle(m.small, '#c9dcd2', 600)).setOrigin(1, 0));
      const rowH = Math.max(m.rowMin, line - y + detail.height + (compact ? 4 : 8));
      highlight?.fillStyle(0xffd84a, 0.16).fillRoundedRect(px + 8, y - 3, pw - 16, rowH - 3, 8);
      y += rowH;
    }
    y += compact ? 2 : 6;
    const bw = Math.min(180, (pw - 40 - 12 * (actions.length - 1)) / Math.max(1, actions.length));
    const total = bw * actions.length + 12 * (actions.length - 1);
    this.buttonRects = {};
    actions.forEach((a, i) => {
      const rect = { x: width / 2 - total / 2 + i * (bw + 12), y, w: bw, h: m.button };
      this.buttons.push(new Button(s, a.label, i === 0 ? 'primary' : 'secondary', a.onTap, 963).setRect(rect));
      this.buttonRects[a.key] = rect;
    });
    if (actions.length) y += m.button;
    y += compact ? 10 : 16;
    const ph = Math.min(height - top - 4, y - top);
    this.panelRect = { x: px, y: top, w: pw, h: ph };
    panel.fillStyle(0x10281c, 0.97).fillRoundedRect(px, top, pw, ph, 18);
    panel.lineStyle(3, C.gold, 1).strokeRoundedRect(px, top, pw, ph, 18);
    return y;
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
