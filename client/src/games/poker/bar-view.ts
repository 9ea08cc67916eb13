/**
 * The action bar on the canvas: a pool of buttons laid out from the pure bar
 * (actions.ts) at the bottom of the bar area, and the prompt above them.
 */
import type Phaser from 'phaser';
import { textStyle } from '../../table-kit/theme.ts';
import { Button } from '../../table-kit/widgets.ts';
import type { ActionButton, Bar } from './actions.ts';
import { statusLine } from './status.ts';
import { barCells, type PokerLayout } from './layout.ts';
import type { PokerView } from './model.ts';
import { raisePanelRects, type RaiseSlider } from './raise-slider.ts';
import { RaiseSliderView } from './raise-slider-view.ts';

const MAX_BUTTONS = 12;

export class ActionBarView {
  private readonly pool: Button[] = [];
  private shown: ActionButton[] = [];
  private readonly prompt: Phaser.GameObjects.Text;
  private readonly slider: RaiseSliderView;

  constructor(
    scene: Phaser.Scene,
    onPress: (a: ActionButton) => void,
    onRefused: (a: ActionButton) => void = () => undefined,
    onSlide: (raiseTo: number) => void = () => undefined,
  ) {
    this.slider = new RaiseSliderView(scene, onSlide);
    this.prompt = scene.add
      .text(0, 0, '', textStyle(15, '#ffe7a3', 700))
      .setOrigin(0.5)
      .setDepth(40);
    for (let i = 0; i < MAX_BUTTONS; i++) {
      const b = new Button(scene, '', 'primary', () => {
        const a = this.shown[i];
        if (a) onPress(a);
      });
      b.onRefused = () => {
        const a = this.shown[i];
        if (a) onRefused(a);
      };
      b.setVisible(false);
      this.pool.push(b);
    }
  }

  update(l: PokerLayout, v: PokerView, bar: Bar, busy: boolean): void {
    this.shown = bar.buttons.slice(0, MAX_BUTTONS);
    const rows = Math.max(1, Math.ceil(this.shown.length / bar.perRow));
    const rowH = (l.actions.h - (l.actionRows - 1) * 8) / l.actionRows;
    const used = Math.min(l.actionRows, rows);
    // Buttons sit at the bottom, under the thumb; the prompt takes the free rows above.
    const area = {
      ...l.actions,
      y: l.actions.y + l.actions.h - used * rowH - (used - 1) * 8,
      h: used * rowH + (used - 1) * 8,
    };
    // The NL/PL raise panel has its own shape: − [slider] + over the quick buttons and the confirm.
    const panel = bar.slider ? raisePanelRects(l.actions, l.actionRows, this.shown.length - 4) : null;
    if (panel) Object.assign(area, { y: l.actions.y, h: l.actions.h });
    const cells = panel ? panel.cells : barCells(area, this.shown.length, bar.perRow);
    this.slider.update(panel?.slider ?? null, bar.slider ?? null, !busy);
    this.pool.forEach((b, i) => {
      const a = this.shown[i];
      b.setVisible(!!a);
      if (a)
        b.setRect(cells[i])
          .setKind(a.kind)
          .setText(a.label)
          .setEnabled(a.enabled && !busy);
    });
    const free = l.actions.h - area.h;
    // The table's middle already says the game is over (drawCenter): the bar does not say it twice.
    const idle = v.viewer !== null && this.shown.length === 0 && v.phase !== 'finished';
    const prompt = bar.prompt || (idle ? statusLine(v) : '');
    this.prompt
      .setPosition(l.actions.x + l.actions.w / 2, l.actions.y + (free - 8) / 2)
      .setText(prompt)
      .setWordWrapWidth(l.actions.w, true)
      .setVisible(v.viewer !== null && free > 20);
  }

  /** The raise slider as drawn (for the test hook), or null when the raise panel is closed. */
  sliderShown():
    (RaiseSlider & { rect: { x: number; y: number; w: number; h: number }; thumb: { x: number; y: number } }) | null {
    const s = this.slider.shown();
    const thumb = this.slider.thumb();
    return s && thumb ? { ...s, rect: { ...this.slider.rect }, thumb } : null;
  }

  /** Visible buttons with what they do (for the test hook). */
  visible(): { b: Button; a: ActionButton }[] {
    return this.pool.flatMap((b, i) => (this.shown[i] && b.visible ? [{ b, a: this.shown[i] }] : []));
  }
}
