/**
 * One seat around the top of the table (§9): avatar with initial, hand-count
 * badge, name, state line (나감/파산/연결 끊김/자리 비움), a glow on the
 * player to move and the turn timer ring around the avatar.
 */
import Phaser from 'phaser';
import { initialOf, type SeatInfo } from './controls.ts';

export type { SeatInfo };
import type { Rect } from '../../table-kit/rect.ts';
import { C, SEAT_COLORS, textStyle, tx } from '../../table-kit/theme.ts';
import { clockStep } from '../../table-kit/clock-steps.ts';

export class SeatBadge {
  readonly container: Phaser.GameObjects.Container;
  rect: Rect = { x: 0, y: 0, w: 0, h: 0 };
  info: SeatInfo | null = null;
  private readonly glow: Phaser.GameObjects.Graphics;
  private readonly avatar: Phaser.GameObjects.Graphics;
  private readonly ring: Phaser.GameObjects.Graphics;
  private readonly initial: Phaser.GameObjects.Text;
  private readonly countBg: Phaser.GameObjects.Graphics;
  private readonly countText: Phaser.GameObjects.Text;
  private readonly nameText: Phaser.GameObjects.Text;
  private readonly stateText: Phaser.GameObjects.Text;
  private readonly tag: Phaser.GameObjects.Text;
  private radius = 20;
  private avatarY = 24;
  private lastFrac: number | null = -1;

  constructor(scene: Phaser.Scene, depth = 20) {
    this.glow = scene.add.graphics();
    this.avatar = scene.add.graphics();
    this.ring = scene.add.graphics();
    this.initial = scene.add.text(0, 0, '', textStyle(18, '#ffffff', 800)).setOrigin(0.5);
    this.countBg = scene.add.graphics();
    this.countText = scene.add.text(0, 0, '', textStyle(13, '#1c1d24', 800)).setOrigin(0.5);
    this.nameText = scene.add.text(0, 0, '', textStyle(12, '#ffffff', 700)).setOrigin(0.5, 0);
    this.stateText = scene.add.text(0, 0, '', textStyle(10, '#d8e6de', 600)).setOrigin(0.5, 0);
    this.tag = scene.add
      .text(0, 0, '1장!', textStyle(11, '#1c1d24', 800, { backgroundColor: '#ffd84a', padding: { x: 4, y: 1 } }))
      .setOrigin(0.5)
      .setVisible(false);
    this.container = scene.add
      .container(0, 0, [
        this.glow,
        this.avatar,
        this.ring,
        this.initial,
        this.countBg,
        this.countText,
        this.nameText,
        this.stateText,
        this.tag,
      ])
      .setDepth(depth);
  }

  /** Centre of the avatar in scene coordinates (cards fly to and from here). */
  get anchor(): { x: number; y: number } {
    return { x: this.rect.x + this.rect.w / 2, y: this.rect.y + this.avatarY };
  }

  setRect(rect: Rect): void {
    this.rect = rect;
    this.container.setPosition(rect.x, rect.y);
    const mini = rect.h <= 60;
    const compact = rect.h < 70;
    this.radius = mini
      ? Math.min(rect.w, rect.h) / 2 - 5
      : compact
        ? 15
        : Math.min(rect.w * 0.3, (rect.h - 40) / 2, 30);
    this.avatarY = mini ? rect.h / 2 : this.radius + 6;
    this.nameText.setVisible(!mini);
    const cx = rect.w / 2;
    const nameSize = tx(compact ? 11 : Math.max(12, Math.round(this.radius * 0.6)));
    this.initial.setPosition(cx, this.avatarY).setFontSize(Math.round(this.radius * 0.95));
    this.nameText.setPosition(cx, this.avatarY + this.radius + 4).setFontSize(nameSize);
    this.stateText.setPosition(cx, this.avatarY + this.radius + 6 + nameSize + 1).setFontSize(tx(compact ? 9 : 11));
    this.stateText.setVisible(!mini && rect.h - (this.avatarY + this.radius + 6 + nameSize) >= 10);
    this.countText.setPosition(cx + this.radius + 2, this.avatarY + this.radius * 0.55);
    this.tag.setPosition(cx - this.radius - 2, this.avatarY - this.radius + 4);
    this.lastFrac = -1;
    if (this.info) this.update(this.info, true);
  }

  update(info: SeatInfo, force = false): void {
    const prev = this.info;
    this.info = info;
    const { w, h } = this.rect;
    const cx = w / 2;
    const r = this.radius;
    if (force || !prev || prev.current !== info.current || prev.status !== info.status) {
      this.glow.clear();
      if (info.current) {
        this.glow.fillStyle(C.legal, 0.18).fillRoundedRect(0, 0, w, h, 12);
        this.glow.lineStyle(3, C.legal, 1).strokeRoundedRect(1, 1, w - 2, h - 2, 12);
      } else {
        this.glow.fillStyle(0x000000, 0.18).fillRoundedRect(0, 0, w, h, 12);
      }
    }
    const color = SEAT_COLORS[info.seatIndex % SEAT_COLORS.length];
    const gone = info.status !== 'playing';
    this.avatar.clear();
    this.avatar.fillStyle(gone || !info.connected ? 0x55605a : color, 1).fillCircle(cx, this.avatarY, r);
    this.avatar.lineStyle(2, 0xffffff, info.isMe ? 1 : 0.6).strokeCircle(cx, this.avatarY, r);
    this.initial.setText(info.isMe ? '나' : initialOf(info.name));
    this.initial.setAlpha(gone ? 0.6 : 1);

    const label = String(info.count);
    this.countText.setText(label);
    this.countBg.clear();
    const bw = Math.max(22, this.countText.width + 10);
    const bx = this.countText.x - bw / 2;
    const by = this.countText.y - 10;
    this.countBg.fillStyle(info.count === 1 ? C.legal : 0xffffff, 1).fillRoundedRect(bx, by, bw, 20, 10);
    this.countBg.lineStyle(2, C.ink, 0.8).strokeRoundedRect(bx, by, bw, 20, 10);
    // A tiny card glyph at the pill's left edge says "cards in hand" without words.
    this.countBg.fillStyle(0x1f3a68, 1).fillRect(bx - 6, by + 2, 10, 14);
    this.countBg.lineStyle(1, 0xffffff, 1).strokeRect(bx - 6, by + 2, 10, 14);

    const maxName = Math.max(4, Math.floor(w / 11));
    const name = [...info.name].length > maxName ? `${[...info.name].slice(0, maxName - 1).join('')}…` : info.name;
    this.nameText.setText(name);
    this.stateText.setText(stateLabel(info));
    this.stateText.setColor(
      info.status === 'bankrupt' ? '#ff8a80' : !info.connected ? '#c7cfcb' : info.away ? '#ffe08a' : '#d8e6de',
    );
    this.tag.setVisible(info.oneCard && info.status === 'playing');
  }

  /** Turn timer ring; null hides it. Redraws only when it visibly changes. */
  setTimer(frac: number | null): void {
    const q = frac === null ? null : clockStep(frac);
    if (q === this.lastFrac) return;
    this.lastFrac = q;
    this.ring.clear();
    if (q === null) return;
    const cx = this.rect.w / 2;
    const color = q > 0.5 ? 0x7ee081 : q > 0.2 ? 0xffd84a : 0xff6b5e;
    this.ring.lineStyle(4, 0x000000, 0.35).strokeCircle(cx, this.avatarY, this.radius + 4);
    this.ring.lineStyle(4, color, 1);
    this.ring.beginPath();
    this.ring.arc(cx, this.avatarY, this.radius + 4, -Math.PI / 2, -Math.PI / 2 + q * Math.PI * 2, false);
    this.ring.strokePath();
  }

  destroy(): void {
    this.container.destroy();
  }
}

export function stateLabel(info: SeatInfo): string {
  if (info.status === 'bankrupt') return '파산';
  if (info.status === 'out') return info.place ? `${info.place}등 완료` : '완료';
  if (!info.connected && !info.bot) return '연결 끊김';
  if (info.away) return '자리 비움';
  if (info.bot) return '봇';
  return '';
}
