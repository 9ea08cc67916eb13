/**
 * Every rectangle of the 훌라 table from the screen size, the number of
 * opponents and the hand size (pure, so hula-layout.test.ts can prove that
 * nothing overlaps or leaves the screen). Portrait: top bar, opponents,
 * stock + discard pile, status, melds, hand, two rows of action buttons.
 * Landscape: the same order with bigger cards and one row of buttons.
 */
import type { Rect } from '../../table-kit/rect.ts';

export type { Rect };

export interface HulaLayoutInput {
  width: number;
  height: number;
  opponents: number;
  handCount: number;
}

export interface HandSlot {
  x: number;
  y: number;
  /** The part of the card not covered by the next one: where a tap lands. */
  visible: Rect;
}

export interface HulaLayout {
  width: number;
  height: number;
  portrait: boolean;
  title: Rect;
  /** The top bar, left to right: 규칙 (an HTML button the scene puts here), sort, leave, exit. */
  top: TopBar;
  opponents: Rect[];
  stock: Rect;
  discard: Rect;
  status: Rect;
  melds: Rect;
  /** The table's felt: piles, status and melds sit on it. */
  felt: Rect;
  /** The round chat button's own square, left of the piles (a DOM button, chat-place.ts). */
  chat: Rect;
  /** Where toasts and chat lines stand: a band above the melds, clear of cards, piles and the status line. */
  toasts: Rect;
  hand: { cardW: number; cardH: number; lift: number; slots: HandSlot[]; area: Rect };
  actions: Rect[];
}

export interface TopBar {
  rules: Rect;
  sort: Rect;
  leave: Rect;
  exit: Rect;
}

export const ACTION_SLOTS = 10;
const PAD = 8;
const GAP = 6;
/** One toast line (overlays.ts Toasts: 14 px text, 7 px padding). */
const TOAST_H = 34;
/** One small toast line (12 px text, 2 px padding), for thin bands. */
const TOAST_SMALL_H = 22;

export function computeHulaLayout(input: HulaLayoutInput): HulaLayout {
  const { width: W, height: H } = input;
  const portrait = H >= W;
  if (!portrait && H < 520) return shortLandscape(input);
  const topH = 36;
  // A narrow phone gets buttons sized to their words, so the title keeps ≈ 115 px at 360.
  const narrow = portrait && W < 480;
  const { top, title } = topBar(
    W,
    topH,
    narrow ? [44, 56, 64, 48] : portrait ? [56, 64, 64, 64] : [64, 88, 88, 88],
    narrow ? 4 : GAP,
    // Two lines of 14 px text need ≈ 40 px: the title takes 4 px of the gap above the opponents.
    topH + 4,
  );

  const n = Math.max(1, input.opponents);
  const oppH = portrait ? 76 : 84;
  const oppY = PAD + topH + GAP;
  const oppW = Math.min(portrait ? 180 : 240, (W - PAD * 2 - GAP * (n - 1)) / n);
  const oppX0 = (W - (oppW * n + GAP * (n - 1))) / 2;
  const opponents = Array.from({ length: input.opponents }, (_, i) => ({
    x: oppX0 + i * (oppW + GAP),
    y: oppY,
    w: oppW,
    h: oppH,
  }));

  // Small phones (360×640): smaller piles and hand so five players' melds keep their room.
  const compact = portrait && H < 700;
  const pileW = compact ? 48 : portrait ? 60 : 76;
  const pileH = Math.round(pileW * 1.4);
  const pileY = oppY + oppH + 10;
  const stock = { x: W / 2 - pileW - 12, y: pileY, w: pileW, h: pileH };
  const discard = { x: W / 2 + 12, y: pileY, w: pileW, h: pileH };
  const status = { x: PAD, y: pileY + pileH + 6, w: W - PAD * 2, h: compact ? 36 : 42 };

  const rows = portrait ? 2 : 1;
  const perRow = ACTION_SLOTS / rows;
  const btnH = portrait ? 44 : 48;
  const btnW = Math.min(132, (W - PAD * 2 - GAP * (perRow - 1)) / perRow);
  const barW = btnW * perRow + GAP * (perRow - 1);
  const barY = H - PAD - rows * btnH - (rows - 1) * GAP;
  const actions: Rect[] = [];
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < perRow; c++)
      actions.push({ x: (W - barW) / 2 + c * (btnW + GAP), y: barY + r * (btnH + GAP), w: btnW, h: btnH });

  const count = Math.max(1, input.handCount);
  const lift = portrait ? 14 : 18;
  const cardW = compact ? 52 : portrait ? 62 : 88;
  const cardH = Math.round(cardW * 1.4);
  // A shallow fan: the outer cards sit up to `arc` px lower than the middle ones.
  const arc = count > 3 ? 8 : 0;
  const handY = barY - 10 - cardH - arc;
  const maxW = Math.min(W - PAD * 2, portrait ? W : 1000);
  const step = count === 1 ? 0 : Math.floor(Math.min(cardW + 6, (maxW - cardW) / (count - 1)));
  const total = cardW + step * (count - 1);
  const x0 = Math.round((W - total) / 2);
  const slots: HandSlot[] = Array.from({ length: input.handCount }, (_, i) => {
    const x = x0 + i * step;
    const t = count > 1 ? (i - (count - 1) / 2) / ((count - 1) / 2) : 0;
    const y = handY + Math.round(t * t * arc);
    const visW = i === count - 1 ? cardW : Math.min(step, cardW);
    return { x, y, visible: { x, y, w: visW, h: cardH } };
  });
  const handArea = { x: x0, y: handY - lift, w: total, h: cardH + lift + arc };

  const toastsY = status.y + status.h + 4;
  // Desktop: the melds keep to a table-sized middle instead of the whole width.
  const meldsW = Math.min(W - PAD * 2, portrait ? W : 1100);
  // A small phone's band takes the small notices (overlays.ts), so five players' melds keep their room.
  const toastH = compact ? TOAST_SMALL_H : TOAST_H;
  const toasts = { x: (W - meldsW) / 2, y: toastsY, w: meldsW, h: toastH };
  const meldsY = toastsY + toastH + 2;
  const melds = { x: (W - meldsW) / 2, y: meldsY, w: meldsW, h: handArea.y - 6 - meldsY };
  const chat = { x: PAD + 4, y: stock.y, w: 40, h: 40 };
  const felt = { x: PAD, y: pileY - 4, w: W - PAD * 2, h: melds.y + melds.h + 2 - (pileY - 4) };
  return {
    width: W,
    height: H,
    portrait,
    title,
    top,
    opponents,
    stock,
    discard,
    status,
    melds,
    felt,
    chat,
    toasts,
    hand: { cardW, cardH, lift, slots, area: handArea },
    actions,
  };
}

/**
 * The top bar's buttons packed against the right edge (widths of 규칙, sort,
 * leave, exit) and the title taking what is left of the row, so the HTML 규칙
 * button has a place of its own instead of a CSS offset that must agree.
 */
function topBar(W: number, h: number, widths: [number, number, number, number], gap: number, titleH = h) {
  const [rules, sort, leave, exit] = widths;
  const exitR = { x: W - PAD - exit, y: PAD, w: exit, h };
  const leaveR = { x: exitR.x - gap - leave, y: PAD, w: leave, h };
  const sortR = { x: leaveR.x - gap - sort, y: PAD, w: sort, h };
  const rulesR = { x: sortR.x - gap - rules, y: PAD, w: rules, h };
  const top: TopBar = { rules: rulesR, sort: sortR, leave: leaveR, exit: exitR };
  return { top, title: { x: PAD, y: PAD, w: rulesR.x - PAD - GAP, h: titleH } };
}

/**
 * A phone on its side (844×390): a thin top bar and opponent row, the piles
 * and the status on the left of the felt, everyone's melds on the right of
 * it, a one-row fan of 48×68 cards and one row of buttons at the bottom.
 */
function shortLandscape(input: HulaLayoutInput): HulaLayout {
  const { width: W, height: H } = input;
  const topH = 32;
  const { top, title } = topBar(W, topH, [56, 80, 80, 80], GAP);
  const n = Math.max(1, input.opponents);
  const oppH = 52;
  const oppY = PAD + topH + 4;
  const oppW = Math.min(220, (W - PAD * 2 - GAP * (n - 1)) / n);
  const oppX0 = (W - (oppW * n + GAP * (n - 1))) / 2;
  const opponents = Array.from({ length: input.opponents }, (_, i) => ({
    x: oppX0 + i * (oppW + GAP),
    y: oppY,
    w: oppW,
    h: oppH,
  }));
  const btnH = 44;
  const perRow = ACTION_SLOTS;
  const btnW = Math.min(120, (W - PAD * 2 - GAP * (perRow - 1)) / perRow);
  const barW = btnW * perRow + GAP * (perRow - 1);
  const barY = H - PAD - btnH;
  const actions: Rect[] = Array.from({ length: perRow }, (_, c) => ({
    x: (W - barW) / 2 + c * (btnW + GAP),
    y: barY,
    w: btnW,
    h: btnH,
  }));
  const count = Math.max(1, input.handCount);
  const lift = 10;
  const cardW = 48;
  const cardH = 68;
  const handY = barY - 6 - cardH;
  const maxW = W - PAD * 2;
  const step = count === 1 ? 0 : Math.floor(Math.min(cardW + 6, (maxW - cardW) / (count - 1)));
  const total = cardW + step * (count - 1);
  const x0 = Math.round((W - total) / 2);
  const slots: HandSlot[] = Array.from({ length: input.handCount }, (_, i) => {
    const x = x0 + i * step;
    const visW = i === count - 1 ? cardW : Math.min(step, cardW);
    return { x, y: handY, visible: { x, y: handY, w: visW, h: cardH } };
  });
  const handArea = { x: x0, y: handY - lift, w: total, h: cardH + lift };
  const midY = oppY + oppH + 6;
  const midBottom = handArea.y - 4;
  const pileW = 48;
  const pileH = 67;
  const stock = { x: 64, y: midY + 2, w: pileW, h: pileH };
  const discard = { x: stock.x + pileW + 10, y: midY + 2, w: pileW, h: pileH };
  const leftW = discard.x + pileW + 84;
  const status = { x: PAD, y: stock.y + pileH + 4, w: leftW - PAD, h: Math.min(42, midBottom - (stock.y + pileH + 4)) };
  const toasts = { x: leftW + 6, y: midY, w: W - PAD - leftW - 6, h: 30 };
  const melds = { x: leftW + 6, y: midY + 34, w: W - PAD - leftW - 6, h: midBottom - midY - 34 };
  // The stock's count stands left of it here: the chat button takes a square of the top bar instead,
  // where the one-line title has room to spare.
  const chat = { x: top.rules.x - GAP - topH, y: PAD, w: topH, h: topH };
  title.w = chat.x - GAP - title.x;
  const felt = { x: PAD, y: midY - 2, w: W - PAD * 2, h: midBottom + 1 - (midY - 2) };
  return {
    width: W,
    height: H,
    portrait: false,
    title,
    top,
    opponents,
    stock,
    discard,
    status,
    melds,
    felt,
    chat,
    toasts,
    hand: { cardW, cardH, lift, slots, area: handArea },
    actions,
  };
}

export interface MeldGroupInput {
  owner: string;
  melds: { id: number; cards: number }[];
}

export interface MeldPlacement {
  labels: { owner: string; rect: Rect }[];
  melds: { id: number; rect: Rect; step: number }[];
  cardW: number;
  cardH: number;
  fits: boolean;
}

/**
 * Melds on the table, grouped by owner: each group is a name line over its
 * melds (cards overlapped), groups flow left to right and wrap. Cards shrink
 * from 58 px down to 22 px wide until everything fits the area.
 */
export function placeMelds(groups: MeldGroupInput[], area: Rect): MeldPlacement {
  let last: MeldPlacement | null = null;
  for (let cw = 58; cw >= 18; cw -= 4) {
    last = tryPlace(groups, area, cw);
    if (last.fits) return last;
  }
  return last ?? { labels: [], melds: [], cardW: 22, cardH: 31, fits: groups.length === 0 };
}

function tryPlace(groups: MeldGroupInput[], area: Rect, cw: number): MeldPlacement {
  const ch = Math.round(cw * 1.4);
  const step = Math.round(cw * 0.42);
  const labelH = 16;
  const gap = 8;
  const out: MeldPlacement = { labels: [], melds: [], cardW: cw, cardH: ch, fits: true };
  let gx = area.x;
  let gy = area.y;
  let rowH = 0;
  // Each row of groups is centred on the felt once it is complete.
  let rowLabels = 0;
  let rowMelds = 0;
  const centreRow = () => {
    const right = Math.max(area.x, ...out.labels.slice(rowLabels).map((l) => l.rect.x + l.rect.w));
    const dx = Math.max(0, Math.floor((area.x + area.w - right) / 2));
    for (const l of out.labels.slice(rowLabels)) l.rect.x += dx;
    for (const m of out.melds.slice(rowMelds)) m.rect.x += dx;
    rowLabels = out.labels.length;
    rowMelds = out.melds.length;
  };
  for (const g of groups) {
    const widths = g.melds.map((m) => cw + step * (m.cards - 1));
    // Lay the group's melds in lines no wider than the area.
    const lines: number[][] = [[]];
    let lineW = 0;
    widths.forEach((w, i) => {
      if (lineW > 0 && lineW + gap + w > area.w) {
        lines.push([]);
        lineW = 0;
      }
      lines[lines.length - 1].push(i);
      lineW += (lineW > 0 ? gap : 0) + w;
    });
    const lineWidths = lines.map((l) => l.reduce((s, i) => s + widths[i], 0) + gap * Math.max(0, l.length - 1));
    const gw = Math.max(70, ...lineWidths);
    const gh = labelH + lines.length * (ch + 4);
    if (gx > area.x && gx + gw > area.x + area.w) {
      centreRow();
      gx = area.x;
      gy += rowH + gap;
      rowH = 0;
    }
    out.labels.push({ owner: g.owner, rect: { x: gx, y: gy, w: gw, h: labelH } });
    lines.forEach((l, li) => {
      let x = gx;
      for (const i of l) {
        out.melds.push({ id: g.melds[i].id, rect: { x, y: gy + labelH + li * (ch + 4), w: widths[i], h: ch }, step });
        x += widths[i] + gap;
      }
    });
    rowH = Math.max(rowH, gh);
    if (gy + gh > area.y + area.h || gw > area.w) out.fits = false;
    gx += gw + gap * 2;
  }
  centreRow();
  return out;
}

/**
 * Where `n` visible action buttons go: the bar's slots row by row, each row
 * centred; in portrait a single row sits on the bottom line.
 */
export function barRects(l: HulaLayout, n: number): Rect[] {
  const perRow = l.portrait ? l.actions.length / 2 : l.actions.length;
  const count = Math.min(n, l.actions.length);
  const rows = Math.max(1, Math.ceil(count / perRow));
  const firstRow = l.portrait ? 2 - rows : 0;
  const step = perRow > 1 ? l.actions[1].x - l.actions[0].x : 0;
  return Array.from({ length: count }, (_, i) => {
    const row = firstRow + Math.floor(i / perRow);
    const inRow = Math.min(perRow, count - Math.floor(i / perRow) * perRow);
    const base = l.actions[row * perRow + (i % perRow)];
    return { ...base, x: base.x + ((perRow - inRow) * step) / 2 };
  });
}
