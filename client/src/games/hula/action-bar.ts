/**
 * The row(s) of 훌라 action buttons: one canvas button per action key, shown
 * only when the controls say so, placed by the pure barRects.
 */
import type Phaser from 'phaser';
import { Button } from '../../table-kit/widgets.ts';
import { ACTION_KEYS, type ActionKey, type HulaControls } from './controls.ts';
import { barRects, type HulaLayout } from './layout.ts';

export class ActionBar {
  readonly buttons: Record<ActionKey, Button>;

  constructor(scene: Phaser.Scene, onPress: (k: ActionKey) => void) {
    this.buttons = Object.fromEntries(
      ACTION_KEYS.map((k) => [k, new Button(scene, k, k === 'pass' ? 'secondary' : 'primary', () => onPress(k))]),
    ) as Record<ActionKey, Button>;
    this.buttons.stop.setKind('danger');
  }

  /** `hidden`: a result panel is open and carries its own buttons. */
  place(c: HulaControls, l: HulaLayout, hidden: boolean, busy: boolean): void {
    const shown = hidden ? [] : ACTION_KEYS.filter((k) => c.buttons[k].visible);
    const rects = barRects(l, shown.length);
    for (const k of ACTION_KEYS) this.buttons[k].setVisible(false);
    rects.forEach((rect, i) => {
      const spec = c.buttons[shown[i]];
      this.buttons[shown[i]]
        .setVisible(true)
        .setRect(rect)
        .setText(spec.label)
        .setEnabled(spec.enabled && !busy);
    });
  }
}
