/**
 * Every piece of text a table scene shows right now, with the rectangle it
 * covers in CSS pixels (the world the layouts use). The test hook reports
 * it so browser tests can check what a player actually reads: no label off
 * the screen, no two labels on top of each other, no word-wrap leaving a
 * lone bracket on its own line — whatever the layout rectangles promise.
 * Objects in the middle of a tween are left out: they are passing through.
 */
import Phaser from 'phaser';

export interface ShownLabel {
  text: string;
  x: number;
  y: number;
  w: number;
  h: number;
  /** Draw order (overlays such as toasts sit far above the table). */
  depth: number;
  /** Lines as the text wraps on screen. */
  lines: string[];
}

function shown(o: Phaser.GameObjects.GameObject): boolean {
  const v = o as unknown as { visible?: boolean; alpha?: number };
  return v.visible !== false && (v.alpha ?? 1) > 0.05;
}

function collect(scene: Phaser.Scene, list: Phaser.GameObjects.GameObject[], depth: number, out: ShownLabel[]): void {
  for (const o of list) {
    // Something in flight (a chip stack, a card being dealt) has no place of its own yet.
    if (!shown(o) || scene.tweens.isTweening(o)) continue;
    const d = depth || ((o as unknown as { depth?: number }).depth ?? 0);
    if (o instanceof Phaser.GameObjects.Container) collect(scene, o.list, d, out);
    else if (o instanceof Phaser.GameObjects.Text && o.text.trim() !== '') {
      const b = o.getBounds();
      out.push({
        text: o.text,
        x: b.x,
        y: b.y,
        w: b.width,
        h: b.height,
        depth: d,
        lines: o.getWrappedText(o.text).map((l) => l.trim()),
      });
    }
  }
}

export function shownLabels(scene: Phaser.Scene): ShownLabel[] {
  const out: ShownLabel[] = [];
  collect(scene, scene.children.list, 0, out);
  return out;
}
