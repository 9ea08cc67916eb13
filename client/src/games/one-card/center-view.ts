/**
 * The middle of the table (§9): draw pile with its count, the discard pile
 * (last few cards, slightly askew), the direction arrow, the declared
 * suit/colour chip and the attack counter badge ("+7장!").
 */
import Phaser from 'phaser';
import { COLOR_NAME_KO, SUIT_NAME_KO, SUIT_SYMBOL, type Card, type OneCardView } from '../../cards/model.ts';
import { motionMs } from '../../settings.ts';
import { MotionLog, pop } from '../../table-kit/motion.ts';
import type { TableLayout } from './layout.ts';
import type { Rect } from '../../table-kit/rect.ts';
import { C, textStyle } from '../../table-kit/theme.ts';
import { backTexture, choiceTexture, faceTexture } from '../../table-kit/textures.ts';

function skew(id: string): number {
  let h = 0;
  for (let i = 0; i < id.length; i++) h = (h * 31 + id.charCodeAt(i)) | 0;
  return ((Math.abs(h) % 13) - 6) * 0.012;
}

export class CenterView {
  private readonly felt: Phaser.GameObjects.Graphics;
  private readonly drawImgs: Phaser.GameObjects.Image[] = [];
  private readonly drawCount: Phaser.GameObjects.Text;
  private readonly discardImgs: Phaser.GameObjects.Image[] = [];
  private readonly dirGfx: Phaser.GameObjects.Graphics;
  private readonly dirLabel: Phaser.GameObjects.Text;
  private readonly chipImg: Phaser.GameObjects.Image;
  private readonly chipLabel: Phaser.GameObjects.Text;
  private readonly attackBg: Phaser.GameObjects.Graphics;
  private readonly attackText: Phaser.GameObjects.Text;
  private readonly attackBox: Phaser.GameObjects.Container;
  private layout: TableLayout | null = null;
  private direction: 1 | -1 = 1;
  private attack = 0;
  private readonly attacks = new MotionLog<{ count: number }>(50);
  private deck: 'classic' | 'color' = 'classic';
  private hiddenTop: string | null = null;
  private lastView: OneCardView | null = null;

  constructor(private readonly scene: Phaser.Scene) {
    this.felt = scene.add.graphics().setDepth(1);
    for (let i = 0; i < 3; i++) this.drawImgs.push(scene.add.image(0, 0, '__WHITE').setDepth(10 + i));
    this.drawCount = scene.add
      .text(0, 0, '', textStyle(12, '#d8e6de', 600))
      .setOrigin(0.5, 0)
      .setDepth(12);
    for (let i = 0; i < 5; i++)
      this.discardImgs.push(
        scene.add
          .image(0, 0, '__WHITE')
          .setDepth(10 + i)
          .setVisible(false),
      );
    this.dirGfx = scene.add.graphics().setDepth(10);
    this.dirLabel = scene.add
      .text(0, 0, '', textStyle(10, '#d8e6de', 600))
      .setOrigin(0.5, 0)
      .setDepth(10);
    this.chipImg = scene.add.image(0, 0, '__WHITE').setDepth(10).setVisible(false);
    this.chipLabel = scene.add
      .text(0, 0, '', textStyle(11, '#ffffff', 700))
      .setOrigin(0.5, 0)
      .setDepth(10);
    this.attackBg = scene.add.graphics();
    this.attackText = scene.add.text(0, 0, '', textStyle(20, '#ffffff', 800)).setOrigin(0.5);
    this.attackBox = scene.add.container(0, 0, [this.attackBg, this.attackText]).setDepth(30).setVisible(false);
  }

  setLayout(l: TableLayout): void {
    this.layout = l;
    this.felt.clear();
    const c = l.center;
    this.felt.fillStyle(0x000000, 0.12).fillRoundedRect(c.x, c.y, c.w, c.h, 24);
    this.felt.lineStyle(2, C.feltLine, 0.8).strokeRoundedRect(c.x + 1, c.y + 1, c.w - 2, c.h - 2, 24);
    if (this.lastView) this.update(this.lastView, [], false);
  }

  /** Where a card flying to the discard pile should land. */
  get discardRect(): Rect {
    return this.layout?.discard ?? { x: 0, y: 0, w: 0, h: 0 };
  }

  get drawRect(): Rect {
    return this.layout?.drawPile ?? { x: 0, y: 0, w: 0, h: 0 };
  }

  /** Hide the top discard until a flying card lands on it. */
  hideTopUntil(cardId: string | null): void {
    this.hiddenTop = cardId;
    if (this.lastView) this.renderDiscard(this.lastView);
  }

  update(view: OneCardView, events: { type: string; [k: string]: unknown }[], animate: boolean): void {
    const l = this.layout;
    this.lastView = view;
    if (!l) return;
    this.deck = view.mode === 'classic' ? 'classic' : 'color';
    const back = backTexture(this.scene, this.deck);
    const dp = l.drawPile;
    const layers = view.drawPileCount === 0 ? 0 : Math.min(3, Math.ceil(view.drawPileCount / 15));
    this.drawImgs.forEach((img, i) => {
      img.setTexture(back).setDisplaySize(dp.w, dp.h);
      img.setPosition(dp.x + dp.w / 2 - i * 2, dp.y + dp.h / 2 - i * 2);
      img.setVisible(i < layers);
    });
    this.drawCount.setPosition(dp.x + dp.w / 2, dp.y + dp.h + 4).setText(`남은 카드 ${view.drawPileCount}장`);
    this.renderDiscard(view);
    this.renderDirection(view, animate && events.some((e) => e.type === 'directionChanged'));
    this.renderChip(view, animate && events.some((e) => e.type === 'suitDeclared' || e.type === 'colorDeclared'));
    this.renderAttack(view, animate && events.some((e) => e.type === 'attackStacked'));
  }

  private renderDiscard(view: OneCardView): void {
    const l = this.layout;
    if (!l) return;
    const d = l.discard;
    const cards: Card[] = view.recentDiscards.length > 0 ? view.recentDiscards.slice(-3) : [view.top];
    this.discardImgs.forEach((img, i) => {
      const card = cards[i];
      if (!card) {
        img.setVisible(false);
        return;
      }
      img.setTexture(faceTexture(this.scene, card)).setDisplaySize(d.w, d.h);
      img
        .setPosition(d.x + d.w / 2, d.y + d.h / 2)
        .setRotation(i === cards.length - 1 ? skew(card.id) * 0.4 : skew(card.id));
      img.setVisible(!(i === cards.length - 1 && card.id === this.hiddenTop));
      img.setAlpha(i === cards.length - 1 ? 1 : 0.9);
    });
  }

  private renderDirection(view: OneCardView, changed: boolean): void {
    const l = this.layout!;
    const r = l.direction;
    const cx = r.x + r.w / 2;
    const cy = r.y + r.h / 2;
    const rad = r.w / 2 - 4;
    const g = this.dirGfx;
    g.clear();
    g.setPosition(cx, cy);
    g.fillStyle(0x000000, 0.25).fillCircle(0, 0, rad + 3);
    g.lineStyle(4, 0xffffff, 0.9);
    const cw = view.direction === 1;
    // Two arcs with arrowheads: clockwise when seat indices increase (§4).
    for (const start of [0, Math.PI]) {
      const a0 = start + 0.35;
      const a1 = start + Math.PI - 0.35;
      g.beginPath();
      g.arc(0, 0, rad * 0.68, a0, a1, false);
      g.strokePath();
      const tip = cw ? a1 : a0;
      const tx = Math.cos(tip) * rad * 0.68;
      const ty = Math.sin(tip) * rad * 0.68;
      const dir = cw ? tip + Math.PI / 2 : tip - Math.PI / 2;
      g.fillStyle(0xffffff, 1);
      g.fillTriangle(
        tx + Math.cos(dir) * 7,
        ty + Math.sin(dir) * 7,
        tx + Math.cos(dir + 2.4) * 7,
        ty + Math.sin(dir + 2.4) * 7,
        tx + Math.cos(dir - 2.4) * 7,
        ty + Math.sin(dir - 2.4) * 7,
      );
    }
    this.dirLabel.setPosition(cx, r.y + r.h + 1).setText(cw ? '시계 방향' : '반시계');
    this.dirLabel.setVisible(r.h >= 40);
    if (changed && this.direction !== view.direction && motionMs(250) > 0) {
      g.setRotation(Math.PI);
      this.scene.tweens.add({ targets: g, rotation: 0, duration: motionMs(250), ease: 'Cubic.easeOut' });
    } else g.setRotation(0);
    this.direction = view.direction;
  }

  private renderChip(view: OneCardView, changed: boolean): void {
    const r = this.layout!.declared;
    const suit = view.declaredSuit;
    const color = view.declaredColor;
    if (!suit && !color) {
      this.chipImg.setVisible(false);
      this.chipLabel.setVisible(false);
      return;
    }
    const key = suit ? choiceTexture(this.scene, { suit }) : choiceTexture(this.scene, { color: color! });
    this.chipImg
      .setTexture(key)
      .setDisplaySize(r.w, r.w)
      .setPosition(r.x + r.w / 2, r.y + r.w / 2)
      .setVisible(true);
    this.chipLabel
      .setText(suit ? `${SUIT_SYMBOL[suit]} ${SUIT_NAME_KO[suit].slice(0, 3)}` : `${COLOR_NAME_KO[color!]}`)
      .setPosition(r.x + r.w / 2, r.y + r.w + 2)
      .setVisible(true);
    if (changed && motionMs(200) > 0) {
      const s = this.chipImg.scale;
      this.chipImg.setScale(s * 1.5);
      this.scene.tweens.add({ targets: this.chipImg, scale: s, duration: motionMs(200), ease: 'Back.easeOut' });
    }
  }

  private renderAttack(view: OneCardView, stacked: boolean): void {
    const r = this.layout!.attack;
    const n = view.pendingAttack;
    if (n <= 0) {
      // Resolved (someone took the cards): the badge goes, and the hook sees it cleared.
      if (this.attack !== 0) this.attacks.record({ count: 0 }, 0);
      this.attackBox.setVisible(false);
      this.attack = 0;
      return;
    }
    this.attackText.setText(`+${n}장!`).setFontSize(Math.round(r.h * 0.62));
    const w = Math.min(r.w, this.attackText.width + 28);
    this.attackBg.clear();
    this.attackBg.fillStyle(C.danger, 1).fillRoundedRect(-w / 2, -r.h / 2, w, r.h, r.h / 2);
    this.attackBg.lineStyle(3, 0xffffff, 1).strokeRoundedRect(-w / 2, -r.h / 2, w, r.h, r.h / 2);
    this.attackBox.setPosition(r.x + r.w / 2, r.y + r.h / 2).setVisible(true);
    if (n !== this.attack) {
      // The number "grows" (§9): a pop from large back to size with each attack card.
      const ms = stacked && n > this.attack ? pop(this.scene, this.attackBox, 1.6) : 0;
      if (ms === 0) this.attackBox.setScale(1);
      this.attacks.record({ count: n }, ms);
    }
    this.attack = n;
  }

  declaredLabel(): string | null {
    return this.chipLabel.visible ? this.chipLabel.text : null;
  }

  /** The attack stack's counts as the badge showed them (0 = cleared), for the test hook. */
  get attackCounts(): { count: number; animated: boolean }[] {
    return this.attacks.entries;
  }

  attackLabel(): string | null {
    return this.attackBox.visible ? this.attackText.text : null;
  }
}
