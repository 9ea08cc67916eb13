/**
 * The 훌라 table for both modes (docs/games/hula.md §9). Renders whatever
 * frame the gateway delivers — the viewer's own view is the truth; the scene
 * keeps only the card selection, the chosen meld and the sort — and turns
 * taps into actions. Buttons come from deriveControls (what the view says is
 * legal); layout from the pure computeHulaLayout, redone on every resize.
 * Source wiring, busy/send, leave and exit come from the kit's TableSceneBase.
 */
import Phaser from 'phaser';
import { fitView } from '../../display.ts';
import type { ConnStatus } from '../../net/gateway.ts';
import { TableSceneBase, type TableSceneData } from '../../table-kit/table-scene.ts';
import type { TableFrame } from '../../table-kit/source.ts';
import { Banner, Toasts } from '../../table-kit/overlays.ts';
import { boundsRect, type Rect } from '../../table-kit/rect.ts';
import { C, textStyle } from '../../table-kit/theme.ts';
import { Button } from '../../table-kit/widgets.ts';
import { reducedMotion } from '../../settings.ts';
import {
  ACTION_KEYS,
  buildAction,
  deriveControls,
  timerFraction,
  type ActionKey,
  type HulaControls,
} from './controls.ts';
import { computeHulaLayout, type HulaLayout } from './layout.ts';
import { hulaPlaces } from './places.ts';
import { setChatPlace } from '../../chat/chat-place.ts';
import { addRulesButton, placeRulesButton, rulesButtonRect, roomOptions } from '../../ui/rules-button.ts';
import { sortCards, type HulaAction, type HulaSort, type HulaView } from './model.ts';
import { ActionBar } from './action-bar.ts';
import { eventToast } from './events.ts';
import { HulaResultPanel } from './result-panel.ts';
import { resultRows } from './result-rows.ts';
import { HulaTableView } from './table-view.ts';
import { arrivals } from './arrivals.ts';
import { fitTitle, titleVariants } from './title.ts';

export type HulaSceneData = TableSceneData<HulaAction, HulaView>;
type HulaFrame = TableFrame<HulaView>;

type TopKey = 'sort' | 'leave' | 'exit';

export class HulaScene extends TableSceneBase<HulaAction, HulaView> {
  private table!: HulaTableView;
  private bar!: ActionBar;
  private top!: Record<TopKey, Button>;
  private titleText!: Phaser.GameObjects.Text;
  private statusText!: Phaser.GameObjects.Text;
  private hintText!: Phaser.GameObjects.Text;
  private timerG!: Phaser.GameObjects.Graphics;
  protected toasts!: Toasts;
  private banner!: Banner;
  private result!: HulaResultPanel;
  private layout_: HulaLayout | null = null;
  private controls: HulaControls | null = null;
  /** Presses of the 조커 toggle: which joker reading the meld / lay-off sends (joker-choice.ts). */
  private jokerPick = 0;
  private selected: string[] = [];
  private chosenMeld: number | null = null;
  private sort: HulaSort = 'suit';
  private deadlineSeen: number | null = null;
  private timerTotal = 1;
  private resultKey = '';
  private rulesButton: HTMLButtonElement | null = null;

  constructor() {
    super('hula');
  }

  override init(data: HulaSceneData): void {
    super.init(data);
    this.selected = [];
    this.chosenMeld = null;
    this.resultKey = '';
    this.deadlineSeen = null;
  }

  create(): void {
    this.cameras.main.setBackgroundColor(C.felt);
    this.table = new HulaTableView(this);
    this.titleText = this.add
      .text(0, 0, this.data_.title, textStyle(14, '#ffffff', 800))
      .setDepth(40)
      .setLineSpacing(2);
    this.statusText = this.add.text(0, 0, '테이블에 연결하는 중…', textStyle(16, '#ffffff', 800)).setOrigin(0.5, 0);
    this.hintText = this.add.text(0, 0, '', textStyle(13, '#ffe7a3', 600)).setOrigin(0.5, 0);
    this.timerG = this.add.graphics().setDepth(25);
    this.bar = new ActionBar(this, (k) => this.press(k));
    // A tap on a greyed button hands what it would send to the table's owner (the tutorial asks the engine why).
    for (const k of ACTION_KEYS)
      this.bar.buttons[k].onRefused = () => {
        const v = this.frame?.view;
        if (v) this.data_.onRefusedAction?.(buildAction(k, v, this.selected, this.chosenMeld, this.jokerPick));
      };
    this.top = {
      sort: new Button(this, '무늬순', 'toggle', () => {
        this.sort = this.sort === 'suit' ? 'rank' : 'suit';
        this.render();
      }),
      leave: new Button(this, '나가기 예약', 'secondary', () => void this.toggleLeave()),
      exit: new Button(this, '로비', 'secondary', () => this.leave()),
    };
    this.rulesButton = addRulesButton(this, 'hula', () => ({
      mode: this.frame?.view.mode,
      options: roomOptions(this.frame?.view.options),
    }));
    this.toasts = new Toasts(this);
    this.banner = new Banner(this);
    this.result = new HulaResultPanel(this);
    this.input.on('pointerup', (p: Phaser.Input.Pointer) => this.onTap(p.worldX, p.worldY));
    this.openTable();
  }

  protected override onConnection(s: ConnStatus): void {
    const msg = s === 'reconnecting' ? '다시 연결 중…' : s === 'closed' ? '연결이 끊겼어요' : null;
    this.banner.show(msg, fitView(this).width, 52);
  }

  protected onClose(): void {
    this.result.close();
  }

  /** The layout is recomputed on every draw (it follows the hand's size). */
  protected relayout(): void {
    this.render();
  }

  protected redraw(): void {
    this.render();
  }

  protected onFrame(f: HulaFrame, prev: HulaFrame | null): void {
    // The pile's top before this frame is the card a 땡큐 in it takes.
    const claimedTop = prev?.view.discardTop?.id ?? null;
    this.table.expect(arrivals(f.events, claimedTop));
    for (const e of f.events) {
      const t = eventToast(f.view, e);
      if (t) this.toasts.show(t.text, t.tone);
    }
    const hand = f.view.hand ?? [];
    this.selected = this.selected.filter((id) => hand.some((c) => c.id === id));
    const prompt = f.view.me?.discardPrompt;
    if (prompt && this.selected.length === 0) this.selected = [prompt];
    if (this.chosenMeld !== null && !f.view.melds.some((m) => m.id === this.chosenMeld)) this.chosenMeld = null;
    if (f.view.deadline !== this.deadlineSeen) {
      this.deadlineSeen = f.view.deadline;
      this.timerTotal = Math.max(1000, (f.view.deadline ?? 0) - this.source.serverNow());
    }
    this.render();
    // After the render, so the claimer's seat is where the ring goes.
    for (const e of f.events)
      if ((e.type === 'thankYou' || e.type === 'thankYouClaimed') && this.layout_)
        this.table.highlightThankYou(
          e.player as string,
          e.type === 'thankYou' ? claimedTop : (f.view.discardTop?.id ?? null),
          f.view,
          this.layout_,
        );
  }

  private render(): void {
    const W = fitView(this).width;
    const H = fitView(this).height;
    const f = this.frame;
    const v = f?.view ?? null;
    const hand = v?.hand ? sortCards(v.hand, this.sort) : [];
    const opponents = v ? v.seats.length - (v.seats.some((s) => s.id === v.viewer) ? 1 : 0) : 0;
    const l = computeHulaLayout({ width: W, height: H, opponents, handCount: hand.length });
    this.layout_ = l;
    // Title: mode and round; below it the viewer's own points and 등록 mark (opponents show theirs on the badges).
    // A short screen (phone on its side) keeps the title on one line.
    fitTitle(
      this.titleText,
      l.title,
      v ? titleVariants(v, l.title.h < 36, this.data_.lead ?? null) : [this.data_.title],
    );
    placeRulesButton(this.rulesButton, this.game.canvas, l.top.rules);
    this.top.sort.setRect(l.top.sort).setText(this.sort === 'suit' ? '무늬순' : '숫자순');
    this.top.leave.setRect(l.top.leave);
    this.top.exit.setRect(l.top.exit);
    const meSeat = v?.seats.find((s) => s.id === v.viewer);
    this.top.leave
      .setVisible(!!meSeat && !v?.finished && !this.data_.replay)
      .setText(meSeat?.leaveReserved ? '예약 취소' : '나가기 예약');
    this.top.sort.setVisible(hand.length > 0);
    // Toasts and chat lines in their band above the melds, below the status line, never over either;
    // the chat button left of the piles (issue 41 §1).
    this.toasts.setArea(l.toasts);
    setChatPlace(this.game.canvas, l.chat, l.toasts);
    if (!v) {
      this.statusText.setPosition(W / 2, l.status.y);
      return;
    }
    const c = deriveControls(v, this.selected, this.chosenMeld, this.jokerPick);
    this.controls = c;
    this.table.render(v, l, hand, this.selected, this.chosenMeld, c.mover);
    this.statusText
      .setText(c.status)
      .setPosition(l.status.x + l.status.w / 2, l.status.y)
      .setWordWrapWidth(l.status.w, true)
      .setDepth(20);
    this.hintText
      .setText(c.hint)
      .setPosition(l.status.x + l.status.w / 2, l.status.y + Math.min(22, this.statusText.height + 2))
      .setWordWrapWidth(l.status.w, true)
      .setDepth(20);
    this.showResult();
    this.bar.place(c, l, this.result.open || !!this.data_.replay, this.busy);
  }

  private showResult(): void {
    const f = this.frame;
    const data = f ? resultRows(f.view, f.result) : null;
    const v = f?.view;
    const waiting = v?.phase.kind === 'roundEnd' && v.viewer !== null && v.phase.ready.includes(v.viewer);
    const key = data ? `${v!.round}:${data.final}:${waiting}:${fitView(this).width}x${fitView(this).height}` : '';
    if (key === this.resultKey) return;
    this.resultKey = key;
    // The HTML 규칙 button floats over the canvas corner: not over the result panel's title.
    if (this.rulesButton) this.rulesButton.hidden = data !== null;
    if (!data) return this.result.close();
    const actions =
      data.final || this.data_.replay
        ? this.resultButtons(this.result)
        : v!.me && !waiting
          ? [{ key: 'ready', label: '다음 판 준비', onTap: () => this.press('ready') }]
          : [];
    if (waiting) data.summary += '\n다른 사람을 기다리는 중…';
    this.result.show(data, fitView(this).width, fitView(this).height, actions);
  }

  private onTap(x: number, y: number): void {
    const v = this.frame?.view;
    const l = this.layout_;
    if (!v || !l || this.result.open) return;
    const hit = (r: Rect) => x >= r.x && x <= r.x + r.w && y >= r.y && y <= r.y + r.h;
    // Later cards sit on top, so test from the right.
    for (let i = this.table.cards.length - 1; i >= 0; i--) {
      const card = this.table.cards[i];
      const r = card.visible;
      if (hit({ x: r.x, y: r.y - l.hand.lift, w: r.w, h: r.h + l.hand.lift })) {
        this.selected = this.selected.includes(card.id)
          ? this.selected.filter((id) => id !== card.id)
          : [...this.selected, card.id];
        return this.render();
      }
    }
    const meld = this.table.melds.find((m) => hit(m.rect));
    if (meld) {
      this.chosenMeld = this.chosenMeld === meld.id ? null : meld.id;
      return this.render();
    }
    if (hit(l.stock) && this.controls?.buttons.draw.enabled) this.press('draw');
    else if (hit(l.discard) && this.controls?.buttons.take.enabled) this.press('take');
  }

  private press(key: ActionKey): void {
    const v = this.frame?.view;
    if (!v || this.busy) return;
    if (key === 'joker') {
      this.jokerPick++;
      this.render();
      return;
    }
    const action = buildAction(key, v, this.selected, this.chosenMeld, this.jokerPick);
    if (!action) return;
    this.send(action, {
      accepted: () => {
        if (key !== 'thankYou' && key !== 'pass' && key !== 'ready') this.selected = [];
        if (key === 'layOff') this.chosenMeld = null;
        this.jokerPick = 0;
      },
    });
  }

  private async toggleLeave(): Promise<void> {
    const v = this.frame?.view;
    const me = v?.seats.find((s) => s.id === v.viewer);
    if (!me) return;
    const r = await this.source.act({ type: 'reserveLeave', on: !me.leaveReserved });
    if (r.ok) this.toasts.show(me.leaveReserved ? '나가기 예약을 취소했어요' : '이번 판이 끝나면 나가요', 'good');
    else this.toasts.show(r.reason, 'warn');
  }

  protected playing(): boolean {
    const v = this.frame?.view;
    return !!v && !v.finished && v.seats.some((s) => s.id === v.viewer && s.status === 'playing');
  }

  override update(): void {
    const f = this.frame;
    const l = this.layout_;
    this.timerG.clear();
    if (!f || !l || !this.controls) return;
    const frac = timerFraction(f.view, this.source.serverNow(), this.timerTotal);
    if (frac === null) return;
    const mover = this.controls.mover;
    const at =
      mover === f.view.viewer || mover === null
        ? {
            x: l.status.x + l.status.w / 2 - Math.max(this.statusText.width, this.hintText.width) / 2 - 24,
            y: l.status.y + 20,
          }
        : this.table.avatars.get(mover);
    if (!at) return;
    const color = frac * this.timerTotal < 3000 ? C.danger : C.gold;
    this.timerG.lineStyle(4, 0x000000, 0.35).strokeCircle(at.x, at.y, 16);
    this.timerG.lineStyle(4, color, 1).beginPath();
    this.timerG.arc(at.x, at.y, 16, -Math.PI / 2, -Math.PI / 2 + Math.PI * 2 * frac, false).strokePath();
  }

  /** For the test hook: what is drawn where (canvas pixels) and what the controls say. */
  snapshot(): Record<string, unknown> {
    const f = this.frame;
    const box = (b: Button) => ({ ...b.rect, enabled: b.enabled, visible: b.visible, label: b.label_ });
    return {
      scene: 'hula',
      width: fitView(this).width,
      height: fitView(this).height,
      orientation: this.layout_?.portrait ? 'portrait' : 'landscape',
      connection: this.connection,
      frames: this.framesSeen,
      seq: f?.seq ?? null,
      role: f?.role ?? null,
      phase: f?.view.phase.kind ?? null,
      finished: f?.view.finished ?? false,
      myTurn: this.controls?.myTurn ?? false,
      busy: this.busy,
      status: this.statusText.text,
      hint: this.hintText.text,
      me: f?.view.viewer ?? null,
      cards: this.table.cards,
      melds: this.table.melds,
      meldSlides: this.table.slides.entries,
      thankYous: this.table.thankYous.entries,
      flying: this.table.flying,
      flightProgress: this.table.flightProgress,
      reducedMotion: reducedMotion(),
      // The title as drawn, the rect it must keep to, and where the HTML 규칙 button is (page CSS px).
      title: { text: this.titleText.text, ...boundsRect(this.titleText.getBounds()), box: this.layout_?.title ?? null },
      rules: rulesButtonRect(this.rulesButton),
      statusRect: {
        x: this.statusText.x - this.statusText.width / 2,
        y: this.statusText.y,
        w: this.statusText.width,
        h: this.statusText.height,
      },
      opponents: this.table.opponents,
      // The viewer has no badge (their points are in the title): their emote pops on the title (seat-anchor.ts).
      selfSeat: f?.view.viewer && this.layout_ ? { id: f.view.viewer, rect: this.layout_.title } : null,
      stock: this.layout_?.stock ?? null,
      discard: this.layout_?.discard ?? null,
      buttons: Object.fromEntries([
        ...ACTION_KEYS.map((k) => [k, box(this.bar.buttons[k])]),
        ...(['sort', 'leave', 'exit'] as TopKey[]).map((k) => [k, box(this.top[k])]),
      ]),
      result: this.result.data ? { ...this.result.data, buttons: this.result.buttonRects } : null,
      toasts: this.toasts.log,
      places: hulaPlaces({
        layout: this.layout_,
        viewer: f?.view.viewer ?? null,
        handCount: this.table.cards.length,
        melds: this.table.melds,
        opponents: this.table.opponents,
        buttons: {
          ...this.bar.buttons,
          ...this.top,
        },
        toastArea: this.toasts.place,
        resultSheet: this.result.panelRect,
      }),
    };
  }
}
