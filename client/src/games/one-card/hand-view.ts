/**
 * The player's own hand as a fan of card sprites keyed by card id, so a
 * re-sort or a new view moves cards instead of recreating them: new cards
 * fly in from the draw pile, played ones fly to the discard pile.
 * Legal cards get a border (orange for counters under attack), the rest are
 * greyed while it is our turn; a tapped card rises.
 */
import Phaser from 'phaser';
import type { Card } from '../../cards/model.ts';
import { motionMs } from '../../settings.ts';
import type { CardSlot, TableLayout } from './layout.ts';
import type { Rect } from '../../table-kit/rect.ts';
import { C } from '../../table-kit/theme.ts';
import { faceTexture } from '../../table-kit/textures.ts';

export interface HandCardState {
  card: Card;
  slot: CardSlot;
  legal: boolean;
  selected: boolean;
  dimmed: boolean;
  counter: boolean;
}

interface Sprite {
  /** Set while this card is being dragged, so the release is not also a tap. */
  dragged: boolean;
  card: Card;
  container: Phaser.GameObjects.Container;
  image: Phaser.GameObjects.Image;
  outline: Phaser.GameObjects.Graphics;
  state: HandCardState | null;
}

export class HandView {
  private readonly sprites = new Map<string, Sprite>();
  private cardW = 56;
  private cardH = 78;

  constructor(
    private readonly scene: Phaser.Scene,
    private readonly onTap: (cardId: string) => void,
    /** §9: a card dragged onto the discard pile is played; anywhere else it springs back. */
    private readonly onDrop: (cardId: string, x: number, y: number) => void,
  ) {}

  ids(): string[] {
    return [...this.sprites.keys()];
  }

  /**
   * Shows `cards` in order. `from` is where newly seen cards come from (the
   * draw pile), `playedTo` where vanished ones go (the discard pile) when
   * `playedIds` lists them; anything else vanishing just fades.
   */
  update(
    states: HandCardState[],
    layout: TableLayout,
    from: Rect,
    playedTo: Rect,
    playedIds: Set<string>,
    animate: boolean,
  ): void {
    this.cardW = layout.cardW;
    this.cardH = layout.cardH;
    const seen = new Set<string>();
    const dur = animate ? motionMs(220) : 0;
    states.forEach((st, i) => {
      seen.add(st.card.id);
      let sp = this.sprites.get(st.card.id);
      const target = { x: st.slot.cx, y: st.slot.cy - (st.selected ? layout.raise : 0), rotation: st.slot.angle };
      if (!sp) {
        sp = this.create(st.card);
        const start = animate && dur > 0 ? { x: from.x + from.w / 2, y: from.y + from.h / 2 } : target;
        sp.container.setPosition(start.x, start.y);
        sp.container.setRotation(target.rotation);
      }
      sp.container.setDepth(100 + i);
      this.sizeSprite(sp);
      this.styleSprite(sp, st);
      sp.state = st;
      this.scene.tweens.killTweensOf(sp.container);
      if (dur > 0) {
        this.scene.tweens.add({
          targets: sp.container,
          x: target.x,
          y: target.y,
          rotation: target.rotation,
          duration: dur,
          ease: 'Cubic.easeOut',
        });
      } else {
        sp.container.setPosition(target.x, target.y).setRotation(target.rotation);
      }
    });
    for (const [id, sp] of [...this.sprites]) {
      if (seen.has(id)) continue;
      this.sprites.delete(id);
      sp.image.disableInteractive();
      this.scene.tweens.killTweensOf(sp.container);
      if (dur > 0 && playedIds.has(id)) {
        sp.outline.clear();
        sp.image.clearTint();
        sp.container.setDepth(400);
        const scale = playedTo.w / this.cardW;
        this.scene.tweens.add({
          targets: sp.container,
          x: playedTo.x + playedTo.w / 2,
          y: playedTo.y + playedTo.h / 2,
          rotation: 0,
          scale,
          duration: motionMs(260),
          ease: 'Cubic.easeInOut',
          onComplete: () => sp.container.destroy(),
        });
      } else if (dur > 0) {
        this.scene.tweens.add({
          targets: sp.container,
          alpha: 0,
          duration: dur,
          onComplete: () => sp.container.destroy(),
        });
      } else {
        sp.container.destroy();
      }
    }
  }

  private create(card: Card): Sprite {
    const image = this.scene.add.image(0, 0, faceTexture(this.scene, card));
    const outline = this.scene.add.graphics();
    const container = this.scene.add.container(0, 0, [outline, image]);
    image.setInteractive({ useHandCursor: true, draggable: true });
    const sp: Sprite = { dragged: false, card, container, image, outline, state: null };
    image.on('pointerdown', () => {
      sp.dragged = false;
    });
    image.on('pointerup', () => {
      if (!sp.dragged) this.onTap(card.id);
    });
    image.on('dragstart', () => {
      sp.dragged = true;
      this.scene.tweens.killTweensOf(container);
      container.setDepth(500).setRotation(0);
    });
    image.on('drag', (pointer: Phaser.Input.Pointer) => {
      container.setPosition(pointer.worldX, pointer.worldY - this.cardH * 0.3);
    });
    image.on('dragend', (pointer: Phaser.Input.Pointer) => {
      this.onDrop(card.id, pointer.worldX, pointer.worldY);
    });
    this.sprites.set(card.id, sp);
    return sp;
  }

  private sizeSprite(sp: Sprite): void {
    // A live switch of the 4-colour deck (§9) keys faces anew: a kept sprite takes the new face.
    const face = faceTexture(this.scene, sp.card);
    if (sp.image.texture.key !== face) sp.image.setTexture(face);
    sp.image.setDisplaySize(this.cardW, this.cardH);
    sp.container.setScale(1);
  }

  private styleSprite(sp: Sprite, st: HandCardState): void {
    const prev = sp.state;
    if (
      prev &&
      prev.legal === st.legal &&
      prev.selected === st.selected &&
      prev.dimmed === st.dimmed &&
      prev.counter === st.counter &&
      sp.outline.getData('w') === this.cardW
    )
      return;
    const w = this.cardW;
    const h = this.cardH;
    sp.outline.clear();
    sp.outline.setData('w', w);
    if (st.selected || st.legal) {
      const color = st.selected ? C.selected : st.counter ? C.counter : C.legal;
      sp.outline.fillStyle(color, st.selected ? 0.55 : 0.35).fillRoundedRect(-w / 2 - 5, -h / 2 - 5, w + 10, h + 10, 9);
      sp.outline.lineStyle(3, color, 1).strokeRoundedRect(-w / 2 - 3, -h / 2 - 3, w + 6, h + 6, 8);
    }
    if (st.dimmed) sp.image.setTint(0x8c8c8c);
    else sp.image.clearTint();
  }

  /** Screen rectangles for the test hook. */
  snapshot(): { id: string; card: Card; state: HandCardState }[] {
    const out: { id: string; card: Card; state: HandCardState }[] = [];
    for (const [id, sp] of this.sprites) if (sp.state) out.push({ id, card: sp.card, state: sp.state });
    return out;
  }

  /** Whether any card is still moving (tests wait for a settled table before tapping). */
  busy(): boolean {
    for (const sp of this.sprites.values()) if (this.scene.tweens.isTweening(sp.container)) return true;
    return false;
  }

  destroy(): void {
    for (const sp of this.sprites.values()) sp.container.destroy();
    this.sprites.clear();
  }
}
