/**
 * Canvas buttons for the table. Each is a container centred on its rectangle
 * (so a shake or pop scales around the middle) holding a drawn background,
 * a label and an input zone. The test hook reads `rect` and `enabled`.
 */
import Phaser from 'phaser';
import type { Rect } from './rect.ts';
import { C, textStyle, tx } from './theme.ts';

export type ButtonKind = 'primary' | 'secondary' | 'danger' | 'toggle' | 'round' | 'ghost';

export class Button {
  readonly container: Phaser.GameObjects.Container;
  readonly rect: Rect = { x: 0, y: 0, w: 0, h: 0 };
  enabled = true;
  visible = true;
  /** For toggles: drawn as on. */
  on = false;
  /** Called when a disabled button is tapped (the table says why it cannot be used). */
  onRefused: (() => void) | null = null;
  private readonly bg: Phaser.GameObjects.Graphics;
  private readonly label: Phaser.GameObjects.Text;
  private readonly zone: Phaser.GameObjects.Zone;
  private text: string;

  constructor(
    private readonly scene: Phaser.Scene,
    text: string,
    private kind: ButtonKind,
    onTap: () => void,
    depth = 50,
  ) {
    this.text = text;
    this.bg = scene.add.graphics();
    this.label = scene.add.text(0, 0, text, textStyle(16, '#ffffff', 700, { align: 'center' })).setOrigin(0.5);
    this.zone = scene.add.zone(0, 0, 10, 10).setOrigin(0.5);
    this.zone.setInteractive({ useHandCursor: true });
    this.zone.on('pointerup', () => {
      if (this.enabled && this.visible) onTap();
      else if (this.visible) this.onRefused?.();
    });
    this.container = scene.add.container(0, 0, [this.bg, this.label, this.zone]).setDepth(depth);
  }

  setRect(rect: Rect): this {
    Object.assign(this.rect, rect);
    this.container.setPosition(rect.x + rect.w / 2, rect.y + rect.h / 2);
    this.zone.setSize(rect.w, rect.h);
    if (this.zone.input) {
      (this.zone.input.hitArea as Phaser.Geom.Rectangle).setTo(0, 0, rect.w, rect.h);
    }
    this.redraw();
    return this;
  }

  setText(text: string): this {
    if (text !== this.text) {
      this.text = text;
      this.label.setText(text);
      this.fitLabel();
    }
    return this;
  }

  setKind(kind: ButtonKind): this {
    if (kind !== this.kind) {
      this.kind = kind;
      this.redraw();
    }
    return this;
  }

  setEnabled(enabled: boolean): this {
    if (enabled !== this.enabled) {
      this.enabled = enabled;
      this.redraw();
    }
    return this;
  }

  setOn(on: boolean): this {
    if (on !== this.on) {
      this.on = on;
      this.redraw();
    }
    return this;
  }

  setVisible(visible: boolean): this {
    this.visible = visible;
    this.container.setVisible(visible);
    return this;
  }

  get label_(): string {
    return this.text;
  }

  private fitLabel(): void {
    const { w, h } = this.rect;
    if (w < 24 || h < 16) return;
    const round = this.kind === 'round';
    // Large text grows the label up to what the button holds; the loop below shrinks it if it does not fit.
    let size = tx(round ? Math.round(h * 0.22) : Math.min(18, Math.round(h * 0.42)));
    this.label.setFontSize(size);
    this.label.setWordWrapWidth(round ? w * 0.8 : w - 8, true);
    // Shrink before breaking a word: wrapping may only happen between words ("가져오기" must never become
    // "가져오 / 기" on a narrow phone).
    const words = this.text.split(/\s+/).filter(Boolean).length;
    const broken = () => this.label.getWrappedText().length > words;
    while (size > 10 && (this.label.width > w - 8 || this.label.height > h - 4 || broken())) {
      size -= 1;
      this.label.setFontSize(size);
    }
  }

  private redraw(): void {
    const { w, h } = this.rect;
    const g = this.bg;
    g.clear();
    const disabled = !this.enabled;
    let fill: number = C.primary;
    let stroke: number = C.primaryDark;
    let textColor = '#ffffff';
    switch (this.kind) {
      case 'secondary':
        fill = 0x24493a;
        stroke = 0x3f7a61;
        break;
      case 'danger':
        fill = C.danger;
        stroke = 0xa8302a;
        break;
      case 'toggle':
        fill = this.on ? 0xf2c14e : 0x24493a;
        stroke = this.on ? 0xb88a1e : 0x3f7a61;
        textColor = this.on ? '#1c1d24' : '#e8f1ec';
        break;
      case 'ghost':
        fill = 0x000000;
        stroke = 0x3f7a61;
        break;
      case 'round':
        fill = this.on ? C.danger : 0xf2c14e;
        stroke = this.on ? 0xa8302a : 0xb88a1e;
        textColor = this.on ? '#ffffff' : '#1c1d24';
        break;
      default:
        break;
    }
    if (disabled) {
      fill = C.disabled;
      stroke = 0x2c3833;
      textColor = '#8d9a93';
    }
    const alpha = this.kind === 'ghost' ? 0.25 : 1;
    if (this.kind === 'round') {
      const rad = Math.min(w, h) / 2;
      g.fillStyle(0x000000, 0.25).fillCircle(0, 4, rad);
      g.fillStyle(fill, 1).fillCircle(0, 0, rad);
      g.lineStyle(4, stroke, 1).strokeCircle(0, 0, rad - 2);
    } else {
      const rad = Math.min(12, h / 2);
      if (!disabled && this.kind !== 'ghost')
        g.fillStyle(0x000000, 0.22).fillRoundedRect(-w / 2, -h / 2 + 3, w, h, rad);
      g.fillStyle(fill, alpha).fillRoundedRect(-w / 2, -h / 2, w, h, rad);
      g.lineStyle(2, stroke, 1).strokeRoundedRect(-w / 2, -h / 2, w, h, rad);
    }
    this.label.setColor(textColor);
    this.fitLabel();
  }

  destroy(): void {
    this.container.destroy();
  }
}
