/**
 * One seat around the poker table (§9): name, stack, this round's bet,
 * state badge (다이/올인/자리 비움 or the last action), dealer/boss marks,
 * cards (backs, up cards, an indian forehead, revealed hands at showdown)
 * and the turn highlight. Drawn fresh into a container on every render.
 */
import type Phaser from 'phaser';
import type { Rect } from '../table/layout.ts';
import { C, textStyle } from '../table/theme.ts';
import { addCard, miniRow, type Shown } from './cards.ts';
import { chips, type HandPlayerView, type PokerView, type SeatView } from './model.ts';

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
}

const STATUS: Record<SeatView['status'], string> = { playing: '', busted: '칩 없음', eliminated: '탈락', left: '나감' };

export function seatInfo(v: PokerView, seat: SeatView, me: boolean): SeatInfo {
  const h = v.hand;
  const p: HandPlayerView | undefined = h?.players.find((x) => x.id === seat.id);
  const sd = h?.showdown?.find((e) => e.id === seat.id) ?? null;
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
          : (p.lastAction ?? (p.declare ? { high: '하이', low: '로우', swing: '스윙' }[p.declare] : ''));
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
    handName: sd ? sd.handName + (sd.lowName ? ` / ${sd.lowName}` : '') : null,
    cards,
  };
}

function fit(t: Phaser.GameObjects.Text, maxW: number): Phaser.GameObjects.Text {
  const s = t.text;
  if (t.width <= maxW) return t;
  let n = [...s].length;
  while (n > 1 && t.width > maxW) t.setText(`${[...s].slice(0, --n).join('')}…`);
  return t;
}

export function drawSeat(scene: Phaser.Scene, into: Phaser.GameObjects.Container, r: Rect, s: SeatInfo): void {
  const g = scene.add.graphics();
  into.add(g);
  const border = s.turn ? C.legal : s.winner ? 0x7ee081 : 0x3f7a61;
  g.fillStyle(C.panel, s.folded ? 0.45 : 0.78).fillRoundedRect(r.x, r.y, r.w, r.h, 10);
  g.lineStyle(s.turn || s.winner ? 3 : 1.5, border, 1).strokeRoundedRect(r.x, r.y, r.w, r.h, 10);
  const small = r.h < 100;
  const nameSize = small ? 13 : 15;
  const pad = 6;
  let y = r.y + 4;
  const name = scene.add.text(r.x + pad, y, s.name, textStyle(nameSize, s.folded ? '#9fb0a7' : '#ffffff', 700));
  into.add(fit(name, r.w - pad * 2 - (s.dealer ? 20 : 0) - (s.turn ? 18 : 0)));
  if (s.dealer) {
    const dx = r.x + r.w - pad - 8 - (s.turn ? 20 : 0);
    g.fillStyle(0xffffff, 1).fillCircle(dx, y + nameSize / 2 + 2, 8);
    into.add(scene.add.text(dx, y + nameSize / 2 + 2, 'D', textStyle(11, '#1c1d24', 800)).setOrigin(0.5));
  }
  y += nameSize + 3;
  into.add(scene.add.text(r.x + pad, y, chips(s.stack), textStyle(small ? 12 : 14, '#f2c14e', 700)));
  y += (small ? 12 : 14) + 4;
  const bottomH = small ? 14 : 17;
  const cardH = Math.max(18, r.y + r.h - 4 - bottomH - 2 - y);
  const rects = miniRow({ x: r.x + pad, y, w: r.w - pad * 2, h: cardH }, s.cards.length, cardH);
  s.cards.forEach((c, i) => addCard(scene, into, c, rects[i], s.folded ? 0.45 : 1));
  const by = r.y + r.h - 3 - bottomH;
  if (s.handName) {
    const t = scene.add.text(r.x + r.w / 2, by, s.handName, textStyle(small ? 12 : 14, '#ffd84a', 800));
    into.add(fit(t.setOrigin(0.5, 0), r.w - 8));
    return;
  }
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

/** The timer ring on the seat whose turn it is (top-right corner); green, yellow, red for the last 5 seconds (§9). */
export function drawRing(g: Phaser.GameObjects.Graphics, r: Rect, frac: number, leftMs: number, inset = 12): void {
  const cx = r.x + r.w - inset;
  const cy = r.y + inset;
  const color = leftMs <= 5000 ? 0xff6b5e : frac > 0.5 ? 0x7ee081 : 0xffd84a;
  g.fillStyle(0x000000, 0.45).fillCircle(cx, cy, 8);
  g.lineStyle(3, color, 1);
  g.beginPath();
  g.arc(cx, cy, 7, -Math.PI / 2, -Math.PI / 2 + frac * Math.PI * 2, false);
  g.strokePath();
}
