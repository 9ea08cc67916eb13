/** Colours and text styles of the table, in one place so the screens agree. */
import type Phaser from 'phaser';
import { FONT } from '../cards/art.ts';
import { textScale } from '../settings.ts';

export { FONT };

export const C = {
  felt: 0x175c3c,
  feltDark: 0x0f4029,
  feltLine: 0x2a7a53,
  panel: 0x10281c,
  ink: 0x1c1d24,
  white: 0xffffff,
  gold: 0xf2c14e,
  legal: 0xffd84a,
  counter: 0xff7a3d,
  selected: 0x7fe3ff,
  danger: 0xe5483f,
  primary: 0x2f80ed,
  primaryDark: 0x1f5fb8,
  muted: 0x5d6b64,
  disabled: 0x3c4a43,
  away: 0xb9a34a,
  offline: 0x9aa3a0,
} as const;

export const SEAT_COLORS = [
  0xe07a5f, 0x3d85c6, 0x81b29a, 0xf2cc8f, 0x9b72cf, 0x4fb0c6, 0xd96c9b, 0x8aa05b, 0xc9874b, 0x6c7fd8,
];

export function textStyle(
  size: number,
  color = '#ffffff',
  weight: 400 | 600 | 700 | 800 = 600,
  extra: Phaser.Types.GameObjects.Text.TextStyle = {},
): Phaser.Types.GameObjects.Text.TextStyle {
  return {
    fontFamily: FONT,
    fontSize: `${tx(size)}px`,
    fontStyle: String(weight),
    color,
    resolution: Math.min(3, Math.max(1, globalThis.devicePixelRatio || 1)),
    ...extra,
  };
}

/** A text size in the player's text scale (§9 큰 글씨 모드); every size set on a Text goes through here. */
export function tx(size: number): number {
  return Math.round(size * textScale());
}

export function hex(c: number): string {
  return `#${c.toString(16).padStart(6, '0')}`;
}
