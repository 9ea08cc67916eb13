/**
 * §9 table animations — card flights to and from seats, bankrupt scatter —
 * each at most 300 ms and none at all with reduced motion, plus the running
 * commentary (toasts) for events that are easy to miss.
 */
import type Phaser from 'phaser';
import type { GameEvent } from '@joke/engine/client';
import { cardLabel, type Card, type OneCardView } from '../../cards/model.ts';
import { motionMs } from '../../settings.ts';
import type { CenterView } from './center-view.ts';
import { nameOf } from './controls.ts';
import type { Toasts } from '../../table-kit/overlays.ts';
import { backTexture, faceTexture } from '../../table-kit/textures.ts';

export class Effects {
  constructor(
    private readonly scene: Phaser.Scene,
    private readonly center: CenterView,
    private readonly toasts: Toasts,
    /** Where a seat's avatar is (cards fly there), or null if not shown. */
    private readonly anchorOf: (playerId: string) => { x: number; y: number } | null,
  ) {}

  /** §9 animations (≤ 300 ms each, none with reduced motion) and the running commentary. */
  handle(v: OneCardView, e: GameEvent, playedByMe: Set<string>): void {
    const name = (id: unknown) => nameOf(v, String(id));
    switch (e.type) {
      case 'cardPlayed': {
        const cards = (e.cards as Card[] | undefined) ?? [];
        if (e.player === v.viewer) {
          for (const card of cards) playedByMe.add(card.id);
          this.flyHide(cards.at(-1)?.id ?? null, motionMs(260));
        } else this.flyFromSeat(String(e.player), cards);
        return;
      }
      case 'cardsDrawn':
        if (e.player !== v.viewer)
          this.flyToSeat(String(e.player), Number(e.count) || 0, v.mode === 'classic' ? 'classic' : 'color');
        if (Number(e.count) >= 2) this.toasts.show(`${name(e.player)} 님이 ${e.count}장을 먹었어요`);
        return;
      case 'bankrupt':
        this.scatter(String(e.player), v.mode === 'classic' ? 'classic' : 'color');
        this.toasts.show(`${name(e.player)} 님 파산!`, 'warn');
        return;
      case 'oneCardDeclared':
        this.toasts.show(`${name(e.player)}: 원카드!`, 'good');
        return;
      case 'oneCardCaught':
        this.toasts.show(`${name(e.catcher)} 님이 ${name(e.target)} 님을 잡았어요! +${e.penalty}장`, 'warn');
        return;
      case 'skipped': {
        const who = (e.players as string[] | undefined) ?? [];
        if (who.length > 0) this.toasts.show(`건너뜀: ${who.map(name).join(', ')}`);
        return;
      }
      case 'playerOut':
        this.toasts.show(`${name(e.player)} 님이 카드를 모두 냈어요! (${e.place}등)`, 'good');
        return;
      case 'reshuffled':
        this.toasts.show('버린 카드를 섞어 드로우 더미를 채웠어요');
        return;
      case 'timeout':
        this.toasts.show(`${name(e.player)} 님 시간 초과`);
        return;
      case 'wild4Challenged':
        this.toasts.show(
          e.result === 'guilty'
            ? `의심 성공! ${name(e.offender)} 님이 4장을 먹어요`
            : `의심 실패! ${name(e.challenger)} 님이 6장을 먹어요`,
          'warn',
        );
        return;
      case 'challengeReveal': {
        const cards = (e.cards as Card[] | undefined) ?? [];
        this.toasts.show(`${name(e.of)} 님의 손패: ${cards.map(cardLabel).join(', ')}`);
        return;
      }
      default:
        return;
    }
  }

  flyHide(topId: string | null, ms: number): void {
    if (ms <= 0 || !topId) return;
    this.center.hideTopUntil(topId);
    this.scene.time.delayedCall(ms, () => this.center.hideTopUntil(null));
  }

  private flyFromSeat(id: string, cards: Card[]): void {
    const ms = motionMs(260);
    const from = this.anchorOf(id);
    if (ms <= 0 || !from || cards.length === 0) return;
    const d = this.center.discardRect;
    this.flyHide(cards.at(-1)!.id, ms);
    cards.forEach((card, i) => {
      const img = this.scene.add.image(from.x, from.y, faceTexture(this.scene, card)).setDepth(400 + i);
      img.setDisplaySize(d.w * 0.45, d.h * 0.45);
      const sx = img.scaleX;
      this.scene.tweens.add({
        targets: img,
        x: d.x + d.w / 2,
        y: d.y + d.h / 2,
        scaleX: sx / 0.45,
        scaleY: img.scaleY / 0.45,
        duration: ms,
        ease: 'Cubic.easeOut',
        onComplete: () => img.destroy(),
      });
    });
  }

  private flyToSeat(id: string, count: number, deck: 'classic' | 'color'): void {
    const ms = motionMs(240);
    const to = this.anchorOf(id);
    if (ms <= 0 || !to || count <= 0) return;
    const p = this.center.drawRect;
    const n = Math.min(count, 5);
    for (let i = 0; i < n; i++) {
      const img = this.scene.add.image(p.x + p.w / 2, p.y + p.h / 2, backTexture(this.scene, deck)).setDepth(400 + i);
      img.setDisplaySize(p.w * 0.6, p.h * 0.6);
      this.scene.tweens.add({
        targets: img,
        x: to.x,
        y: to.y,
        scaleX: img.scaleX * 0.5,
        scaleY: img.scaleY * 0.5,
        delay: i * 12,
        duration: ms - i * 12,
        ease: 'Cubic.easeIn',
        onComplete: () => img.destroy(),
      });
    }
  }

  private scatter(id: string, deck: 'classic' | 'color'): void {
    const ms = motionMs(300);
    const at = this.anchorOf(id);
    if (ms <= 0 || !at) return;
    for (let i = 0; i < 8; i++) {
      const a = (i / 8) * Math.PI * 2;
      const img = this.scene.add.image(at.x, at.y, backTexture(this.scene, deck)).setDepth(400).setDisplaySize(28, 40);
      this.scene.tweens.add({
        targets: img,
        x: at.x + Math.cos(a) * 70,
        y: at.y + Math.sin(a) * 70,
        rotation: a * 2,
        alpha: 0,
        duration: ms,
        ease: 'Cubic.easeOut',
        onComplete: () => img.destroy(),
      });
    }
  }
}
