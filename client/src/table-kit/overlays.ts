/**
 * Things drawn over every game's table: toasts, the "다시 연결 중…" banner and
 * the result screen with ranking, points, summary and the seed check. (The
 * 원카드 suit/colour picker is the one-card table's own: games/one-card/picker.ts.)
 */
import Phaser from 'phaser';
import { motionMs } from '../settings.ts';
import type { Rect } from './rect.ts';
import { ToastQueue, toastLabel } from './toast-queue.ts';
import { C, FONT as FONT_FAMILY, textStyle } from './theme.ts';
import { Button } from './widgets.ts';
import { clearOfChatButton } from '../chat/chat-place.ts';

export class Toasts {
  private readonly queue = new ToastQueue<Phaser.GameObjects.Text>(3);
  private area: Rect = { x: 0, y: 0, w: 0, h: 0 };
  /** Every notice as it came (repeats too): the test hook reads it. */
  readonly log: string[] = [];

  constructor(private readonly scene: Phaser.Scene) {}

  /**
   * Where toasts stand (issue 41 §1): the area the scene's layout reserves, grown to the toasts shown
   * should one ever stand out of it, so the test hook reports what really covers the table.
   */
  get place(): Rect {
    let { x, y, w, h } = this.area;
    for (const { handle: t } of this.queue.shown) {
      if (!t.visible) continue;
      const b = t.getBounds();
      const r = Math.max(x + w, b.right);
      const d = Math.max(y + h, b.bottom);
      x = Math.min(x, b.left);
      y = Math.min(y, b.top);
      w = r - x;
      h = d - y;
    }
    return { x, y, w, h };
  }

  /** A thin band (a phone on its side) gets smaller notices so one fits in it. */
  private get small(): boolean {
    return this.area.h < 34;
  }

  setArea(r: Rect): void {
    this.area = r;
    this.reflow();
  }

  show(text: string, tone: 'info' | 'warn' | 'good' = 'info'): void {
    this.log.push(text);
    if (this.log.length > 50) this.log.shift();
    const bg = tone === 'warn' ? '#8f2a25' : tone === 'good' ? '#21613d' : '#1b2a22';
    const ms = tone === 'warn' ? 2600 : 1800;
    const now = this.scene.time.now;
    const { toast, repeated, dropped } = this.queue.push(text, now, ms, () =>
      this.scene.add
        .text(
          0,
          0,
          text,
          textStyle(this.small ? 12 : 14, '#ffffff', 700, {
            backgroundColor: bg,
            padding: { x: 12, y: this.small ? 2 : 7 },
            align: 'center',
          }),
        )
        .setOrigin(0.5, 0)
        .setDepth(700)
        .setWordWrapWidth(Math.max(120, this.area.w - 24), true),
    );
    for (const t of dropped) t.destroy();
    if (repeated) toast.handle.setText(toastLabel(toast.text, toast.count));
    this.reflow();
    // Each push's own timer expires what is due by its end: Phaser's timer counts smoothed frame deltas, so
    // the clock's `now` may still be a little short of `until` when it fires.
    const until = now + ms;
    this.scene.time.delayedCall(ms, () => this.expire(Math.max(this.scene.time.now, until)));
  }

  /** Fades out what is due at `at`; a repeat that raised a notice's time keeps it until its own timer. */
  private expire(at: number): void {
    for (const t of this.queue.expire(at)) {
      if (motionMs(200) > 0)
        this.scene.tweens.add({ targets: t, alpha: 0, duration: motionMs(200), onComplete: () => t.destroy() });
      else t.destroy();
    }
    this.reflow();
  }

  /** Stacks the notices from the area's top; the oldest give way when they would run past its bottom. */
  private reflow(): void {
    const shown = this.queue.shown.map((q) => q.handle);
    let keep = shown.length;
    const height = (from: number) => shown.slice(from).reduce((sum, t) => sum + t.height + 4, -4);
    while (keep > 1 && height(shown.length - keep) > this.area.h) keep--;
    let y = this.area.y;
    shown.forEach((t, i) => {
      t.setVisible(i >= shown.length - keep);
      if (!t.visible) return;
      t.setPosition(this.area.x + this.area.w / 2, y);
      y += t.height + 4;
    });
  }
}

export class Banner {
  private readonly bg: Phaser.GameObjects.Graphics;
  private readonly text: Phaser.GameObjects.Text;
  visible = false;

  constructor(scene: Phaser.Scene) {
    this.bg = scene.add.graphics().setDepth(950).setVisible(false);
    this.text = scene.add
      .text(0, 0, '', textStyle(15, '#1c1d24', 800))
      .setOrigin(0.5)
      .setDepth(951)
      .setVisible(false);
  }

  /** Every message shown, in order (the test hook reports it). */
  readonly log: string[] = [];

  show(message: string | null, width: number, y: number): void {
    if (message !== null && message !== this.message) this.log.push(message);
    this.visible = message !== null;
    this.bg.setVisible(this.visible);
    this.text.setVisible(this.visible);
    if (!message) return;
    this.text.setText(message).setPosition(width / 2, y + 18);
    const w = this.text.width + 40;
    this.bg.clear();
    this.bg.fillStyle(C.gold, 0.97).fillRoundedRect(width / 2 - w / 2, y, w, 36, 18);
  }

  get message(): string | null {
    return this.visible ? this.text.text : null;
  }
}

export interface ResultRow {
  rank: number;
  name: string;
  state: string;
  cardsLeft: number;
  points: number;
  me: boolean;
  /** Shown instead of the number when the column needs more than digits (a sign, a unit). */
  countText?: string;
  pointsText?: string;
}

export interface ResultData {
  summary: string;
  rows: ResultRow[];
  seedCommit: string;
  seed: string;
  /** Filled in once SHA-256(seed) is computed. */
  verified: boolean | null;
  scoreLabel: string;
  /** Header of the count column (default "남은 장"). */
  countLabel?: string;
}

export class ResultPanel {
  private objects: Phaser.GameObjects.GameObject[] = [];
  private buttons: Button[] = [];
  private verifyText: Phaser.GameObjects.Text | null = null;
  data: ResultData | null = null;
  buttonRects: Record<string, Rect> = {};
  /** The sheet as drawn (canvas px), for the test hook. */
  panelRect: Rect | null = null;

  constructor(private readonly scene: Phaser.Scene) {}

  get open(): boolean {
    return this.data !== null;
  }

  show(
    data: ResultData,
    width: number,
    height: number,
    actions: { label: string; key: string; onTap: () => void }[],
  ): void {
    this.close();
    this.data = data;
    const s = this.scene;
    const pw = Math.min(width - 24, 560);
    const px = (width - pw) / 2;
    const dim = s.add.rectangle(0, 0, width, height, 0x000000, 0.6).setOrigin(0).setDepth(960).setInteractive();
    const panel = s.add.graphics().setDepth(961);
    this.objects.push(dim, panel);
    const top = clearOfChatButton(px, pw, Math.max(16, height * 0.06), height);
    let y = top;
    const add = (t: Phaser.GameObjects.Text) => {
      t.setDepth(962);
      this.objects.push(t);
      return t;
    };
    const title = add(s.add.text(width / 2, y + 18, '게임 결과', textStyle(26, '#ffd84a', 800)).setOrigin(0.5, 0));
    y = title.y + title.height + 10;
    const summary = add(
      s.add
        .text(width / 2, y, data.summary, textStyle(15, '#ffffff', 600, { align: 'center' }))
        .setOrigin(0.5, 0)
        .setWordWrapWidth(pw - 32, true),
    );
    y = summary.y + summary.height + 14;
    // Columns: rank, name, state (left-aligned); cards left and points (right-aligned).
    const cols = [px + 18, px + 60, px + pw * 0.46, px + pw * 0.72, px + pw - 18];
    const header = ['순위', '이름', '상태', data.countLabel ?? '남은 장', data.scoreLabel];
    header.forEach((h, i) =>
      add(s.add.text(cols[i], y, h, textStyle(12, '#a9c2b5', 700)).setOrigin(i >= 3 ? 1 : 0, 0)),
    );
    y += 22;
    for (const row of data.rows) {
      if (row.me) {
        const hl = s.add.graphics().setDepth(961);
        hl.fillStyle(0xffd84a, 0.16).fillRoundedRect(px + 10, y - 4, pw - 20, 28, 8);
        this.objects.push(hl);
      }
      add(s.add.text(cols[0], y, `${row.rank}등`, textStyle(15, row.rank === 1 ? '#ffd84a' : '#ffffff', 800)));
      const maxName = Math.max(4, Math.floor((cols[2] - cols[1] - 8) / 14));
      const shown = [...row.name].length > maxName ? `${[...row.name].slice(0, maxName - 1).join('')}…` : row.name;
      add(s.add.text(cols[1], y, shown + (row.me ? ' (나)' : ''), textStyle(15, '#ffffff', 700)));
      add(s.add.text(cols[2], y, row.state, textStyle(14, row.state === '파산' ? '#ff8a80' : '#d8e6de', 600)));
      add(
        s.add
          .text(cols[3], y, row.countText ?? row.cardsLeft.toLocaleString('ko-KR'), textStyle(15, '#ffffff', 700))
          .setOrigin(1, 0),
      );
      add(
        s.add
          .text(cols[4], y, row.pointsText ?? row.points.toLocaleString('ko-KR'), textStyle(15, '#ffffff', 700))
          .setOrigin(1, 0),
      );
      y += 30;
    }
    y += 8;
    add(s.add.text(px + 20, y, '공정성 확인 (시드 공개)', textStyle(13, '#a9c2b5', 700)));
    y += 20;
    // Hex digits in a monospace face; Korean labels fall back to the UI font.
    const mono = { fontFamily: `'DejaVu Sans Mono', Menlo, Consolas, ${FONT_FAMILY}` };
    const commit = add(
      s.add
        .text(px + 20, y, `약속값 SHA-256: ${data.seedCommit}`, { ...textStyle(11, '#d8e6de', 400), ...mono })
        .setWordWrapWidth(pw - 40, true),
    );
    y += commit.height + 4;
    const seed = add(
      s.add
        .text(px + 20, y, `공개된 시드: ${data.seed}`, { ...textStyle(11, '#d8e6de', 400), ...mono })
        .setWordWrapWidth(pw - 40, true),
    );
    y += seed.height + 6;
    this.verifyText = add(s.add.text(px + 20, y, '', textStyle(14, '#ffffff', 800)));
    this.setVerified(data.verified);
    y += 30;
    const bw = Math.min(200, (pw - 40 - 12 * (actions.length - 1)) / actions.length);
    const total = bw * actions.length + 12 * (actions.length - 1);
    this.buttonRects = {};
    actions.forEach((a, i) => {
      const rect = { x: width / 2 - total / 2 + i * (bw + 12), y, w: bw, h: 46 };
      const b = new Button(s, a.label, i === 0 ? 'primary' : 'secondary', a.onTap, 963).setRect(rect);
      this.buttons.push(b);
      this.buttonRects[a.key] = rect;
    });
    y += 62;
    this.panelRect = { x: px, y: top, w: pw, h: Math.min(height - top - 8, y - top) };
    panel.fillStyle(0x10281c, 0.98).fillRoundedRect(px, top, pw, Math.min(height - top - 8, y - top), 20);
    panel.lineStyle(3, C.gold, 1).strokeRoundedRect(px, top, pw, Math.min(height - top - 8, y - top), 20);
    if (motionMs(250) > 0) {
      for (const o of this.objects) if (o !== dim) (o as unknown as { alpha: number }).alpha = 0;
      this.scene.tweens.add({
        targets: this.objects.filter((o) => o !== dim),
        alpha: 1,
        duration: motionMs(250),
      });
    }
  }

  setVerified(v: boolean | null): void {
    if (!this.data || !this.verifyText) return;
    this.data.verified = v;
    this.verifyText.setText(
      v === null ? '시드를 확인하는 중…' : v ? '✔ SHA-256(시드)가 약속값과 일치해요' : '✖ 시드가 약속값과 달라요!',
    );
    this.verifyText.setColor(v === false ? '#ff8a80' : v ? '#7ee081' : '#ffffff');
  }

  close(): void {
    for (const o of this.objects) o.destroy();
    for (const b of this.buttons) b.destroy();
    this.objects = [];
    this.buttons = [];
    this.verifyText = null;
    this.data = null;
    this.buttonRects = {};
    this.panelRect = null;
  }
}
