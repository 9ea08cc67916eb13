/**
 * Draws one 훌라 frame: opponents (name, card count, 등록 mark, points, turn
 * highlight), the stock with its count and the discard pile's top card, the
 * melds on the table grouped by owner, and the own hand. Everything is
 * redrawn per frame (a few dozen objects) and the rectangles that take taps
 * are kept for the scene's hit test and the test hook.
 */
import type Phaser from 'phaser';
import { backTexture, faceTexture } from '../../table-kit/textures.ts';
import { C, SEAT_COLORS, hex, textStyle } from '../../table-kit/theme.ts';
import { motionMs } from '../../settings.ts';
import { Flights, MotionLog, pop } from '../../table-kit/motion.ts';
import { arrivalStart, type Arrival, type MeldSlide, type ThankYouMark } from './arrivals.ts';
import type { Rect } from '../../table-kit/rect.ts';
import { placeMelds, type HulaLayout } from './layout.ts';
import { artCard, cardName, nameOf, points, type Card, type HulaView } from './model.ts';

export interface DrawnCard {
  id: string;
  label: string;
  selected: boolean;
  visible: Rect;
}

export class HulaTableView {
  private objs: Phaser.GameObjects.GameObject[] = [];
  cards: DrawnCard[] = [];
  melds: { id: number; owner: string; rect: Rect; cards: string[] }[] = [];
  opponents: { id: string; name: string; count: number; rect: Rect; current: boolean }[] = [];
  /** Centre of each opponent's avatar, for the timer ring. */
  avatars = new Map<string, { x: number; y: number }>();
  /** Cards that slid onto the table (for the test hook), one entry per meld and frame. */
  readonly slides = new MotionLog<MeldSlide>(50);
  /** 땡큐 claims highlighted so far (for the test hook). */
  readonly thankYous = new MotionLog<ThankYouMark>(20);
  private readonly flights: Flights;
  /** Cards arriving in the next render (set by the scene from the frame's events). */
  private pending: Arrival[] = [];

  constructor(private readonly scene: Phaser.Scene) {
    this.flights = new Flights(() => scene.time.now);
  }

  /** Cards still sliding onto the table. */
  get flying(): number {
    return this.flights.count();
  }

  /** How far the slide under way has got (0…1), for a test that holds the picture mid-way. */
  get flightProgress(): number {
    return this.flights.progress();
  }

  /** The next render slides these cards in (등록, 붙이기, 땡큐). */
  expect(list: Arrival[]): void {
    this.pending = list;
  }

  /**
   * A 땡큐 claim: a gold ring pulses around the claimer and around the
   * discard pile's top card (the claimed card), then fades; with motion
   * reduced the rings hold still a moment and go.
   */
  highlightThankYou(player: string, card: string | null, view: HulaView, l: HulaLayout): void {
    const s = this.scene;
    const at =
      player === view.viewer ? { x: l.hand.area.x + l.hand.area.w / 2, y: l.hand.area.y } : this.avatars.get(player);
    if (!at) return;
    const d = l.discard;
    const ms = motionMs(300);
    this.thankYous.record({ player, at, card, pile: { x: d.x + d.w / 2, y: d.y + d.h / 2 } }, ms);
    const ring = s.add.graphics().setDepth(45).setPosition(at.x, at.y);
    ring.lineStyle(4, C.gold, 1).strokeCircle(0, 0, 20);
    const pile = s.add
      .graphics()
      .setDepth(45)
      .setPosition(d.x + d.w / 2, d.y + d.h / 2);
    pile.lineStyle(4, C.gold, 1).strokeRoundedRect(-d.w / 2 - 4, -d.h / 2 - 4, d.w + 8, d.h + 8, 10);
    pile.fillStyle(C.gold, 0.18).fillRoundedRect(-d.w / 2 - 4, -d.h / 2 - 4, d.w + 8, d.h + 8, 10);
    for (const g of [ring, pile])
      if (pop(s, g, 1.35) > 0)
        s.tweens.add({ targets: g, alpha: 0, delay: 600, duration: ms, onComplete: () => g.destroy() });
      else s.time.delayedCall(900, () => g.destroy());
  }

  private keep<T extends Phaser.GameObjects.GameObject>(o: T): T {
    this.objs.push(o);
    return o;
  }

  private text(x: number, y: number, s: string, size: number, color = '#ffffff', weight: 600 | 700 | 800 = 700) {
    return this.keep(this.scene.add.text(x, y, s, textStyle(size, color, weight)).setDepth(20));
  }

  private fit(t: Phaser.GameObjects.Text, maxW: number): void {
    const full = t.text;
    let chars = [...full];
    while (t.width > maxW && chars.length > 1) {
      chars = chars.slice(0, -1);
      t.setText(`${chars.join('')}…`);
    }
  }

  clear(): void {
    for (const o of this.objs) {
      this.scene.tweens.killTweensOf(o);
      o.destroy();
    }
    this.objs = [];
    this.cards = [];
    this.melds = [];
    this.opponents = [];
    this.avatars.clear();
  }

  render(
    view: HulaView,
    l: HulaLayout,
    hand: Card[],
    selected: readonly string[],
    chosenMeld: number | null,
    mover: string | null,
  ): void {
    // Where my cards were, so a card I register or lay off slides from its own place in the hand.
    const handWas = new Map(this.cards.map((c) => [c.id, c.visible]));
    this.clear();
    const s = this.scene;
    // The felt: a darker table under the piles, the status and everyone's melds.
    const felt = this.keep(s.add.graphics().setDepth(5));
    const f = l.felt;
    felt.fillStyle(C.feltDark, 0.6).fillRoundedRect(f.x, f.y, f.w, f.h, 18);
    felt.lineStyle(3, C.feltLine, 1).strokeRoundedRect(f.x, f.y, f.w, f.h, 18);
    const g = this.keep(s.add.graphics().setDepth(10));
    // Opponents: everyone but the viewer, in seat order starting after the viewer.
    const seats = view.seats;
    const meIdx = seats.findIndex((x) => x.id === view.viewer);
    const n = seats.length;
    const opp = meIdx >= 0 ? Array.from({ length: n - 1 }, (_, i) => seats[(meIdx + 1 + i) % n]) : seats;
    opp.forEach((seat, i) => {
      const r = l.opponents[i];
      if (!r) return;
      const current = seat.id === mover;
      g.fillStyle(C.panel, seat.status === 'left' ? 0.45 : 0.85).fillRoundedRect(r.x, r.y, r.w, r.h, 12);
      g.lineStyle(current ? 3 : 1.5, current ? C.gold : C.feltLine, 1).strokeRoundedRect(r.x, r.y, r.w, r.h, 12);
      const ax = r.x + 18;
      const ay = r.y + 20;
      g.fillStyle(SEAT_COLORS[seats.indexOf(seat) % SEAT_COLORS.length], 1).fillCircle(ax, ay, 12);
      this.avatars.set(seat.id, { x: ax, y: ay });
      this.keep(
        s.add
          .text(ax, ay, [...seat.name][0] ?? '?', textStyle(12, '#1c1d24', 800))
          .setOrigin(0.5)
          .setDepth(21),
      );
      const name = this.text(r.x + 36, r.y + 11, seat.name, 13, current ? hex(C.gold) : '#ffffff', 800);
      this.fit(name, r.w - 42);
      const state =
        seat.status === 'left' ? '나감' : seat.leaveReserved ? '나가기 예약' : seat.registered ? '등록' : '';
      // A short badge (phone on its side) puts the count and the points on one line.
      const short = r.h < 70;
      const count = this.text(r.x + 8, r.y + 36, `${seat.handCount}장${state ? ` · ${state}` : ''}`, 12, '#d8e6de');
      this.fit(count, short ? r.w / 2 - 10 : r.w - 12);
      const pts = short
        ? this.text(
            r.x + r.w - 8,
            r.y + 36,
            points(seat.points),
            12,
            seat.points < 0 ? '#ff9f94' : '#ffe7a3',
          ).setOrigin(1, 0)
        : this.text(r.x + 8, r.y + 54, points(seat.points), 12, seat.points < 0 ? '#ff9f94' : '#ffe7a3');
      this.fit(pts, short ? r.w / 2 - 10 : r.w - 12);
      this.opponents.push({ id: seat.id, name: seat.name, count: seat.handCount, rect: r, current });
    });

    // Stock and discard pile, outlined in gold when the viewer may draw from them.
    const me = view.me;
    const drawing = view.phase.kind === 'draw' && view.phase.player === view.viewer;
    if (view.stockCount > 0)
      this.keep(s.add.image(l.stock.x, l.stock.y, backTexture(s, 'classic')).setOrigin(0).setDepth(11)).setDisplaySize(
        l.stock.w,
        l.stock.h,
      );
    else g.lineStyle(2, C.feltLine, 1).strokeRoundedRect(l.stock.x, l.stock.y, l.stock.w, l.stock.h, 8);
    if (view.discardTop)
      this.keep(s.add.image(l.discard.x, l.discard.y, faceTexture(s, artCard(view.discardTop))).setOrigin(0))
        .setDepth(11)
        .setDisplaySize(l.discard.w, l.discard.h);
    else g.lineStyle(2, C.feltLine, 1).strokeRoundedRect(l.discard.x, l.discard.y, l.discard.w, l.discard.h, 8);
    const hi = this.keep(s.add.graphics().setDepth(12));
    if (drawing && me?.canDraw)
      hi.lineStyle(3, C.legal, 1).strokeRoundedRect(l.stock.x - 3, l.stock.y - 3, l.stock.w + 6, l.stock.h + 6, 10);
    if (drawing && me?.canDrawDiscard)
      hi.lineStyle(3, C.legal, 1).strokeRoundedRect(
        l.discard.x - 3,
        l.discard.y - 3,
        l.discard.w + 6,
        l.discard.h + 6,
        10,
      );
    this.keep(
      s.add
        .text(
          l.stock.x - 8,
          l.stock.y + l.stock.h / 2,
          `덱\n${view.stockCount}장`,
          textStyle(13, '#ffffff', 700, { align: 'right' }),
        )
        .setOrigin(1, 0.5)
        .setDepth(20),
    );
    this.keep(
      s.add
        .text(
          l.discard.x + l.discard.w + 8,
          l.discard.y + l.discard.h / 2,
          `버린 카드\n${view.discardCount}장`,
          textStyle(13, '#ffffff', 700),
        )
        .setOrigin(0, 0.5)
        .setDepth(20),
    );

    // Melds grouped by owner, in seat order.
    const groups = seats
      .map((seat) => ({ owner: seat.id, melds: view.melds.filter((m) => m.owner === seat.id) }))
      .filter((x) => x.melds.length > 0);
    const placed = placeMelds(
      groups.map((x) => ({ owner: x.owner, melds: x.melds.map((m) => ({ id: m.id, cards: m.cards.length })) })),
      l.melds,
    );
    if (groups.length === 0)
      this.keep(
        s.add
          .text(l.melds.x + l.melds.w / 2, l.melds.y + 24, '아직 등록한 카드가 없어요', textStyle(13, '#9fc3b0', 600))
          .setOrigin(0.5, 0)
          .setDepth(20),
      );
    for (const lab of placed.labels) {
      const who = lab.owner === view.viewer ? '나' : nameOf(view, lab.owner);
      this.fit(this.text(lab.rect.x, lab.rect.y, who, 12, '#ffe7a3'), lab.rect.w);
    }
    for (const lab of placed.labels) {
      // A faint panel per owner so a glance tells whose melds are whose.
      const rows = placed.melds.filter((m) => view.melds.find((x) => x.id === m.id)?.owner === lab.owner);
      const bottom = Math.max(lab.rect.y + lab.rect.h, ...rows.map((m) => m.rect.y + m.rect.h));
      const right = Math.max(lab.rect.x + lab.rect.w, ...rows.map((m) => m.rect.x + m.rect.w));
      g.fillStyle(lab.owner === view.viewer ? 0x2f80ed : 0x000000, 0.18);
      g.fillRoundedRect(lab.rect.x - 4, lab.rect.y - 2, right - lab.rect.x + 8, bottom - lab.rect.y + 6, 8);
    }
    for (const p of placed.melds) {
      const meld = view.melds.find((m) => m.id === p.id)!;
      const coming = new Map(this.pending.filter((a) => a.meld === meld.id).map((a) => [a.card, a]));
      const moved: (Omit<MeldSlide, 'cards' | 'meld' | 'owner'> & { card: string })[] = [];
      meld.cards.forEach((c, i) => {
        const img = this.keep(
          s.add
            .image(p.rect.x + i * p.step, p.rect.y, faceTexture(s, artCard(c)))
            .setOrigin(0)
            .setDepth(13),
        ).setDisplaySize(placed.cardW, placed.cardH);
        const a = coming.get(c.id);
        const from = a && arrivalStart(a, { viewer: view.viewer, layout: l, handWas, seats: this.avatars }, placed);
        if (a && from) {
          moved.push({ card: c.id, from, to: { x: img.x, y: img.y }, by: a.by, kind: a.kind, pile: a.fromPile });
          this.flights.begin(c.id, from);
          // The claimed 땡큐 card flies over the claimer's own cards.
          if (a.fromPile) img.setDepth(14);
        }
        this.flights.place(s, img, c.id);
      });
      // One entry per source: the claimed 땡큐 card comes off the pile, the rest from a hand or a seat.
      for (const pile of [false, true]) {
        const group = moved.filter((m) => m.pile === pile);
        if (group.length === 0) continue;
        const { by, kind, from, to } = group[0];
        const cards = group.map((m) => m.card);
        this.slides.record({ meld: meld.id, owner: meld.owner, by, kind, pile, cards, from, to }, motionMs(300));
      }
      if (meld.id === chosenMeld)
        hi.lineStyle(3, C.selected, 1).strokeRoundedRect(p.rect.x - 3, p.rect.y - 3, p.rect.w + 6, p.rect.h + 6, 6);
      this.melds.push({ id: meld.id, owner: meld.owner, rect: p.rect, cards: meld.cards.map((c) => c.id) });
    }
    this.pending = [];

    // Own hand: selected cards rise; the card the view prompts to discard is outlined.
    const h = l.hand;
    hand.forEach((c, i) => {
      const slot = h.slots[i];
      if (!slot) return;
      const sel = selected.includes(c.id);
      const y = slot.y - (sel ? h.lift : 0);
      this.keep(
        s.add
          .image(slot.x, y, faceTexture(s, artCard(c)))
          .setOrigin(0)
          .setDepth(30 + i),
      ).setDisplaySize(h.cardW, h.cardH);
      if (sel || me?.discardPrompt === c.id) {
        const o = this.keep(s.add.graphics().setDepth(30 + i));
        o.lineStyle(3, sel ? C.selected : C.legal, 1).strokeRoundedRect(slot.x, y, h.cardW, h.cardH, 7);
      }
      this.cards.push({ id: c.id, label: cardName(c), selected: sel, visible: slot.visible });
    });
  }
}
