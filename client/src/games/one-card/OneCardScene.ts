/**
 * The 원카드 table for both modes (§9). Renders whatever frame the source
 * delivers — the server's view is the truth; the scene only keeps the local
 * card selection — and turns taps into actions. Layout comes from the pure
 * computeLayout and is redone on every resize. Scene key `table` (the lobby,
 * harness, replay, tutorial and browser tests open it by that name). Source
 * wiring, busy/send, leave and exit come from the kit's TableSceneBase.
 */
import Phaser from 'phaser';
import { fitView } from '../../display.ts';
import type { PresenceEntry } from '@joke/protocol';
import type { GameEvent } from '@joke/engine/client';
import { sortHand, type OneCardAction, type OneCardView } from '../../cards/model.ts';
import { getSettings, motionMs, reducedMotion, updateSettings } from '../../settings.ts';
import { buildPlay, deriveControls, seatInfoOf, timerFraction, type Controls, type SeatInfo } from './controls.ts';
import { CenterView } from './center-view.ts';
import { Effects } from './effects.ts';
import { HandView, type HandCardState } from './hand-view.ts';
import { computeLayout, type TableLayout } from './layout.ts';
import { Banner, ResultPanel, Toasts } from '../../table-kit/overlays.ts';
import { Picker, type PickerChoice } from './picker.ts';
import { resultData } from './result-rows.ts';
import { verifySeed } from '../../table-kit/seed-check.ts';
import { SeatBadge } from './seat-badge.ts';
import type { TableFrame } from '../../table-kit/source.ts';
import { TableSceneBase, type SendOptions, type TableSceneData } from '../../table-kit/table-scene.ts';
import { C, textStyle, tx } from '../../table-kit/theme.ts';
import { tableSnapshot } from './snapshot.ts';
import { Button } from '../../table-kit/widgets.ts';
import { openWindow } from './one-card-call.ts';
import { openSettings } from '../../ui/sheets.ts';
import { openTableRules, roomOptions } from '../../ui/rules-button.ts';
import { cardRefusal } from './card-reason.ts';
import { titleVariants } from './title.ts';
import { setChatPlace } from '../../chat/chat-place.ts';

/** What the lobby hands the 원카드 table. */
export type OneCardSceneData = TableSceneData<OneCardAction, OneCardView>;

export class OneCardScene extends TableSceneBase<OneCardAction, OneCardView> {
  private titleText!: Phaser.GameObjects.Text;
  private bg!: Phaser.GameObjects.Graphics;
  private center!: CenterView;
  private hand!: HandView;
  private badges = new Map<string, SeatBadge>();
  private meBadge!: SeatBadge;
  private buttons!: Record<
    'play' | 'draw' | 'oneCard' | 'declareToggle' | 'sortSuit' | 'sortRank' | 'rules' | 'settings' | 'leave',
    Button
  >;
  private statusText!: Phaser.GameObjects.Text;
  private hintText!: Phaser.GameObjects.Text;
  private waitingText!: Phaser.GameObjects.Text;
  protected toasts!: Toasts;
  private banner!: Banner;
  private picker!: Picker;
  private result!: ResultPanel;
  private effects!: Effects;
  private layout_: TableLayout | null = null;
  private presence: PresenceEntry[] = [];
  private selected: string[] = [];
  private declareOnPlay = true;
  /** `openedSeq` of the one-card window our 원카드 press is on its way for. */
  private pressedFor: number | null = null;
  private shakeTween: Phaser.Tweens.Tween | null = null;
  private controls: Controls | null = null;
  private resultShownSeq = -1;

  constructor() {
    super('table');
  }

  override init(data: OneCardSceneData): void {
    super.init(data);
    this.presence = [];
    this.selected = [];
    this.badges = new Map();
    this.layout_ = null;
    this.resultShownSeq = -1;
  }

  create(): void {
    this.bg = this.add.graphics().setDepth(0);
    this.titleText = this.add.text(0, 0, this.data_.title, textStyle(15, '#ffffff', 700)).setDepth(40);
    this.center = new CenterView(this);
    this.hand = new HandView(
      this,
      (id) => this.onCardTap(id),
      (id, x, y) => this.onCardDrop(id, x, y),
    );
    // A small wobble of the finger is still a tap, not a drag.
    this.input.dragDistanceThreshold = 10;
    this.meBadge = new SeatBadge(this, 45);
    this.meBadge.container.setVisible(false);
    this.statusText = this.add
      .text(0, 0, '', textStyle(16, '#ffffff', 800))
      .setOrigin(0.5, 0)
      .setDepth(40);
    this.hintText = this.add
      .text(0, 0, '', textStyle(13, '#ffe7a3', 600))
      .setOrigin(0.5, 0)
      .setDepth(40);
    this.waitingText = this.add
      .text(0, 0, '테이블에 연결하는 중…', textStyle(18, '#ffffff', 700))
      .setOrigin(0.5)
      .setDepth(40);
    this.buttons = {
      play: new Button(this, '내기', 'primary', () => this.onPlayButton()),
      draw: new Button(this, '먹기', 'secondary', () => this.onDrawButton()),
      oneCard: new Button(this, '원카드!', 'round', () => this.callOneCard(), 60),
      declareToggle: new Button(this, '원카드 외치며 내기 ✔', 'toggle', () => {
        this.declareOnPlay = !this.declareOnPlay;
        this.render(false);
      }),
      sortSuit: new Button(this, '무늬순', 'toggle', () => this.setSort('suit')),
      sortRank: new Button(this, '숫자순', 'toggle', () => this.setSort('rank')),
      rules: new Button(this, '규칙', 'ghost', () =>
        openTableRules('one-card', { options: roomOptions(this.frame?.view.options) }),
      ),
      settings: new Button(this, '설정', 'ghost', () => openSettings(() => this.render(false))),
      leave: new Button(this, '나가기', 'ghost', () => this.leave()),
    };
    this.toasts = new Toasts(this);
    this.banner = new Banner(this);
    this.picker = new Picker(this);
    this.result = new ResultPanel(this);
    this.effects = new Effects(this, this.center, this.toasts, (id) => this.badges.get(id)?.anchor ?? null);
    this.openTable();
  }

  protected override onPresence(p: PresenceEntry[]): void {
    this.presence = p;
    this.render(false);
  }

  protected override onConnection(): void {
    this.showBanner();
  }

  protected onClose(): void {
    this.hand.destroy();
    this.picker.close();
    this.result.close();
  }

  protected redraw(): void {
    this.render(false);
  }

  // ── frames ──────────────────────────────────────────────────────────

  protected onFrame(f: TableFrame<OneCardView>, prev: TableFrame<OneCardView> | null): void {
    this.presence = f.presence;
    const v = f.view;
    const handIds = new Set((v.hand ?? []).map((c) => c.id));
    const legal = new Set(v.legalCardIds);
    this.selected = this.selected.filter((id) => handIds.has(id) && (legal.has(id) || this.selected[0] !== id));
    if (this.selected.length > 0 && !legal.has(this.selected[0])) this.selected = [];
    const needRelayout =
      !prev || prev.view.seats.length !== v.seats.length || (prev.view.hand?.length ?? 0) !== (v.hand?.length ?? 0);
    if (needRelayout) this.relayout(false);
    const animate = prev !== null && f.seq > prev.seq;
    this.render(animate, animate ? f.events : []);
    if (v.legal.mustChooseColor && !this.picker.open) {
      this.picker.show(
        'color',
        fitView(this).width,
        fitView(this).height,
        '시작 색을 골라 주세요',
        (c) => {
          if ('color' in c) this.send({ type: 'chooseColor', color: c.color });
        },
        null,
      );
    }
    if (!v.legal.mustChooseColor && this.picker.open && this.picker.kind === 'color' && this.selected.length === 0)
      this.picker.close();
    if ((f.result || v.finished) && this.resultShownSeq !== f.seq) {
      this.resultShownSeq = f.seq;
      this.time.delayedCall(motionMs(300) + 200, () => this.showResult());
    }
  }

  private seatOrder(v: OneCardView): string[] {
    const seats = v.seats;
    if (v.viewer === null) return seats;
    const me = seats.indexOf(v.viewer);
    // Players after me in seat order, left to right: the clockwise order of §4.
    return [...seats.slice(me + 1), ...seats.slice(0, me)];
  }

  protected relayout(renderAfter = true): void {
    const w = fitView(this).width;
    const h = fitView(this).height;
    const v = this.frame?.view;
    const spectator = !v || v.viewer === null;
    const opponents = v ? this.seatOrder(v).length : 3;
    const l = computeLayout({ width: w, height: h, opponents, handCount: v?.hand?.length ?? 0, spectator });
    this.layout_ = l;
    this.drawBackground(l);
    this.titleText.setPosition(l.title.x, l.title.y + l.title.h / 2).setOrigin(0, 0.5);
    this.titleText.setWordWrapWidth(l.title.w, false);
    this.center.setLayout(l);
    const wide = l.orientation === 'landscape';
    // A line is ≈ 1.25 × the font size: the font follows the row's height, so on a phone on its
    // side (20- and 16-px rows) the status line no longer runs into the hint under it.
    const fits = (px: number, rowH: number) => Math.min(px, Math.floor(rowH / 1.25));
    this.statusText
      .setFontSize(fits(tx(wide ? 20 : 16), l.status.h))
      .setPosition(l.status.x + l.status.w / 2, l.status.y);
    this.statusText.setWordWrapWidth(l.status.w, true);
    this.hintText.setFontSize(fits(tx(wide ? 16 : 13), l.hint.h)).setPosition(l.hint.x + l.hint.w / 2, l.hint.y);
    this.hintText.setWordWrapWidth(l.hint.w, true);
    this.titleText.setFontSize(tx(wide ? 18 : 15));
    this.waitingText.setPosition(w / 2, h / 2);
    // Toasts and chat lines on the status band, the chat button in the top bar: places of their own (issue 41 §1).
    this.toasts.setArea(l.toasts);
    setChatPlace(this.game.canvas, l.menu.chat, l.toasts);
    const b = this.buttons;
    b.play.setRect(l.play);
    b.draw.setRect(l.draw);
    b.oneCard.setRect(l.oneCard);
    b.declareToggle.setRect(l.declareToggle);
    b.sortSuit.setRect(l.sortSuit);
    b.sortRank.setRect(l.sortRank);
    b.rules.setRect(l.menu.rules);
    b.settings.setRect(l.menu.settings);
    b.leave.setRect(l.menu.leave);
    this.meBadge.setRect(l.me);
    this.showBanner();
    if (v) {
      const order = this.seatOrder(v);
      order.forEach((id, i) => {
        let badge = this.badges.get(id);
        if (!badge) {
          badge = new SeatBadge(this);
          this.badges.set(id, badge);
        }
        badge.setRect(l.opponents[i]);
      });
    }
    if (this.result.open && this.frame) this.showResult();
    if (renderAfter) this.render(false);
  }

  private drawBackground(l: TableLayout): void {
    const g = this.bg;
    g.clear();
    g.fillStyle(C.felt, 1).fillRect(0, 0, l.width, l.height);
    // A soft vignette: darker rings towards the edges.
    for (let i = 0; i < 6; i++) {
      g.fillStyle(C.feltDark, 0.07);
      g.fillRect(0, 0, l.width, l.height * (0.08 + i * 0.02));
      g.fillRect(0, l.height * (0.92 - i * 0.02), l.width, l.height * (0.08 + i * 0.02));
    }
    g.fillStyle(0x000000, 0.35).fillRect(l.topBar.x, l.topBar.y, l.topBar.w, l.topBar.h);
  }

  private showBanner(): void {
    const l = this.layout_;
    if (!l) return;
    const msg =
      this.connection === 'reconnecting'
        ? '다시 연결 중…'
        : this.connection === 'connecting' && this.frame
          ? '연결 중…'
          : null;
    this.banner.show(msg, l.width, l.topBar.h + 6);
  }

  // ── rendering ───────────────────────────────────────────────────────

  private seatInfo(v: OneCardView, id: string, mover: string | null): SeatInfo {
    return seatInfoOf(v, this.presence, id, mover);
  }

  private render(animate: boolean, events: GameEvent[] = []): void {
    const l = this.layout_;
    const f = this.frame;
    if (!l) return;
    this.waitingText.setVisible(!f);
    if (!f) {
      for (const b of Object.values(this.buttons))
        if (b !== this.buttons.leave && b !== this.buttons.rules && b !== this.buttons.settings) b.setVisible(false);
      return;
    }
    const v = f.view;
    const settings = getSettings();
    const c = deriveControls(v, this.selected, { hints: settings.hints, pressedFor: this.pressedFor });
    this.controls = c;
    this.titleText.setText(titleVariants(v, this.data_.lead ?? this.data_.title)[0]);

    for (const id of this.seatOrder(v)) this.badges.get(id)?.update(this.seatInfo(v, id, c.mover));
    if (!c.spectator) {
      this.meBadge.container.setVisible(true);
      this.meBadge.update(this.seatInfo(v, v.viewer!, c.mover));
    } else this.meBadge.container.setVisible(false);

    const playedByMe = new Set<string>();
    for (const e of events) this.effects.handle(v, e, playedByMe);
    this.center.update(v, events as { type: string }[], animate);

    const cards = sortHand(v.hand ?? [], settings.sort);
    const states: HandCardState[] = cards.map((card, i) => ({
      card,
      slot: l.cards[i],
      legal: c.myTurn && c.legalIds.has(card.id),
      selected: this.selected.includes(card.id),
      dimmed: c.myTurn && !c.legalIds.has(card.id) && !this.selected.includes(card.id),
      counter: c.underAttack,
    }));
    const playedTo = this.center.discardRect;
    this.hand.update(
      states.filter((s) => s.slot),
      l,
      this.center.drawRect,
      playedTo,
      playedByMe,
      animate,
    );

    const b = this.buttons;
    const live = !this.data_.replay;
    b.play
      .setVisible(c.play.visible && live)
      .setEnabled(c.play.enabled && !this.busy)
      .setText(c.play.label);
    b.draw
      .setVisible(c.draw.visible && live)
      .setEnabled(c.draw.enabled && !this.busy)
      .setText(c.draw.label);
    b.draw.setKind(c.underAttack && c.draw.enabled ? 'danger' : 'secondary');
    b.oneCard
      .setVisible(!c.spectator && live)
      .setEnabled(c.oneCard.enabled)
      .setText(c.oneCard.label)
      .setOn(c.oneCard.catch);
    b.declareToggle
      .setVisible(c.declareToggle.visible && live)
      .setOn(this.declareOnPlay)
      .setText(this.declareOnPlay ? '원카드 외치며 내기 ✔' : '원카드 외치며 내기 ✖');
    b.sortSuit.setVisible(!c.spectator).setOn(settings.sort === 'suit');
    b.sortRank.setVisible(!c.spectator).setOn(settings.sort === 'rank');
    this.setShake(c.oneCard.shake && !c.spectator);

    this.statusText.setText(c.status).setColor(c.myTurn ? '#ffd84a' : '#ffffff');
    this.hintText.setText(c.hint);
    // The canvas is opaque to screen readers: mirror the status line into a live region.
    const sr = document.getElementById('sr');
    const spoken = [c.status, c.hint].filter(Boolean).join('. ');
    if (sr && sr.textContent !== spoken) sr.textContent = spoken;
  }

  private setShake(on: boolean): void {
    const target = this.buttons.oneCard.container;
    if (on && !reducedMotion()) {
      if (this.shakeTween) return;
      this.shakeTween = this.tweens.add({
        targets: target,
        angle: { from: -9, to: 9 },
        duration: 90,
        yoyo: true,
        repeat: -1,
        ease: 'Sine.easeInOut',
      });
    } else {
      this.shakeTween?.stop();
      this.shakeTween = null;
      target.setAngle(0);
    }
  }

  // ── input ───────────────────────────────────────────────────────────

  private onCardTap(id: string): void {
    const f = this.frame;
    const c = this.controls;
    if (!f || !c || this.picker.open || this.result.open) return;
    const v = f.view;
    if (!c.myTurn) {
      this.toasts.show('내 차례가 아니에요');
      return;
    }
    const card = v.hand?.find((x) => x.id === id);
    if (!card) return;
    if (this.selected.includes(id)) {
      // Second tap on a raised card plays it (§9).
      if (this.selected[0] === id || this.selected.length === 1) this.onPlayButton();
      else this.selected = this.selected.filter((x) => x !== id);
      this.render(false);
      return;
    }
    const byId = new Map((v.hand ?? []).map((x) => [x.id, x]));
    const sel = this.selected.map((x) => byId.get(x)!).filter(Boolean);
    if (
      sel.length > 0 &&
      v.legal.multiPlay &&
      sel[0].kind === 'std' &&
      card.kind === 'std' &&
      sel[0].rank === card.rank
    ) {
      this.selected = [...this.selected, id];
    } else if (c.legalIds.has(id)) {
      this.selected = [id];
      this.declareOnPlay = true;
    } else {
      // The engine's reason ("같은 무늬나 같은 숫자 카드만 낼 수 있어요"), not just "no".
      const why = cardRefusal(v, card);
      this.toasts.show(why ?? (c.underAttack ? '이 카드로는 막을 수 없어요' : '지금은 낼 수 없는 카드예요'));
      this.data_.onRefused?.(why ?? '지금은 낼 수 없는 카드예요');
      return;
    }
    this.render(false);
  }

  private onCardDrop(id: string, x: number, y: number): void {
    const d = this.center.discardRect;
    const onPile = x >= d.x - 24 && x <= d.x + d.w + 24 && y >= d.y - 24 && y <= d.y + d.h + 24;
    const c = this.controls;
    if (onPile && c?.myTurn && (c.legalIds.has(id) || this.selected.includes(id))) {
      if (!this.selected.includes(id)) {
        this.selected = [id];
        this.declareOnPlay = true;
      }
      this.render(false);
      this.onPlayButton();
      return;
    }
    if (onPile && c && !c.myTurn) this.toasts.show('내 차례가 아니에요');
    else if (onPile) this.toasts.show('지금은 낼 수 없는 카드예요');
    this.render(true);
  }

  private onPlayButton(): void {
    const c = this.controls;
    const v = this.frame?.view;
    if (!c || !v || !c.play.enabled || this.busy) return;
    if (v.phase.kind === 'wild4Response') {
      this.send({ type: 'challengeWild4' });
      return;
    }
    const declare = c.declareToggle.visible && this.declareOnPlay;
    const ids = [...this.selected];
    if (c.picker) {
      const kind = c.picker.kind;
      this.picker.show(
        kind,
        fitView(this).width,
        fitView(this).height,
        kind === 'suit' ? '다음 무늬를 골라 주세요' : '다음 색을 골라 주세요',
        (choice: PickerChoice) => {
          this.send(buildPlay(ids, 'suit' in choice ? { suit: choice.suit } : { color: choice.color }, declare));
        },
        () => this.render(false),
      );
      return;
    }
    this.send(buildPlay(ids, {}, declare));
  }

  private onDrawButton(): void {
    const c = this.controls;
    if (!c || !c.draw.enabled || this.busy) return;
    const action: OneCardAction =
      c.draw.action === 'pass'
        ? { type: 'pass' }
        : c.draw.action === 'acceptWild4'
          ? { type: 'acceptWild4' }
          : { type: 'draw' };
    this.send(action);
  }

  /** One 원카드 press per window: a second tap before the answer could only be refused. */
  private callOneCard(): void {
    const w = this.frame ? openWindow(this.frame.view) : null;
    if (!w || this.pressedFor === w.openedSeq) return;
    this.pressedFor = w.openedSeq;
    this.send(
      { type: 'declareOneCard' },
      {
        concurrent: true,
        answered: () => {
          if (this.pressedFor === w.openedSeq) this.pressedFor = null;
        },
      },
    );
  }

  /** A played or drawn hand leaves nothing selected; other answers keep the selection. */
  protected override send(action: OneCardAction, opts: SendOptions = {}): void {
    const played = action.type === 'play' || action.type === 'draw';
    super.send(action, {
      ...opts,
      accepted: () => {
        if (played) this.selected = [];
        opts.accepted?.();
      },
    });
  }

  private setSort(mode: 'suit' | 'rank'): void {
    updateSettings({ sort: getSettings().sort === mode ? 'none' : mode });
  }

  protected playing(): boolean {
    const v = this.frame?.view;
    return !!v && !v.finished && v.viewer !== null && v.status[v.viewer] === 'playing';
  }

  // ── result ──────────────────────────────────────────────────────────

  private showResult(): void {
    const f = this.frame;
    if (!f) return;
    const data = resultData(f.view, f.result);
    this.result.show(data, fitView(this).width, fitView(this).height, this.resultButtons(this.result));
    this.result.setVerified(verifySeed(data.seed, data.seedCommit));
  }

  // ── test hook ───────────────────────────────────────────────────────

  snapshot(): Record<string, unknown> {
    const f = this.frame;
    return tableSnapshot({
      layout: this.layout_,
      frame: f,
      controls: this.controls,
      connection: this.connection,
      banner: this.banner.message,
      bannerLog: this.banner.log,
      framesSeen: this.framesSeen,
      busy: this.busy || this.hand.busy(),
      shaking: this.shakeTween !== null,
      status: this.statusText.text,
      hint: this.hintText.text,
      center: this.center,
      hand: this.hand.snapshot(),
      buttons: this.buttons,
      seats: f ? this.seatOrder(f.view).map((id) => this.badges.get(id)!) : [],
      me: f && f.view.viewer ? this.meBadge : null,
      picker: this.picker,
      result: this.result,
      toasts: this.toasts.log,
      toastArea: this.toasts.place,
    });
  }

  layoutRects(): TableLayout | null {
    return this.layout_;
  }

  override update(): void {
    const f = this.frame;
    if (!f || !this.controls) return;
    const frac = timerFraction(f.view, this.source.serverNow());
    for (const [id, badge] of this.badges) badge.setTimer(id === this.controls.mover ? frac : null);
    this.meBadge.setTimer(this.controls.myTurn ? frac : null);
  }
}
