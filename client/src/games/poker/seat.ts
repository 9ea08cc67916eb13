/**
 * One seat around the poker table (§9): name, stack, this round's bet,
 * state badge (다이/올인/자리 비움 or the last action), dealer/boss marks,
 * cards (backs, up cards, an indian forehead, revealed hands at showdown)
 * and the turn highlight. Drawn fresh into a container on every render.
 */
import type Phaser from 'phaser';
import type { Rect } from '../../table-kit/rect.ts';
import { C, textStyle, tx } from '../../table-kit/theme.ts';
import { addCard, miniRow, type Shown } from './cards.ts';
import { chips, type HandPlayerView, type PokerView, type SeatView } from './model.ts';
import { DRAW_NAMES, seatStory, type Countdown, type SeatStory } from './story.ts';

export interface SeatInfo {
  id: string;
  name: string;
  stack: number;
  bet: number;
  state: string;
  folded: boolean;
  allIn: boolean;
  away: boolean;
  turn: boolean;
  dealer: boolean;
  winner: boolean;
  handName: string | null;
  cards: Shown[];
  story: SeatStory;
  /** Last draw, short: "점심 1장". */
  lastDraw: string | null;
}

const STATUS: Record<SeatView['status'], string> = { playing: '', busted: '칩 없음', eliminated: '탈락', left: '나감' };

export function seatInfo(v: PokerView, seat: SeatView, me: boolean): SeatInfo {
  const h = v.hand;
  const p: HandPlayerView | undefined = h?.players.find((x) => x.id === seat.id);
  const story = seatStory(v, seat.id);
  let cards: Shown[] = [];
  if (p) {
    if (v.mode === 'indian') cards = [p.forehead ?? (me ? 'forehead' : { hidden: true }), ...p.hole];
    else if (p.choice && !p.choiceDone) cards = p.choice;
    else cards = [...p.hole, ...p.up];
  }
  const state = !p
    ? STATUS[seat.status]
    : seat.away
      ? '자리 비움'
      : p.folded
        ? '다이'
        : p.allIn
          ? '올인'
          : // A revealed declaration says more than the last bet word (하이로우).
            (story.declare ?? p.lastAction ?? '');
  const counts = p?.drawCounts ?? [];
  return {
    id: seat.id,
    name: seat.name,
    stack: seat.stack,
    bet: p?.committedRound ?? 0,
    state,
    folded: p?.folded ?? false,
    allIn: p?.allIn ?? false,
    away: seat.away,
    turn: h?.phase === 'betting' && h.toAct === seat.id,
    dealer: h?.dealerSeat === seat.seat,
    winner: h?.phase === 'handEnd' && (h.awards ?? []).some((a) => a.to === seat.id && a.kind !== 'return'),
    handName: story.hand,
    cards,
    story,
    lastDraw: counts.length
      ? `${DRAW_NAMES[counts.length - 1] ?? `${counts.length}번`} ${counts[counts.length - 1]}장`
      : null,
  };
}

function fit(t: Phaser.GameObjects.Text, maxW: number): Phaser.GameObjects.Text {
  const s = t.text;
  if (t.width <= maxW) return t;
  let n = [...s].length;
  while (n > 1 && t.width > maxW) t.setText(`${[...s].slice(0, --n).join('')}…`);
  return t;
}

/** A showdown flip in progress for one seat: ms since this seat's turn to show began, and each card's flip length. */
export interface Flip {
  elapsed: number;
  ms: number;
}

/**
 * Turns a card over: it starts edge-on and widens to its face. Resumable, so
 * a re-render mid-flip continues where the last one was instead of restarting.
 */
function flipIn(scene: Phaser.Scene, img: Phaser.GameObjects.Image, flip: Flip, i: number): void {
  const e = flip.elapsed - i * 40;
  if (e >= flip.ms) return;
  const full = img.scaleX;
  img.scaleX = full * Math.max(0, Math.min(1, e / flip.ms));
  scene.tweens.add({
    targets: img,
    scaleX: full,
    delay: Math.max(0, -e),
    duration: Math.max(1, flip.ms - Math.max(0, e)),
  });
}

export function drawSeat(
  scene: Phaser.Scene,
  into: Phaser.GameObjects.Container,
  r: Rect,
  s: SeatInfo,
  flip: Flip | null = null,
): void {
  const g = scene.add.graphics();
  into.add(g);
  const border = s.turn ? C.legal : s.winner ? 0x7ee081 : 0x3f7a61;
  g.fillStyle(C.panel, s.folded ? 0.45 : 0.78).fillRoundedRect(r.x, r.y, r.w, r.h, 10);
  g.lineStyle(s.turn || s.winner ? 3 : 1.5, border, 1).strokeRoundedRect(r.x, r.y, r.w, r.h, 10);
  const small = r.h < 100;
  // A small phone's third row of seats: name and chips share the first line.
  const tiny = r.h < 76;
  const nameSize = small ? 13 : 15;
  // Line steps follow the drawn size (§9 큰 글씨): the cards row gives up the height, not the text.
  const nameH = tx(nameSize);
  const pad = 6;
  let y = r.y + 4;
  const name = scene.add.text(r.x + pad, y, s.name, textStyle(nameSize, s.folded ? '#9fb0a7' : '#ffffff', 700));
  const clockW = s.turn ? 30 : 0;
  const bossW = s.story.boss ? 34 : 0;
  const marks = (s.dealer ? 20 : 0) + clockW + bossW;
  into.add(fit(name, tiny ? (r.w - marks) / 2 - pad : r.w - pad * 2 - marks));
  if (s.story.boss) {
    const bx = r.x + r.w - pad - clockW - (s.dealer ? 20 : 0) - bossW + 2;
    g.fillStyle(C.gold, 1).fillRoundedRect(bx, y + 1, bossW - 4, nameH + 2, 5);
    into.add(
      scene.add.text(bx + (bossW - 4) / 2, y + 2 + nameH / 2, '보스', textStyle(11, '#1c1d24', 800)).setOrigin(0.5),
    );
  }
  if (s.dealer) {
    const dx = r.x + r.w - pad - 8 - clockW;
    g.fillStyle(0xffffff, 1).fillCircle(dx, y + nameH / 2 + 2, 8);
    into.add(scene.add.text(dx, y + nameH / 2 + 2, 'D', textStyle(11, '#1c1d24', 800)).setOrigin(0.5));
  }
  if (tiny) {
    const t = scene.add.text(r.x + r.w - pad - marks, y + 1, chips(s.stack), textStyle(12, '#f2c14e', 700));
    into.add(fit(t.setOrigin(1, 0), (r.w - marks) / 2 - pad));
    y += nameH + 3;
  } else {
    y += nameH + 3;
    into.add(scene.add.text(r.x + pad, y, chips(s.stack), textStyle(small ? 12 : 14, '#f2c14e', 700)));
  }
  if (s.lastDraw && !tiny) {
    const t = scene.add
      .text(r.x + r.w - pad, y, s.lastDraw, textStyle(small ? 11 : 13, '#7fe3ff', 800))
      .setOrigin(1, 0);
    into.add(fit(t, r.w / 2 - pad));
  }
  if (!tiny) y += tx(small ? 12 : 14) + 4;
  const bottomH = tx(small ? 14 : 17);
  const cardH = Math.max(18, r.y + r.h - 4 - bottomH - 2 - y);
  const rects = miniRow({ x: r.x + pad, y, w: r.w - pad * 2, h: cardH }, s.cards.length, cardH);
  const best = new Set(s.story.best);
  s.cards.forEach((c, i) => {
    // The five cards that made the hand rise and get a gold edge at showdown.
    const lifted = typeof c === 'object' && 'id' in c && best.has(c.id);
    // No lift inside a seat (the chips line sits right above); the gold edge and the dimmed rest say it.
    const rr = rects[i];
    const img = addCard(scene, into, c, rr, s.folded ? 0.45 : best.size && !lifted ? 0.55 : 1);
    if (flip && typeof c === 'object' && 'id' in c) flipIn(scene, img, flip, i);
    if (lifted) {
      const edge = scene.add.graphics();
      into.add(edge);
      edge.lineStyle(2, C.gold, 1).strokeRoundedRect(rr.x, rr.y, rr.w, rr.h, 3);
    }
  });
  const by = r.y + r.h - 3 - bottomH;
  if (s.handName) {
    const t = scene.add.text(r.x + r.w / 2, by, s.handName, textStyle(small ? 12 : 14, '#ffd84a', 800));
    into.add(fit(t.setOrigin(0.5, 0), r.w - 8));
    return;
  }
  if (tiny && s.lastDraw && s.bet === 0)
    into.add(fit(scene.add.text(r.x + pad, by, s.lastDraw, textStyle(11, '#7fe3ff', 800)), r.w / 2 - pad));
  if (s.bet > 0)
    into.add(
      scene.add.text(
        r.x + pad,
        by,
        `베팅 ${s.bet.toLocaleString('ko-KR')}`,
        textStyle(small ? 11 : 13, '#7fe3ff', 700),
      ),
    );
  if (s.state) {
    const color = s.folded ? '#ff8a80' : s.allIn ? '#ffd84a' : s.away ? '#e0cf7a' : '#d8e6de';
    const t = scene.add.text(r.x + r.w - pad, by, s.state, textStyle(small ? 11 : 13, color, 800)).setOrigin(1, 0);
    into.add(fit(t, s.bet > 0 ? r.w / 2 - pad : r.w - 2 * pad));
  }
}

/** Ring colour of a clock: green, yellow, red for the last 5 seconds (§9). */
export function clockColor(c: Countdown): number {
  return c.urgent ? 0xff6b5e : c.frac > 0.5 ? 0x7ee081 : 0xffd84a;
}

/**
 * The timer ring on the seat whose turn it is (top-right corner), radius
 * 13 px so the seconds inside read at a glance; `label` shows them.
 */
export function drawRing(
  g: Phaser.GameObjects.Graphics,
  label: Phaser.GameObjects.Text,
  r: Rect,
  c: Countdown,
  inset = 15,
): void {
  const cx = r.x + r.w - inset;
  const cy = r.y + inset;
  const radius = Math.min(13, inset - 2);
  g.fillStyle(c.urgent ? 0x5a1410 : 0x000000, 0.7).fillCircle(cx, cy, radius + 1);
  g.lineStyle(3, clockColor(c), 1);
  g.beginPath();
  g.arc(cx, cy, radius, -Math.PI / 2, -Math.PI / 2 + c.frac * Math.PI * 2, false);
  g.strokePath();
  restyle(label.setText(String(c.seconds)).setPosition(cx, cy).setVisible(true), c.urgent ? '#ff8a80' : '#ffffff');
}

/**
 * Sets a clock label's colour (and size) only when they change: Phaser redraws and re-uploads a text's
 * texture on every setColor/setFontSize, even to the same value, and a clock label set every frame
 * then redrew the table every frame (issue 41: a still poker table drew ≈ 57 frames a second).
 */
export function restyle(label: Phaser.GameObjects.Text, color: string, fontSize?: number): Phaser.GameObjects.Text {
  if (label.style.color !== color) label.setColor(color);
  if (fontSize !== undefined && label.style.fontSize !== `${fontSize}px`) label.setFontSize(fontSize);
  return label;
}
