/**
 * Where everything on the 원카드 table goes, as a pure function of the screen
 * size and how many seats and cards there are. Keeping it pure lets unit
 * tests prove "nothing overlaps, nothing off-screen" for phone portrait and
 * desktop landscape without a browser, and the browser test hook reports the
 * same rectangles so tests click where a player would.
 *
 * Portrait (§9): opponents on top (wrapping to two rows), piles in the middle,
 * two rows of controls, then the hand in up to two fanned rows.
 * Landscape: the same stacked wider, hand in one row, controls to its right.
 */
import type { Rect } from '../../table-kit/rect.ts';

export interface CardSlot {
  /** Centre of the card and its rotation (radians) in the fan. */
  cx: number;
  cy: number;
  angle: number;
  row: number;
  /** The part of the card not covered by its neighbours: where a tap lands on this card. */
  visible: Rect;
}

export interface LayoutInput {
  width: number;
  height: number;
  /** Seats shown around the top (everyone but me; every seat for a spectator). */
  opponents: number;
  handCount: number;
  spectator: boolean;
}

export interface TableLayout {
  orientation: 'portrait' | 'landscape';
  width: number;
  height: number;
  topBar: Rect;
  /** The top bar's buttons; `chat` is the round chat button's own square (a DOM button, chat-place.ts). */
  menu: { rules: Rect; settings: Rect; leave: Rect; chat: Rect };
  title: Rect;
  opponents: Rect[];
  opponentRows: number;
  center: Rect;
  drawPile: Rect;
  discard: Rect;
  direction: Rect;
  declared: Rect;
  attack: Rect;
  status: Rect;
  hint: Rect;
  /** Where toasts and chat lines stand: the status and hint band, clear of piles, cards and buttons. */
  toasts: Rect;
  me: Rect;
  sortSuit: Rect;
  sortRank: Rect;
  declareToggle: Rect;
  draw: Rect;
  play: Rect;
  /** Bounding square of the round one-card button. */
  oneCard: Rect;
  hand: Rect;
  cardW: number;
  cardH: number;
  cards: CardSlot[];
  /** Size of the hand cards' lift when tapped. */
  raise: number;
}

export const CARD_RATIO = 1.4;
export const MIN_CARD_W = 48;
export const MIN_CARD_H = 68;

const r = (x: number, y: number, w: number, h: number): Rect => ({
  x: Math.round(x),
  y: Math.round(y),
  w: Math.round(w),
  h: Math.round(h),
});

export function isPortrait(width: number, height: number): boolean {
  return width < 720 || height > width;
}

/** Opponent badges: centred rows, wrapping when they do not fit one row. */
function placeOpponents(n: number, area: Rect, badgeW: number, badgeH: number, gap: number): [Rect[], number] {
  if (n === 0) return [[], 0];
  const perRow = Math.max(1, Math.floor((area.w + gap) / (badgeW + gap)));
  const rows = Math.ceil(n / perRow);
  const out: Rect[] = [];
  const inFirst = Math.ceil(n / rows);
  for (let row = 0, i = 0; row < rows; row++) {
    const count = row === 0 ? inFirst : Math.min(n - i, inFirst);
    const total = count * badgeW + (count - 1) * gap;
    const x0 = area.x + (area.w - total) / 2;
    for (let k = 0; k < count; k++, i++)
      out.push(r(x0 + k * (badgeW + gap), area.y + row * (badgeH + gap), badgeW, badgeH));
  }
  return [out, rows];
}

/**
 * The hand fan: `rows` rows, each centred in `area`; cards overlap with a
 * step no wider than 78% of a card, tilt a little towards the edges, and the
 * front row (drawn last) sits lower than the back row.
 */
function placeHand(
  n: number,
  area: Rect,
  cardW: number,
  cardH: number,
  rows: number,
  raise: number,
  maxStep = cardW * 0.78,
): CardSlot[] {
  if (n === 0) return [];
  const out: CardSlot[] = [];
  const perRow = [Math.ceil(n / rows)];
  if (rows === 2) perRow.push(n - perRow[0]);
  const rowStep = rows === 2 ? Math.min(cardH * 0.62, area.h - raise - cardH) : 0;
  const top = area.y + raise + (area.h - raise - cardH - rowStep) / 2;
  const spans: [number, number][] = [];
  const rowsOut: { left: number; step: number; count: number; y: number }[] = [];
  for (let row = 0; row < perRow.length; row++) {
    const count = perRow[row];
    const step = count > 1 ? Math.min(maxStep, (area.w - cardW) / (count - 1)) : 0;
    const total = cardW + step * (count - 1);
    const left = area.x + (area.w - total) / 2;
    spans.push([left, left + total]);
    rowsOut.push({ left, step, count, y: top + row * rowStep });
  }
  for (let row = 0; row < rowsOut.length; row++) {
    const { left: x0, step, count, y } = rowsOut[row];
    const tilt = Math.min(0.05, 0.42 / Math.max(count, 1));
    for (let k = 0; k < count; k++) {
      const t = count > 1 ? (k - (count - 1) / 2) / ((count - 1) / 2) : 0;
      const lift = t * t * Math.min(6, cardH * 0.06);
      const left = x0 + k * step;
      const visW = k === count - 1 ? cardW : Math.max(step, 1);
      // The front row hides the lower part of any back-row card it passes under.
      const front = spans[row + 1];
      const covered = front !== undefined && left < front[1] && left + cardW > front[0];
      const visH = covered ? rowStep : cardH;
      out.push({
        cx: left + cardW / 2,
        cy: y + cardH / 2 + lift,
        angle: count > 1 ? t * tilt : 0,
        row,
        visible: r(left + 3, y + lift + 3, visW - 6, visH - 6),
      });
    }
  }
  return out;
}

function centerPiles(
  center: Rect,
  maxPileH: number,
  side: number,
): Pick<TableLayout, 'drawPile' | 'discard' | 'direction' | 'declared' | 'attack'> {
  const attackH = Math.round(Math.max(30, side * 0.7));
  const gap = Math.round(side * 0.45);
  let pileH = Math.min(maxPileH, center.h - attackH - 30);
  let pileW = pileH / CARD_RATIO;
  const maxW = (center.w - 2 * side - 4 * 12 - gap) / 2;
  if (pileW > maxW) {
    pileW = maxW;
    pileH = pileW * CARD_RATIO;
  }
  const cx = center.x + center.w / 2;
  const top = center.y + attackH + 4 + (center.h - attackH - 30 - pileH) / 2;
  const drawPile = r(cx - gap / 2 - pileW, top, pileW, pileH);
  const discard = r(cx + gap / 2, top, pileW, pileH);
  const sideY = Math.max(top, top + pileH / 2 - side / 2);
  return {
    drawPile,
    discard,
    direction: r(drawPile.x - 12 - side, sideY, side, side),
    declared: r(discard.x + discard.w + 12, sideY, side, side + 18),
    attack: r(cx - side * 1.6, center.y + 2, side * 3.2, attackH),
  };
}

export function computeLayout(input: LayoutInput): TableLayout {
  const { width: W, height: H } = input;
  const portrait = isPortrait(W, H);
  const m = portrait ? 8 : 20;
  const topH = portrait ? 44 : 52;
  const topBar = r(0, 0, W, topH);
  const btn = portrait ? 40 : 44;
  const menu = {
    leave: r(W - m - btn * 1.5, (topH - 36) / 2, btn * 1.5, 36),
    settings: r(W - m - btn * 1.5 - 6 - btn, (topH - 36) / 2, btn, 36),
    rules: r(W - m - btn * 1.5 - 12 - btn * 2, (topH - 36) / 2, btn, 36),
    chat: r(W - m - btn * 1.5 - 18 - btn * 2 - 36, (topH - 36) / 2, 36, 36),
  };
  const title = r(m, 4, menu.chat.x - m - 8, topH - 8);

  const handCount = input.spectator ? 0 : input.handCount;

  if (portrait) {
    // Five badges per row at most, so even ten seats take two rows.
    const badgeW = Math.min(70, Math.floor((W - 2 * m + 6) / 5) - 6);
    const perRow = Math.max(1, Math.floor((W - 2 * m + 6) / (badgeW + 6)));
    const twoRows = input.opponents > perRow;
    // Short phones get compact badges so the piles keep a playable size.
    const badgeH = twoRows ? (H >= 800 ? 80 : 58) : H >= 700 ? 86 : 70;
    const [opponents, opponentRows] = placeOpponents(
      input.opponents,
      r(m, topH + 4, W - 2 * m, 2 * badgeH + 6),
      badgeW,
      badgeH,
      6,
    );
    const oppBottom = topH + 4 + Math.max(opponentRows, 1) * (badgeH + 6);

    const cardW = Math.round(Math.max(MIN_CARD_W + 8, Math.min(64, W / 7)));
    const cardH = Math.round(cardW * CARD_RATIO);
    const raise = 16;
    const oneRowMax = Math.floor((W - 2 * m - cardW) / (cardW * 0.62)) + 1;
    const rows = handCount > oneRowMax ? 2 : 1;
    const handH = input.spectator ? 0 : raise + cardH + (rows === 2 ? Math.round(cardH * 0.62) : 0) + 4;
    const hand = r(m, H - m - handH, W - 2 * m, handH);

    const controlsH = input.spectator ? 0 : 100;
    const controlsTop = hand.y - controlsH;
    const oneD = 76;
    const oneCard = r(W - m - oneD, controlsTop + (controlsH - oneD) / 2, oneD, oneD);
    const row1 = controlsTop + 4;
    const row2 = controlsTop + 48;
    const sortSuit = r(m, row1, 64, 36);
    const sortRank = r(m + 70, row1, 64, 36);
    const declareToggle = r(m + 140, row1, oneCard.x - 8 - (m + 140), 36);
    const me = r(m, row2, 48, 48);
    const bw = Math.min(120, (oneCard.x - 8 - (m + 56)) / 2 - 4);
    const draw = r(m + 56, row2 + 2, bw, 44);
    const play = r(m + 56 + bw + 8, row2 + 2, bw, 44);

    const statusH = 46;
    const status = r(m, controlsTop - statusH, W - 2 * m, 24);
    const hint = r(m, controlsTop - statusH + 24, W - 2 * m, 20);
    const center = r(m, oppBottom + 4, W - 2 * m, status.y - oppBottom - 8);
    const piles = centerPiles(center, 160, 48);
    const cards = placeHand(handCount, hand, cardW, cardH, rows, raise);
    return {
      orientation: 'portrait',
      width: W,
      height: H,
      topBar,
      menu,
      title,
      opponents,
      opponentRows,
      center,
      ...piles,
      status,
      hint,
      toasts: band(status, hint),
      me,
      sortSuit,
      sortRank,
      declareToggle,
      draw,
      play,
      oneCard,
      hand,
      cardW,
      cardH,
      cards,
      raise,
    };
  }

  if (H < 520) return shortLandscape(input, W, H, topBar, menu, title, handCount);

  // Landscape: one hand row, controls in a column to its right.
  const scale = Math.min(1.25, Math.max(0.7, H / 900));
  const badgeW = Math.round(104 * scale);
  const badgeH = Math.round(110 * scale);
  const [opponents, opponentRows] = placeOpponents(
    input.opponents,
    r(m, topH + 8, W - 2 * m, 2 * badgeH + 8),
    badgeW,
    badgeH,
    Math.round(12 * scale),
  );
  const oppBottom = topH + 8 + Math.max(opponentRows, 1) * (badgeH + 12 * scale);
  const cardH = Math.round(Math.max(MIN_CARD_H + 12, 150 * scale));
  const cardW = Math.round(cardH / CARD_RATIO);
  const raise = Math.round(22 * scale);
  // Spectators have no controls, but the (hidden) buttons still get sane rectangles.
  const panelW = Math.round(300 * scale);
  const handH = input.spectator ? 0 : raise + cardH + 8;
  const hand = r(m, H - m - handH, input.spectator ? W - 2 * m : W - 2 * m - panelW - 16, handH);
  const panelX = W - m - panelW;
  const oneD = Math.round(96 * scale);
  const oneCard = r(W - m - oneD, H - m - oneD, oneD, oneD);
  const bw = panelW - oneD - 16;
  const play = r(panelX, H - m - oneD + 2, bw, Math.round(46 * scale));
  const draw = r(panelX, play.y + play.h + 8, bw, Math.round(44 * scale));
  const declareToggle = r(panelX, play.y - 8 - 36, panelW, 36);
  const sortSuit = r(panelX, declareToggle.y - 8 - 36, 76, 36);
  const sortRank = r(panelX + 84, declareToggle.y - 8 - 36, 76, 36);
  const statusTop = hand.y - 60;
  const me = r(m, statusTop, 56, 56);
  const status = r(m + 66, statusTop + 2, hand.w - 66, 28);
  const hint = r(m + 66, statusTop + 32, hand.w - 66, 22);
  const centerBottom = Math.min(statusTop, input.spectator ? H - m : sortSuit.y) - 8;
  const center = r(m, oppBottom + 4, W - 2 * m, centerBottom - oppBottom - 4);
  const piles = centerPiles(center, Math.round(240 * scale), Math.round(60 * scale));
  // The hand takes the width it has (issue 41 §1): a short hand lies side by side, whole cards,
  // rather than a tight fan in the middle of an empty row; a long one overlaps as before.
  const cards = placeHand(handCount, hand, cardW, cardH, 1, raise, cardW + 6);
  return {
    orientation: 'landscape',
    width: W,
    height: H,
    topBar,
    menu,
    title,
    opponents,
    opponentRows,
    center,
    ...piles,
    status,
    hint,
    toasts: band(status, hint),
    me,
    sortSuit,
    sortRank,
    declareToggle,
    draw,
    play,
    oneCard,
    hand,
    cardW,
    cardH,
    cards,
    raise,
  };
}

/**
 * A phone on its side (844×390, 932×430): one row of small badges on top;
 * on the left the status line, the piles and my hand; on the right a column
 * of controls ending in the round one-card button. Nothing is stacked on the
 * piles, so they stay visible with an attack badge above them.
 */
function shortLandscape(
  input: LayoutInput,
  W: number,
  H: number,
  topBar: Rect,
  menu: TableLayout['menu'],
  title: Rect,
  handCount: number,
): TableLayout {
  const m = 8;
  const n = input.opponents;
  const badgeH = 60;
  const badgeW = Math.max(1, Math.min(100, Math.floor((W - 2 * m - 6 * (n - 1)) / Math.max(n, 1))));
  const [opponents, opponentRows] = placeOpponents(n, r(m, topBar.h + 4, W - 2 * m, badgeH), badgeW, badgeH, 6);
  const top = topBar.h + 4 + badgeH + 4;
  const panelW = input.spectator ? 0 : Math.min(260, Math.round(W * 0.3));
  const panelX = W - m - panelW;
  const leftW = input.spectator ? W - 2 * m : panelX - 12 - m;
  const cardH = 76;
  const cardW = Math.round(cardH / CARD_RATIO);
  const raise = 10;
  const handH = input.spectator ? 0 : raise + cardH + 4;
  const hand = r(m, H - m - handH, leftW, handH);
  const me = r(m, top, 36, 36);
  const status = r(m + 44, top, leftW - 44, 20);
  const hint = r(m + 44, top + 20, leftW - 44, 16);
  const centerTop = top + 38;
  const center = r(m, centerTop, leftW, (input.spectator ? H - m : hand.y - 4) - centerTop);
  const piles = centerPiles(center, 140, 40);
  const sortSuit = r(panelX, top, 76, 32);
  const sortRank = r(panelX + 84, top, 76, 32);
  const declareToggle = r(panelX, top + 38, panelW, 34);
  const play = r(panelX, top + 78, panelW, 40);
  const draw = r(panelX, top + 124, panelW, 40);
  const oneD = 64;
  const oneCard = r(W - m - oneD, H - m - oneD, oneD, oneD);
  // The hand takes the width it has (issue 41 §1): a short hand lies side by side, whole cards,
  // rather than a tight fan in the middle of an empty row; a long one overlaps as before.
  const cards = placeHand(handCount, hand, cardW, cardH, 1, raise, cardW + 6);
  return {
    orientation: 'landscape',
    width: W,
    height: H,
    topBar,
    menu,
    title,
    opponents,
    opponentRows,
    center,
    ...piles,
    status,
    hint,
    toasts: band(status, hint),
    me,
    sortSuit,
    sortRank,
    declareToggle,
    draw,
    play,
    oneCard,
    hand,
    cardW,
    cardH,
    cards,
    raise,
  };
}

/** The smallest rect holding both (the status line and the hint under it). */
function band(a: Rect, b: Rect): Rect {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return r(x, y, Math.max(a.x + a.w, b.x + b.w) - x, Math.max(a.y + a.h, b.y + b.h) - y);
}

/** Axis-aligned bounds of a card slot (rotation included). */
export function slotBounds(s: CardSlot, w: number, h: number): Rect {
  const c = Math.abs(Math.cos(s.angle));
  const sn = Math.abs(Math.sin(s.angle));
  const bw = w * c + h * sn;
  const bh = w * sn + h * c;
  return { x: s.cx - bw / 2, y: s.cy - bh / 2, w: bw, h: bh };
}
