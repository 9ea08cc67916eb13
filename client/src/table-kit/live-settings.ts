/**
 * Applies a settings change to an open table without rebuilding it (§9 접근성):
 * a 4-colour switch only needs a redraw (face textures are keyed by palette),
 * a large-text switch also rescales every Text already on the scene, since most
 * were sized once at creation through textStyle(). Sizes set on each layout go
 * through tx() and come out right after the redraw anyway.
 * Unsubscribes on the scene's shutdown so a closed table holds no listener.
 */
import Phaser from 'phaser';
import { onSettings, textScale } from '../settings.ts';

function rescale(list: Phaser.GameObjects.GameObject[], ratio: number): void {
  for (const o of list) {
    if (o instanceof Phaser.GameObjects.Container) rescale(o.list, ratio);
    else if (o instanceof Phaser.GameObjects.Text) {
      const px = parseFloat(String(o.style.fontSize));
      if (Number.isFinite(px)) o.setFontSize(Math.round(px * ratio));
    }
  }
}

export function followTableSettings(scene: Phaser.Scene, redraw: () => void): () => void {
  let scale = textScale();
  const off = onSettings(() => {
    const next = textScale();
    if (next !== scale) rescale(scene.children.list, next / scale);
    scale = next;
    redraw();
  });
  scene.events.once('shutdown', off);
  return off;
}
