/**
 * The 포커 table for every mode (spec §9). Draws whatever frame the source
 * delivers — the per-viewer view is the truth — and turns taps into actions
 * from the view's legal actions (actions.ts). The only local state is the
 * action bar's: raise panel, cards picked for a draw, the 7-poker choice.
 * Source wiring, busy/send, leave and exit come from the kit's TableSceneBase.
 */
import Phaser from 'phaser';
import { fitView } from '../../display.ts';
import type { ConnStatus } from '../../net/gateway.ts';
import { TableSceneBase, type TableSceneData } from '../../table-kit/table-scene.ts';
import { verifySeed } from '../../table-kit/seed-check.ts';
import { ResultPanel, Toasts } from '../../table-kit/overlays.ts';
import type { TableFrame } from '../../table-kit/source.ts';
import { C, textStyle, tx } from '../../table-kit/theme.ts';
import { Button } from '../../table-kit/widgets.ts';
import { confirmDialog } from '../../ui/sheets.ts';
import { actionBar, emptyBarState, pressUi, type ActionButton, type Bar, type BarState } from './actions.ts';
import { statusLine } from './status.ts';
import { computePokerLayout, type PokerLayout } from './layout.ts';
import { ActionBarView } from './bar-view.ts';
import { opponentsOf, type PokerAction, type PokerView } from './model.ts';
import { clockColor, drawRing, restyle, drawSeat, seatInfo } from './seat.ts';
import { clockRect, drawCenter, drawLog, drawMine, myCards, type MyCard } from './table-parts.ts';
import { rankTable, usedColumns } from './panels.ts';
import { drawRanks, drawUsed } from './panels-draw.ts';
import { pokerResult } from './result-rows.ts';
import { ChipFx, chipMoves } from './chips-fx.ts';
import { potPlaces } from './pot-places.ts';
import { fitTitle, titleVariants } from './title.ts';
import { motionMs } from '../../settings.ts';
import { countdown, seatStory } from './story.ts';
import { whyDisabled } from './why.ts';
import { pokerSnapshot } from './snapshot.ts';
import { openTableRules, roomOptions } from '../../ui/rules-button.ts';
import { clockDecided } from './clock-notice.ts';
import { setChatPlace } from '../../chat/chat-place.ts';

export class PokerScene extends TableSceneBase<PokerAction, PokerView> {
  private layout_: PokerLayout | null = null;
  private bg!: Phaser.GameObjects.Graphics;
  private dyn!: Phaser.GameObjects.Container;
  private ring!: Phaser.GameObjects.Graphics;
  private ringLabel!: Phaser.GameObjects.Text;
  private clockLabel!: Phaser.GameObjects.Text;
  private chipFx!: ChipFx;
  /** When this hand's showdown appeared (scene time): seats flip their cards in showing order from then. */
  private reveal: { hand: number; at: number } | null = null;
  /** Showdown flips started (for the test hook): seat and its place in the showing order. */
  private flips: { hand: number; seat: string; order: number }[] = [];
  private title!: Phaser.GameObjects.Text;
  private waiting!: Phaser.GameObjects.Text;
  private menu!: { rules: Button; leave: Button };
  private barView!: ActionBarView;
  private bar: Bar | null = null;
  private ui: BarState = emptyBarState();
  private mine: MyCard[] = [];
  protected toasts!: Toasts;
  private result!: ResultPanel;
  private resultShownSeq = -1;
  private barKey = '';

  constructor() {
    super('poker');
  }

  override init(data: TableSceneData<PokerAction, PokerView>): void {
    super.init(data);
    this.layout_ = null;
    this.ui = emptyBarState();
    this.resultShownSeq = -1;
    this.barKey = '';
  }

  private get view(): PokerView | null {
    return this.frame?.view ?? null;
  }

  create(): void {
    this.bg = this.add.graphics().setDepth(0);
    this.dyn = this.add.container(0, 0).setDepth(10);
    this.ring = this.add.graphics().setDepth(30);
    this.ringLabel = this.add
      .text(0, 0, '', textStyle(13, '#ffffff', 800))
      .setOrigin(0.5)
      .setDepth(31);
    this.clockLabel = this.add
      .text(0, 0, '', textStyle(15, '#ffffff', 800))
      .setOrigin(0.5)
      .setDepth(31);
    this.chipFx = new ChipFx(this);
    this.title = this.add
      .text(0, 0, this.data_.title, textStyle(15, '#ffffff', 700))
      .setOrigin(0, 0.5)
      .setDepth(40);
    this.waiting = this.add.text(0, 0, '테이블에 연결하는 중…', textStyle(18)).setOrigin(0.5).setDepth(40);
    this.menu = {
      rules: new Button(this, '규칙', 'ghost', () =>
        openTableRules('poker', { mode: this.view?.mode, options: roomOptions(this.view?.options) }),
      ),
      leave: new Button(this, '나가기', 'ghost', () => this.leave()),
    };
    this.barView = new ActionBarView(
      this,
      (a) => this.onButton(a),
      (a) => {
        const v = this.view;
        const why = v ? whyDisabled(v, a, this.ui, this.busy) : null;
        if (why) this.toasts.show(why, 'warn');
        if (why) this.data_.onRefused?.(why);
      },
      // The raise slider (§9 NL/PL): a drag or a key sets the raise-to, the bar redraws with it.
      (to) => {
        if (!this.view || this.busy || !this.ui.raiseOpen) return;
        this.ui = { ...this.ui, raiseTo: to };
        this.render();
      },
    );
    this.toasts = new Toasts(this);
    this.result = new ResultPanel(this);
    this.openTable();
  }

  protected override onConnection(s: ConnStatus): void {
    if (s === 'reconnecting') this.toasts.show('다시 연결 중…', 'warn');
  }

  protected onClose(): void {
    this.result.close();
  }

  protected redraw(): void {
    this.render();
  }

  protected onFrame(f: TableFrame<PokerView>, prevFrame: TableFrame<PokerView> | null): void {
    const prev = prevFrame?.view ?? null;
    const v = f.view;
    // A new decision (another phase, street or hand) starts with a clean bar.
    const key = `${v.hand?.handNo}:${v.hand?.phase}:${v.hand?.street}:${v.legalActions.map((a) => a.type).join()}`;
    if (key !== this.barKey) {
      this.barKey = key;
      this.ui = emptyBarState();
    }
    const sd = v.hand?.showdown;
    if (sd?.length && this.reveal?.hand !== v.hand!.handNo) {
      this.reveal = { hand: v.hand!.handNo, at: this.time.now };
      sd.forEach((e, order) => this.flips.push({ hand: v.hand!.handNo, seat: e.id, order }));
      if (this.flips.length > 60) this.flips.splice(0, this.flips.length - 60);
    }
    const count = myCards(v).length;
    if (
      !prev ||
      !this.layout_ ||
      this.layout_.cards.length !== count ||
      opponentsOf(prev).length !== opponentsOf(v).length
    )
      this.relayout(false);
    this.render();
    // The clock decided for me: say what it did, so an auto-fold is never a silent surprise.
    const told = clockDecided(prev, v, f.events);
    if (told) this.toasts.show(told, 'warn');
    if (this.layout_) this.chipFx.play(chipMoves(prev, v, (id) => this.seatRect(id), potPlaces(this.layout_).chips));
    if ((f.result || v.finished) && this.resultShownSeq !== f.seq) {
      this.resultShownSeq = f.seq;
      this.time.delayedCall(600, () => this.showResult());
    }
  }

  /** Where a player sits on the screen (an opponent's seat or my strip). */
  private seatRect(id: string): PokerLayout['me'] | null {
    const v = this.view;
    const l = this.layout_;
    if (!v || !l) return null;
    if (id === v.viewer) return l.me;
    const i = opponentsOf(v).findIndex((s) => s.id === id);
    return i >= 0 ? (l.seats[i] ?? null) : null;
  }

  protected relayout(renderAfter = true): void {
    const v = this.view;
    const W = fitView(this).width;
    const H = fitView(this).height;
    const l = computePokerLayout({
      width: W,
      height: H,
      opponents: v ? opponentsOf(v).length : 3,
      board: !v || v.mode === 'holdem' || v.mode === 'omaha',
      usedPanel: v?.mode === 'indian',
      myCards: v ? myCards(v).length : 0,
      spectator: !v || v.viewer === null,
    });
    this.layout_ = l;
    const g = this.bg.clear();
    g.fillStyle(C.felt, 1).fillRect(0, 0, W, H);
    // The table: a darker oval behind the middle.
    const f = l.felt;
    g.fillStyle(C.feltDark, 0.55).fillEllipse(f.x + f.w / 2, f.y + f.h / 2, f.w, f.h, 96);
    g.lineStyle(3, C.feltLine, 1).strokeEllipse(f.x + f.w / 2, f.y + f.h / 2, f.w, f.h, 96);
    g.fillStyle(0x000000, 0.35).fillRect(0, 0, W, l.topBar.h);
    this.title.setPosition(l.title.x, l.title.h / 2).setFontSize(tx(l.orientation === 'landscape' ? 18 : 14));
    this.waiting.setPosition(W / 2, H / 2);
    this.menu.rules.setRect(l.menu.rules);
    this.menu.leave.setRect(l.menu.leave);
    // Toasts and chat lines in their band (clear of the status line), the chat button in the top bar: places
    // of their own (issue 41 §1).
    this.toasts.setArea(l.toasts);
    setChatPlace(this.game.canvas, l.menu.chat, l.toasts);
    if (this.result.open) this.showResult();
    if (renderAfter) this.render();
  }

  private render(): void {
    const l = this.layout_;
    const v = this.view;
    this.dyn.removeAll(true);
    this.waiting.setVisible(!v);
    if (!l || !v) return;
    fitTitle(this.title, l.title.w, titleVariants(v, this.data_.lead ?? null));
    opponentsOf(v).forEach((s, i) => drawSeat(this, this.dyn, l.seats[i], seatInfo(v, s, false), this.flipOf(v, s.id)));
    drawCenter(this, this.dyn, l, v, statusLine(v));
    if (l.log) drawLog(this, this.dyn, l.log, v);
    if (l.ranks) drawRanks(this, this.dyn, l.ranks, rankTable(v));
    if (l.used && v.mode === 'indian') drawUsed(this, this.dyn, l.used, usedColumns(v));
    this.mine = myCards(v);
    if (v.viewer !== null) drawMine(this, this.dyn, l, v, this.mine, this.ui, (id) => this.onCardTap(id));
    // A 복기 plays nothing: no live action button, whatever the seat looked from could have done.
    this.bar = this.data_.replay ? { buttons: [], perRow: 4, prompt: '' } : actionBar(v, this.ui);
    this.barView.update(l, v, this.bar, this.busy);
  }

  /** The showdown flip of a seat, in the engine's showing order, 250 ms apart; null when done or motion is reduced. */
  private flipOf(v: PokerView, id: string): { elapsed: number; ms: number } | null {
    const ms = motionMs(200);
    const order = v.hand?.showdown?.findIndex((e) => e.id === id) ?? -1;
    if (!this.reveal || this.reveal.hand !== v.hand?.handNo || order < 0 || ms === 0) return null;
    const elapsed = this.time.now - this.reveal.at - order * 250;
    return elapsed < ms + 300 ? { elapsed, ms } : null;
  }

  private onCardTap(id: number): void {
    const v = this.view;
    if (!v || this.busy) return;
    const types = new Set(v.legalActions.map((a) => a.type));
    if (types.has('choose')) {
      const c = this.ui.choice;
      if (c.discardId === id) this.ui.choice = { discardId: null, openId: null };
      else if (c.openId === id) this.ui.choice = { ...c, openId: null };
      else if (c.discardId === null) this.ui.choice = { discardId: id, openId: null };
      else this.ui.choice = { ...c, openId: id };
    } else if (types.has('draw')) {
      const s = this.ui.selected;
      this.ui.selected = s.includes(id) ? s.filter((x) => x !== id) : [...s, id];
    } else return;
    this.render();
  }

  private onButton(a: ActionButton): void {
    const v = this.view;
    if (!a || !a.enabled || !v || this.busy) return;
    if (a.ui) this.ui = pressUi(v, this.ui, a);
    else if (a.action) {
      const action = a.action;
      if (a.confirm) confirmDialog(a.confirm, a.label.split(' ')[0], () => this.sendAction(action));
      else this.sendAction(action);
      return;
    }
    this.render();
  }

  /** An accepted action starts the next decision with a clean bar. */
  private sendAction(action: PokerAction): void {
    this.send(action, {
      accepted: () => {
        this.ui = emptyBarState();
      },
    });
  }

  protected playing(): boolean {
    const v = this.view;
    return !!v && !v.finished && v.viewer !== null;
  }

  private showResult(): void {
    const v = this.view;
    if (!v) return;
    const data = pokerResult(v, this.frame?.result ?? null);
    this.result.show(data, fitView(this).width, fitView(this).height, this.resultButtons(this.result));
    this.result.setVerified(verifySeed(data.seed, data.seedCommit));
  }

  override update(): void {
    const v = this.view;
    const l = this.layout_;
    this.ring.clear();
    this.ringLabel.setVisible(false);
    this.clockLabel.setVisible(false);
    const c = v && l ? countdown(v, this.source.serverNow()) : null;
    if (!v || !l || !c) return;
    if (c.seat) {
      // Betting: a ring with the seconds on the seat whose turn it is.
      const r = this.seatRect(c.seat);
      if (r) drawRing(this.ring, this.ringLabel, r, c, r === l.me ? l.me.h / 2 : 15);
      return;
    }
    // Everyone's clock (choice, draw, declare, rebuy, next hand): a pill at the end of the status line.
    const r = clockRect(l);
    this.ring.fillStyle(c.urgent ? 0x5a1410 : 0x000000, 0.6).fillRoundedRect(r.x, r.y, r.w, r.h, r.h / 2);
    this.ring.fillStyle(clockColor(c), 0.9).fillRoundedRect(r.x, r.y + r.h - 4, r.w * c.frac, 4, 2);
    restyle(
      this.clockLabel
        .setText(c.label)
        .setPosition(r.x + r.w / 2, r.y + r.h / 2 - 1)
        .setVisible(true),
      c.urgent ? '#ff8a80' : '#ffffff',
      c.urgent ? 16 : 14,
    );
  }

  snapshot(): Record<string, unknown> {
    return pokerSnapshot({
      layout: this.layout_,
      frame: this.frame,
      view: this.view,
      buttons: this.barView.visible(),
      slider: this.barView.sliderShown(),
      mine: this.mine,
      ui: this.ui,
      busy: this.busy,
      connection: this.connection,
      frames: this.framesSeen,
      prompt: this.bar?.prompt ?? '',
      result: this.result,
      toasts: this.toasts.log,
      menu: this.menu,
      story: this.view ? this.view.seats.map((x) => ({ ...seatStory(this.view!, x.id), name: x.name })) : [],
      clock: this.view ? countdown(this.view, this.source.serverNow()) : null,
      clockShown: this.clockLabel.visible ? this.clockLabel.text : this.ringLabel.visible ? this.ringLabel.text : null,
      chipMoves: this.chipFx.log,
      flips: this.flips,
      toastArea: this.toasts.place,
    });
  }
}
