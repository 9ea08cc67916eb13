/**
 * Poker cards on the canvas with the shared card art (client/src/cards):
 * faces, the classic back for hidden cards, and the indian "?" card the
 * owner sees in place of their own forehead.
 */
import type Phaser from 'phaser';
import { drawCardBack } from '../../cards/art.ts';
import { FONT, TEX_H, TEX_W } from '../../cards/art-common.ts';
import { backTexture, faceTexture } from '../../table-kit/textures.ts';
import type { Rect } from '../../table-kit/rect.ts';
import { artCard, isHidden, type Card, type CardSlot } from './model.ts';

/** What to draw in one card place: a face, a back, or the owner's unknown forehead. */
export type Shown = CardSlot | 'forehead';

export function questionTexture(scene: Phaser.Scene): string {
  const key = 'poker-forehead-unknown';
  if (scene.textures.exists(key)) return key;
  const c = drawCardBack('classic');
  const g = c.getContext('2d')!;
  g.fillStyle = '#fdfdfd';
  g.beginPath();
  g.arc(TEX_W / 2, TEX_H / 2, 58, 0, Math.PI * 2);
  g.fill();
  g.fillStyle = '#c0392b';
  g.font = `900 86px ${FONT}`;
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  g.fillText('?', TEX_W / 2, TEX_H / 2 + 4);
  scene.textures.addCanvas(key, c);
  return key;
}

export function textureOf(scene: Phaser.Scene, c: Shown): string {
  if (c === 'forehead') return questionTexture(scene);
  if (isHidden(c)) return backTexture(scene, 'classic');
  return faceTexture(scene, artCard(c as Card));
}

/** Adds one card image filling `r` to `into`. */
export function addCard(
  scene: Phaser.Scene,
  into: Phaser.GameObjects.Container,
  c: Shown,
  r: Rect,
  alpha = 1,
): Phaser.GameObjects.Image {
  const img = scene.add
    .image(r.x + r.w / 2, r.y + r.h / 2, textureOf(scene, c))
    .setDisplaySize(r.w, r.h)
    .setAlpha(alpha);
  into.add(img);
  return img;
}

/** Small cards in a row that fits `area` (overlapping when needed), left aligned or centred. */
export function miniRow(area: Rect, n: number, h: number, center = false): Rect[] {
  if (n === 0) return [];
  const w = Math.round(h * (TEX_W / TEX_H));
  const step = n === 1 ? 0 : Math.min(w + 3, (area.w - w) / (n - 1));
  const total = step * (n - 1) + w;
  const x0 = center ? area.x + (area.w - total) / 2 : area.x;
  return Array.from({ length: n }, (_, i) => ({ x: x0 + i * step, y: area.y, w, h }));
}
