/**
 * The middle of the table (pot, side pots, board, status, hand-end banner),
 * my strip and my cards, and the game-end result rows. Drawn into the
 * scene's per-render container.
 */
import type Phaser from 'phaser';
import type { Rect } from '../../table-kit/rect.ts';
import { C, textStyle } from '../../table-kit/theme.ts';
import type { BarState } from './actions.ts';
import { handEndLines } from './status.ts';
import { addCard, type Shown } from './cards.ts';
import type { PokerLayout } from './layout.ts';
import { potPlaces } from './pot-places.ts';
import { chips, handPlayer, nameOf, potTotal, type PokerView } from './model.ts';
import { seatInfo } from './seat.ts';
import { roundTitle, seatStory } from './story.ts';

export interface MyCard {
  /** null for the unknown indian forehead (nothing to tap). */
  id: number | null;
  shown: Shown;
  /** An up card everyone sees. */
  open: boolean;
}

export function myCards(v: PokerView): MyCard[] {
  if (v.viewer === null) return [];
  const me = handPlayer(v, v.viewer);
  if (!me) return [];
  const face = (c: Shown, open = false): MyCard => ({
    id: typeof c === 'object' && 'id' in c ? c.id : null,
    shown: c,
    open,
  });
  if (v.mode === 'indian') return [face(me.forehead ?? 'forehead', true), ...me.hole.map((c) => face(c))];
  if (me.choice && !me.choiceDone) return me.choice.map((c) => face(c));
  return [...me.hole.map((c) => face(c)), ...me.up.map((c) => face(c, true))];
}

function text(
  scene: Phaser.Scene,
  into: Phaser.GameObjects.Container,
  r: Rect,
  s: string,
  size: number,
  color: string,
  weight: 600 | 700 | 800 = 700,
  oneLine = false,
): Phaser.GameObjects.Text {
  const t = scene.add.text(r.x + r.w / 2, r.y + r.h / 2, s, textStyle(size, color, weight, { align: 'center' }));
  t.setOrigin(0.5);
  // A headline stays one line and gets smaller to fit; other text wraps, then gets smaller.
  if (oneLine) while (t.width > r.w && size > 10) t.setFontSize(--size);
  // At least one glyph wide: Phaser throws on a narrower wrap (인디언 seats on a phone on its side did).
  else t.setWordWrapWidth(Math.max(r.w, size * 1.5), true);
  while (t.height > r.h && size > 10) t.setFontSize(--size);
  into.add(t);
  return t;
}

export function drawCenter(
  scene: Phaser.Scene,
  into: Phaser.GameObjects.Container,
  l: PokerLayout,
  v: PokerView,
  status: string,
): void {
  const h = v.hand;
  const wide = l.orientation === 'landscape';
  const ended = handEndLines(v);
  // The words keep to the middle of the pot row: its right end is where the chips gather (pot-places.ts).
  const potWords = potPlaces(l).words;
  const top = { ...potWords, h: potWords.h * 0.6 };
  const sub = { ...potWords, y: potWords.y + top.h, h: potWords.h - top.h };
  if (ended.length) {
    text(scene, into, top, ended[0], wide ? 26 : 18, '#ffd84a', 800, true);
    text(scene, into, sub, ended.slice(1).join(' / ') || '판 끝', wide ? 16 : 13, '#ffffff', 700);
  } else {
    text(scene, into, top, `팟 ${chips(potTotal(v))}`, wide ? 30 : 22, '#ffffff', 800, true);
    const parts: string[] = [];
    if (h && h.pots.length > 1)
      h.pots.forEach((p, i) => parts.push(`${i === 0 ? '메인' : `사이드 ${i}`} ${p.amount.toLocaleString('ko-KR')}`));
    if (v.carryOver > 0) parts.push(`이월 ${v.carryOver.toLocaleString('ko-KR')}`);
    if (h && h.currentBet > 0) parts.push(`현재 베팅 ${h.currentBet.toLocaleString('ko-KR')}`);
    text(scene, into, sub, parts.join(' · '), wide ? 16 : 12, '#cfe3d8', 600);
  }
  if (v.mode === 'holdem' || v.mode === 'omaha') {
    const g = scene.add.graphics();
    into.add(g);
    // At the end of a hand the board cards in the biggest winner's five rise with a gold edge.
    const top = h?.phase === 'handEnd' ? biggestWinner(v) : null;
    const best = new Set(top ? seatStory(v, top).best : []);
    l.board.forEach((r, i) => {
      const c = h?.board[i];
      const lifted = !!c && best.has(c.id);
      const rr = lifted ? { ...r, y: r.y - 6 } : r;
      if (c) addCard(scene, into, c, rr, best.size && !lifted ? 0.6 : 1);
      else g.lineStyle(2, C.feltLine, 1).strokeRoundedRect(r.x, r.y, r.w, r.h, 8);
      if (lifted) {
        const edge = scene.add.graphics();
        into.add(edge);
        edge.lineStyle(3, C.gold, 1).strokeRoundedRect(rr.x, rr.y, rr.w, rr.h, 6);
      }
    });
  } else if (h && v.mode === 'indian') {
    drawForeheads(scene, into, l, v);
  } else if (h) {
    // Draw games name their draws (아침/점심/저녁); 7포커 names the boss who opens the betting.
    const boss = h.boss && h.phase === 'betting' ? ` · 보스 ${nameOf(v, h.boss)}` : '';
    const title = roundTitle(v) ?? `${h.street + 1}번째 베팅 라운드${boss}`;
    text(scene, into, l.boardArea, `${title}\n덱 ${h.deckCount}장`, wide ? 18 : 14, '#d8e6de', 700);
  }
  // The clock pill sits at the right end of the status line (clockRect); the words keep clear of it.
  const clock = clockRect(l);
  const words = { ...l.status, x: l.status.x + clock.w + 4, w: l.status.w - 2 * (clock.w + 4) };
  text(scene, into, words, status, wide ? 18 : 15, h?.toAct === v.viewer && h?.toAct ? '#ffd84a' : '#ffffff', 800);
}

/** Who took the most chips this hand (the headline's player). */
function biggestWinner(v: PokerView): string | null {
  const won = new Map<string, number>();
  for (const a of v.hand?.awards ?? []) if (a.kind !== 'return') won.set(a.to, (won.get(a.to) ?? 0) + a.amount);
  return [...won].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}

/** Where the countdown of the shared phases (choice, draw, declare, rebuy, hand end) is drawn. */
export function clockRect(l: PokerLayout): Rect {
  const w = l.orientation === 'landscape' ? 96 : 78;
  return { x: l.status.x + l.status.w - w, y: l.status.y, w, h: l.status.h };
}

/** 인디언: everyone else's forehead, big in the middle (§9), with the deck count under it. */
function drawForeheads(scene: Phaser.Scene, into: Phaser.GameObjects.Container, l: PokerLayout, v: PokerView): void {
  const h = v.hand!;
  const others = h.players.filter((p) => p.id !== v.viewer);
  const wide = l.orientation === 'landscape';
  // With the used-card panel (§9) the layout gives the foreheads their own area; otherwise the felt's width.
  const area = l.used ? l.boardArea : { x: l.felt.x + 24, y: l.boardArea.y, w: l.felt.w - 48, h: l.boardArea.h };
  // A phone on its side leaves the middle ≈ 40 px tall: names shrink and the deck line gives way to the cards.
  const restH = area.h >= 70 ? 20 : 0;
  const nameH = Math.min(wide ? 22 : 18, Math.max(12, Math.round(area.h * 0.3)));
  const gap = 10;
  let ch = area.h - nameH - restH;
  let cw = Math.round(ch * (180 / 252));
  if (others.length * (cw + gap) > area.w) {
    cw = Math.floor(area.w / others.length - gap);
    ch = Math.round(cw * (252 / 180));
  }
  const total = others.length * cw + (others.length - 1) * gap;
  others.forEach((p, i) => {
    const r = { x: area.x + (area.w - total) / 2 + i * (cw + gap), y: area.y, w: cw, h: ch };
    addCard(scene, into, p.forehead ?? { hidden: true }, r, p.folded ? 0.45 : 1);
    const name = { x: r.x - gap / 2, y: r.y + ch + 2, w: cw + gap, h: nameH };
    text(scene, into, name, nameOf(v, p.id), wide ? 14 : 11, p.folded ? '#9fb0a7' : '#ffffff', 700);
  });
  if (!restH) return;
  const rest = { x: area.x, y: area.y + ch + nameH + 2, w: area.w, h: Math.max(14, area.h - ch - nameH - 2) };
  text(
    scene,
    into,
    rest,
    `남은 덱 ${h.deckCount}장 · 사용한 카드 ${v.indianUsed.length}장`,
    wide ? 14 : 11,
    '#a9c2b5',
    600,
  );
}

/** PC: the public hand log (last entries of the view's log) in a panel right of the table. */
export function drawLog(scene: Phaser.Scene, into: Phaser.GameObjects.Container, r: Rect, v: PokerView): void {
  const g = scene.add.graphics();
  into.add(g);
  g.fillStyle(C.panel, 0.6).fillRoundedRect(r.x, r.y, r.w, r.h, 10);
  into.add(scene.add.text(r.x + 10, r.y + 8, '핸드 기록', textStyle(14, '#a9c2b5', 800)));
  const lineH = 20;
  const fits = Math.max(0, Math.floor((r.h - 36) / lineH));
  const lines = v.log.slice(-fits);
  lines.forEach((e, i) => {
    const who = e.player ? `${nameOf(v, e.player)} ` : '';
    const amount = e.amount ? ` ${e.amount.toLocaleString('ko-KR')}` : '';
    const t = scene.add.text(r.x + 10, r.y + 32 + i * lineH, `${who}${e.text}${amount}`, textStyle(13, '#ffffff', 600));
    let n = [...t.text].length;
    while (t.width > r.w - 20 && n > 2) t.setText(`${[...t.text].slice(0, (n -= 1)).join('')}…`);
    into.add(t);
  });
}

/** 바둑이 hint (§9): cards sharing a suit or a rank with another card of mine get a yellow border. */
export function badugiClashes(cards: MyCard[]): Set<number> {
  const faces = cards.flatMap((c) => (typeof c.shown === 'object' && 'rank' in c.shown ? [c.shown] : []));
  const out = new Set<number>();
  for (const a of faces)
    for (const b of faces) if (a.id !== b.id && (a.suit === b.suit || a.rank === b.rank)) out.add(a.id);
  return out;
}

export function drawMine(
  scene: Phaser.Scene,
  into: Phaser.GameObjects.Container,
  l: PokerLayout,
  v: PokerView,
  cards: MyCard[],
  ui: BarState,
  onTap: (id: number) => void,
): void {
  const seat = v.seats.find((s) => s.id === v.viewer);
  if (!seat) return;
  const info = seatInfo(v, seat, true);
  const g = scene.add.graphics();
  into.add(g);
  g.fillStyle(C.panel, 0.8).fillRoundedRect(l.me.x, l.me.y, l.me.w, l.me.h, 8);
  g.lineStyle(info.turn ? 3 : 1.5, info.turn ? C.legal : 0x3f7a61, 1).strokeRoundedRect(
    l.me.x,
    l.me.y,
    l.me.w,
    l.me.h,
    8,
  );
  const parts = [`${seat.name}(나)`, chips(seat.stack)];
  if (info.bet > 0) parts.push(`베팅 ${info.bet.toLocaleString('ko-KR')}`);
  if (info.dealer) parts.push('딜러');
  if (info.state) parts.push(info.state);
  const wide = l.orientation === 'landscape';
  const strip = { ...l.me, x: l.me.x + 8, w: l.me.w - 16 - (info.turn ? l.me.h : 0) };
  text(scene, into, strip, parts.join(' · '), wide ? 17 : 14, '#ffffff', 700);
  const me = handPlayer(v, v.viewer!);
  const story = seatStory(v, v.viewer!);
  const best = new Set(story.best);
  const hint = story.hand
    ? `내 패: ${story.hand}${story.declare ? ` · ${story.declare} 선언` : ''}`
    : v.myHand
      ? `지금: ${v.myHand.name}${v.myHand.low ? ` · 로우: ${v.myHand.low}` : ''}`
      : v.mode === 'indian' && me
        ? '내 이마 카드는 나만 못 봐요'
        : '';
  text(scene, into, l.hint, hint, wide ? 17 : 14, '#ffe7a3', 700);
  const clash = v.mode === 'badugi' ? badugiClashes(cards) : new Set<number>();
  cards.forEach((c, i) => {
    const slot = l.cards[i];
    if (!slot) return;
    const discard = c.id !== null && ui.choice.discardId === c.id;
    const open = c.id !== null && ui.choice.openId === c.id;
    const picked = c.id !== null && ui.selected.includes(c.id);
    const lifted = c.id !== null && best.has(c.id);
    const r = { ...slot.rect, y: slot.rect.y - (open || picked || lifted ? 8 : 0) };
    const img = addCard(scene, into, c.shown, r, discard || me?.folded ? 0.5 : 1);
    const id = c.id;
    if (id !== null) img.setInteractive({ useHandCursor: true }).on('pointerup', () => onTap(id));
    const mark = scene.add.graphics();
    into.add(mark);
    if (discard) {
      mark.lineStyle(6, C.danger, 1);
      mark.lineBetween(r.x + 10, r.y + 10, r.x + r.w - 10, r.y + r.h - 10);
      mark.lineBetween(r.x + r.w - 10, r.y + 10, r.x + 10, r.y + r.h - 10);
    }
    if (open || picked || lifted)
      mark.lineStyle(4, open || lifted ? C.gold : C.selected, 1).strokeRoundedRect(r.x, r.y, r.w, r.h, 10);
    else if (c.id !== null && clash.has(c.id)) mark.lineStyle(3, C.legal, 1).strokeRoundedRect(r.x, r.y, r.w, r.h, 10);
    const forehead = v.mode === 'indian' && i === 0;
    const tag = discard ? '버림' : open ? '오픈' : picked ? '교환' : forehead ? '내 이마' : c.open ? '공개' : '';
    if (tag) {
      const t = scene.add.text(
        r.x + 4,
        r.y + r.h - 4,
        tag,
        textStyle(12, '#ffffff', 800, { backgroundColor: '#1b2a22cc', padding: { x: 4, y: 1 } }),
      );
      into.add(t.setOrigin(0, 1));
    }
  });
}
