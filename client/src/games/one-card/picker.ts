/**
 * The 원카드 suit/colour picker (§9: four large buttons for 7 and wild cards),
 * modal over the table. State: the shown choices and their rects (the test
 * hook reports them); `close()` is safe to call when nothing is shown.
 */
import type Phaser from 'phaser';
import { COLOR_NAME_KO, COLORS, SUIT_NAME_KO, SUIT_SYMBOL, SUITS, type Color, type Suit } from '../../cards/model.ts';
import type { Rect } from '../../table-kit/rect.ts';
import { textStyle } from '../../table-kit/theme.ts';
import { choiceTexture } from '../../table-kit/textures.ts';
import { Button } from '../../table-kit/widgets.ts';

export type PickerChoice = { suit: Suit } | { color: Color };

export interface PickerOption {
  value: string;
  label: string;
  rect: Rect;
}

/** Modal choice of a suit (classic 7) or colour (wilds, colour start card). */
export class Picker {
  private objects: Phaser.GameObjects.GameObject[] = [];
  private cancel: Button | null = null;
  options: PickerOption[] = [];
  kind: 'suit' | 'color' | null = null;

  constructor(private readonly scene: Phaser.Scene) {}

  get open(): boolean {
    return this.kind !== null;
  }

  show(
    kind: 'suit' | 'color',
    width: number,
    height: number,
    title: string,
    onPick: (c: PickerChoice) => void,
    onCancel: (() => void) | null,
  ): void {
    this.close();
    this.kind = kind;
    const s = this.scene;
    const dim = s.add.rectangle(0, 0, width, height, 0x000000, 0.55).setOrigin(0).setDepth(800).setInteractive();
    const size = Math.min(130, (Math.min(width, 560) - 60) / 2);
    const gridW = size * 2 + 20;
    const x0 = (width - gridW) / 2;
    const y0 = Math.max(60, (height - (size * 2 + 20 + 60)) / 2);
    const titleText = s.add
      .text(width / 2, y0 - 36, title, textStyle(20, '#ffffff', 800))
      .setOrigin(0.5)
      .setDepth(801);
    this.objects.push(dim, titleText);
    const items: PickerChoice[] =
      kind === 'suit' ? SUITS.map((suit) => ({ suit })) : COLORS.map((color) => ({ color }));
    this.options = [];
    items.forEach((choice, i) => {
      const x = x0 + (i % 2) * (size + 20);
      const y = y0 + Math.floor(i / 2) * (size + 20);
      const panel = s.add.graphics().setDepth(801);
      panel.fillStyle(0x10281c, 0.95).fillRoundedRect(x, y, size, size, 18);
      panel.lineStyle(3, 0xffffff, 0.8).strokeRoundedRect(x, y, size, size, 18);
      const icon = s.add
        .image(x + size / 2, y + size * 0.42, choiceTexture(s, choice))
        .setDisplaySize(size * 0.58, size * 0.58)
        .setDepth(802);
      const label =
        'suit' in choice ? `${SUIT_SYMBOL[choice.suit]} ${SUIT_NAME_KO[choice.suit]}` : COLOR_NAME_KO[choice.color];
      const text = s.add
        .text(x + size / 2, y + size * 0.84, label, textStyle(Math.round(size * 0.13), '#ffffff', 800))
        .setOrigin(0.5)
        .setDepth(802);
      const zone = s.add.zone(x, y, size, size).setOrigin(0).setDepth(803).setInteractive({ useHandCursor: true });
      zone.on('pointerup', () => {
        this.close();
        onPick(choice);
      });
      this.objects.push(panel, icon, text, zone);
      this.options.push({
        value: 'suit' in choice ? choice.suit : choice.color,
        label,
        rect: { x, y, w: size, h: size },
      });
    });
    if (onCancel) {
      this.cancel = new Button(
        s,
        '취소',
        'secondary',
        () => {
          this.close();
          onCancel();
        },
        802,
      ).setRect({ x: width / 2 - 60, y: y0 + size * 2 + 36, w: 120, h: 44 });
    }
  }

  close(): void {
    for (const o of this.objects) o.destroy();
    this.objects = [];
    this.cancel?.destroy();
    this.cancel = null;
    this.options = [];
    this.kind = null;
  }

  get cancelRect(): Rect | null {
    return this.cancel ? this.cancel.rect : null;
  }
}
