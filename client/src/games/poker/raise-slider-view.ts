/**
 * The raise slider on the canvas (poker §9 NL/PL): a track, a filled part up
 * to the amount and a round thumb. Pointer down on the rect (thumb or track)
 * jumps there and starts a drag that follows the pointer until it is released
 * anywhere; ←/→ step one base unit and Home/End jump to the ends while the
 * panel is open. It owns no amount: every change goes to `onChange`, and the
 * scene redraws the bar, which calls `update` with the new value (so −/+ and
 * the quick buttons move the thumb too). The thumb jumps without a tween, so
 * reduced motion needs nothing special. Hidden, it ignores input and keys.
 */
import type Phaser from 'phaser';
import type { Rect } from '../../table-kit/rect.ts';
import { C } from '../../table-kit/theme.ts';
import { amountAtX, sliderFrac, thumbRadius, trackSpan, type RaiseSlider } from './raise-slider.ts';

export class RaiseSliderView {
  readonly rect: Rect = { x: 0, y: 0, w: 0, h: 0 };
  private readonly g: Phaser.GameObjects.Graphics;
  private readonly zone: Phaser.GameObjects.Zone;
  private slider: RaiseSlider | null = null;
  private dragging = false;
  enabled = true;

  constructor(
    scene: Phaser.Scene,
    private readonly onChange: (raiseTo: number) => void,
    depth = 50,
  ) {
    this.g = scene.add.graphics().setDepth(depth);
    this.zone = scene.add
      .zone(0, 0, 10, 10)
      .setOrigin(0)
      .setDepth(depth + 1);
    this.zone.setInteractive({ useHandCursor: true, draggable: false });
    this.zone.on('pointerdown', (p: Phaser.Input.Pointer) => {
      if (!this.live()) return;
      this.dragging = true;
      this.moveTo(p.worldX);
    });
    scene.input.on('pointermove', (p: Phaser.Input.Pointer) => {
      if (this.dragging && p.isDown && this.live()) this.moveTo(p.worldX);
    });
    const stop = () => {
      this.dragging = false;
    };
    scene.input.on('pointerup', stop);
    scene.input.on('pointerupoutside', stop);
    scene.input.keyboard?.on('keydown', (e: KeyboardEvent) => this.onKey(e));
    this.g.setVisible(false);
    this.zone.setVisible(false);
  }

  /** Shows the slider at `rect` with `slider`'s value, or hides it (null). */
  update(rect: Rect | null, slider: RaiseSlider | null, enabled: boolean): void {
    this.slider = rect && slider ? slider : null;
    this.enabled = enabled;
    if (!this.slider || !rect) {
      this.dragging = false;
      this.g.clear().setVisible(false);
      this.zone.setVisible(false);
      if (this.zone.input) this.zone.input.enabled = false;
      return;
    }
    Object.assign(this.rect, rect);
    this.zone.setPosition(rect.x, rect.y).setSize(rect.w, rect.h).setVisible(true);
    if (this.zone.input) {
      this.zone.input.enabled = true;
      (this.zone.input.hitArea as Phaser.Geom.Rectangle).setTo(0, 0, rect.w, rect.h);
    }
    this.draw();
  }

  /** Where the thumb's centre is now (for the test hook), or null when hidden. */
  thumb(): { x: number; y: number } | null {
    if (!this.slider) return null;
    const t = trackSpan(this.rect);
    return { x: t.x0 + (t.x1 - t.x0) * sliderFrac(this.slider, this.slider.value), y: t.y };
  }

  shown(): RaiseSlider | null {
    return this.slider ? { ...this.slider } : null;
  }

  private live(): boolean {
    return this.slider !== null && this.enabled;
  }

  private moveTo(x: number): void {
    const s = this.slider;
    if (!s) return;
    const to = amountAtX(s, this.rect, x);
    if (to !== s.value) this.onChange(to);
  }

  private onKey(e: KeyboardEvent): void {
    const s = this.slider;
    if (!s || !this.live()) return;
    // Keys typed into a DOM field (the chat box) are that field's, not the slider's.
    const t = e.target as HTMLElement | null;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.isContentEditable)) return;
    const to =
      e.key === 'ArrowLeft' || e.key === 'ArrowDown'
        ? Math.max(s.min, s.value - s.unit)
        : e.key === 'ArrowRight' || e.key === 'ArrowUp'
          ? Math.min(s.max, s.value + s.unit)
          : e.key === 'Home'
            ? s.min
            : e.key === 'End'
              ? s.max
              : null;
    if (to !== null && to !== s.value) this.onChange(to);
  }

  private draw(): void {
    const s = this.slider;
    if (!s) return;
    const r = this.rect;
    const t = trackSpan(r);
    const rad = thumbRadius(r.h);
    const x = this.thumb()?.x ?? t.x0;
    const bar = Math.max(6, rad / 2);
    const g = this.g.clear().setVisible(true);
    g.fillStyle(0x000000, 0.35).fillRoundedRect(r.x, r.y, r.w, r.h, 10);
    g.fillStyle(C.disabled, 1).fillRoundedRect(t.x0, t.y - bar / 2, t.x1 - t.x0, bar, bar / 2);
    g.fillStyle(this.enabled ? C.gold : C.muted, 1).fillRoundedRect(
      t.x0,
      t.y - bar / 2,
      Math.max(bar, x - t.x0),
      bar,
      bar / 2,
    );
    g.fillStyle(0xffffff, 1).fillCircle(x, t.y, rad);
    g.lineStyle(3, this.enabled ? C.primary : C.muted, 1).strokeCircle(x, t.y, rad);
  }
}
