/** Card faces become Phaser textures on first use (two decks share faces, so there are few). */
import type Phaser from 'phaser';
import { drawCardBack, drawCardFace, drawChoiceIcon } from '../cards/art.ts';
import { paletteKey } from '../cards/art-common.ts';
import { faceKey, type Card, type Color, type Suit } from '../cards/model.ts';

export function faceTexture(scene: Phaser.Scene, card: Card): string {
  const key = faceKey(card) + paletteKey();
  if (!scene.textures.exists(key)) scene.textures.addCanvas(key, drawCardFace(card));
  return key;
}

export function backTexture(scene: Phaser.Scene, deck: 'classic' | 'color'): string {
  const key = `back-${deck}`;
  if (!scene.textures.exists(key)) scene.textures.addCanvas(key, drawCardBack(deck));
  return key;
}

export function choiceTexture(scene: Phaser.Scene, choice: { suit: Suit } | { color: Color }): string {
  const key = 'suit' in choice ? `choice-${choice.suit}${paletteKey()}` : `choice-${choice.color}`;
  if (!scene.textures.exists(key)) scene.textures.addCanvas(key, drawChoiceIcon(choice, 128));
  return key;
}
