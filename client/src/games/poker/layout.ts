/**
 * Where everything on the 포커 table goes, as a pure function of the screen
 * size and the seat count (spec §9), so a unit test can prove that nothing
 * overlaps or leaves the screen. Portrait: opponents in rows on top, pot and
 * board in the middle, my seat and big cards below, the action bar at the
 * bottom. Landscape: opponents along an arc on top, my cards bottom left and
 * the action bar bottom right.
 */
import type { Rect } from '../../table-kit/rect.ts';

export type { Rect };
export { inside, overlaps } from '../../table-kit/rect.ts';

export interface PokerLayoutInput {
  width: number;
  height: number;
  /** Seats drawn around the table: everyone but me, every seat for a spectator. */
  opponents: number;
  /** Cards in my hand (hole + up, or the 4 choice cards). */
  myCards: number;
  /** A spectator has no cards or action bar: the middle of the table takes their place. */
  spectator?: boolean;
  /** Hold'em/omaha deal a board; the other modes give its room to the seats' cards (default true). */
  board?: boolean;
  /** 인디언: the used-card panel (§9) takes a strip of the middle; the foreheads keep `boardArea`. */
  usedPanel?: boolean;
}

export interface PokerLayout {
  orientation: 'portrait' | 'landscape';
  width: number;
  height: number;
  topBar: Rect;
  title: Rect;
  /** The top bar's buttons; `chat` is the round chat button's own square (a DOM button, chat-place.ts). */
  menu: { rules: Rect; leave: Rect; chat: Rect };
  seats: Rect[];
  /** Pot total and side pots. */
  pot: Rect;
  /** The five community-card slots (also used for a hand-end banner in other modes). */
  board: Rect[];
  boardArea: Rect;
  /** Whose turn it is ("… 차례", "내 차례 · 콜하려면 …") and the shared clock pill at its right end. */
  status: Rect;
  /** Where toasts and chat lines stand: a band of their own, clear of the status line and the board (issue 41 §1). */
  toasts: Rect;
  /** My seat strip: name, stack, bet, state, timer. */
  me: Rect;
  /** Current hand name ("지금: 투페어"). */
  hint: Rect;
  hand: Rect;
  /** One rectangle per card in my hand; neighbours may overlap, `visible` is the uncovered part. */
  cards: { rect: Rect; visible: Rect }[];
  cardW: number;
  cardH: number;
  actions: Rect;
  /** The table's felt oval, behind pot, board and status. */
  felt: Rect;
  /** PC: the hand log panel right of the table (§9), when the screen is wide enough. */
  log: Rect | null;
  /** PC: the hand-rank table (족보표) under the hand log (§9), when the column has room for it. */
  ranks: Rect | null;
  /** 인디언: the used-card panel (§9), on the felt with the foreheads. */
  used: Rect | null;
  /** Rows the action bar is split into. */
  actionRows: number;
}

const PAD = 8;
/** One toast line (table-kit/overlays.ts Toasts: 14 px text, 7 px padding). */
const TOAST_H = 34;
/** One small toast line (12 px text, 2 px padding): Toasts draws them in a band under 34 px. */
const TOAST_SMALL_H = 22;
/** Card art is 180×252. */
const RATIO = 180 / 252;

/** `n` equal cells across `area`, `gap` apart, in rows of `perRow`. */
export function grid(area: Rect, n: number, perRow: number, rows: number, gap = 8): Rect[] {
  const cols = Math.max(1, perRow);
  const w = (area.w - gap * (cols - 1)) / cols;
  const h = (area.h - gap * (rows - 1)) / rows;
  const out: Rect[] = [];
  for (let i = 0; i < n; i++) {
    const r = Math.floor(i / cols);
    const c = i % cols;
    out.push({ x: area.x + c * (w + gap), y: area.y + r * (h + gap), w, h });
  }
  return out;
}

/**
 * Cells for `n` buttons in rows of `perRow` filling `area`; a short last row
 * spreads its buttons over the whole width so a lone confirm button is wide.
 */
export function barCells(area: Rect, n: number, perRow: number, gap = 8): Rect[] {
  const rows = Math.max(1, Math.ceil(n / perRow));
  const full = grid(area, n, perRow, rows, gap);
  const last = n - (rows - 1) * perRow;
  if (last === perRow || rows === 0) return full;
  const y = full[(rows - 1) * perRow]?.y ?? area.y;
  const h = full[0]?.h ?? area.h;
  const tail = grid({ x: area.x, y, w: area.w, h }, last, last, 1, gap);
  return [...full.slice(0, (rows - 1) * perRow), ...tail];
}

function cardRow(area: Rect, n: number, cardW: number, cardH: number): PokerLayout['cards'] {
  if (n === 0) return [];
  const step = n === 1 ? 0 : Math.min(cardW + 8, (area.w - cardW) / (n - 1));
  const total = step * (n - 1) + cardW;
  const x0 = area.x + (area.w - total) / 2;
  const y = area.y + (area.h - cardH) / 2;
  return Array.from({ length: n }, (_, i) => {
    const rect = { x: x0 + i * step, y, w: cardW, h: cardH };
    const last = i === n - 1;
    return { rect, visible: { ...rect, w: last ? cardW : Math.min(cardW, step) } };
  });
}

function seatRects(area: Rect, n: number, cols: number, arc: number): Rect[] {
  const rows = Math.max(1, Math.ceil(n / cols));
  const gap = 6;
  const w = Math.min(230, (area.w - gap * (cols - 1)) / cols);
  const h = (area.h - arc - gap * (rows - 1)) / rows;
  const out: Rect[] = [];
  for (let i = 0; i < n; i++) {
    const r = Math.floor(i / cols);
    const inRow = r === rows - 1 ? n - r * cols : cols;
    const c = i - r * cols;
    const rowW = inRow * w + (inRow - 1) * gap;
    const x = area.x + (area.w - rowW) / 2 + c * (w + gap);
    // One row bends into an arc around the table: the ends sit lower.
    const mid = (inRow - 1) / 2;
    const bend = rows === 1 && mid > 0 ? arc * ((c - mid) / mid) ** 2 : 0;
    out.push({ x, y: area.y + r * (h + gap) + bend, w, h });
  }
  return out;
}

export function computePokerLayout(input: PokerLayoutInput): PokerLayout {
  const { width: W, height: H } = input;
  const n = Math.max(1, input.opponents);
  const landscape = W > H * 1.1;
  const barH = landscape ? 52 : H < 700 ? 40 : 44;
  const topBar = { x: 0, y: 0, w: W, h: barH };
  const mb = { w: landscape ? 84 : 64, h: barH - 12 };
  const leave = { x: W - PAD - mb.w, y: 6, w: mb.w, h: mb.h };
  const rules = { x: leave.x - 6 - mb.w, y: 6, w: mb.w, h: mb.h };
  const chat = { x: rules.x - 6 - mb.h, y: 6, w: mb.h, h: mb.h };
  const title = { x: PAD, y: 0, w: chat.x - 2 * PAD, h: barH };

  if (!landscape) {
    // Small phones (360×640): shorter buttons, cards and seats so the middle keeps its pot and board.
    const compact = H < 700;
    const rowH = compact ? 40 : 56;
    const gap = compact ? 6 : 8;
    const actionRows = 3;
    const actions = { x: PAD, y: H - PAD - actionRows * rowH - (actionRows - 1) * 8, w: W - 2 * PAD, h: 0 };
    actions.h = H - PAD - actions.y;
    const cardH = compact ? 68 : Math.max(96, Math.min(120, Math.round(H * 0.12)));
    const cardW = Math.round(cardH * RATIO);
    const hintH = compact ? 18 : 22;
    const hint = { x: PAD, y: actions.y - gap - hintH, w: W - 2 * PAD, h: hintH };
    const hand = { x: PAD, y: hint.y - (compact ? 3 : 4) - cardH, w: W - 2 * PAD, h: cardH };
    const meH = compact ? 26 : 30;
    const me = { x: PAD, y: hand.y - (compact ? 4 : 6) - meH, w: W - 2 * PAD, h: meH };
    const cols = n <= 3 ? n : n === 4 ? 2 : 3;
    const rows = Math.ceil(n / cols);
    const base = compact ? [100, 84, 64, 64][rows - 1] : [112, 100, 86, 80][rows - 1];
    // Without a board the middle needs only the pot, a title and the status (≈ 150 px): the rest
    // goes to the seats, whose open cards (7포커) are what a player reads.
    const cBottomAt = input.spectator ? H - PAD : me.y - 6;
    const usedH = input.usedPanel ? (compact ? 28 : 34) : 0;
    // The middle must hold the pot, the smallest board, the toasts' band and the status line; with three
    // rows of seats it is short of that, and the toasts take the small line and the seats give up their spare.
    // A small phone with three rows has not even that: its toasts stand on my hand's name (the hint) instead.
    const midFree = cBottomAt - (barH + 8 + rows * base + (rows - 1) * 6 + 8);
    const midNeed = (compact ? 32 : 44) + 12 + (compact ? 36 : 56) + 2 + (compact ? 22 : 24) + usedH;
    const squeezable = rows * (base - (compact ? 64 : 80));
    const onHint = !input.spectator && midFree + squeezable < midNeed + TOAST_SMALL_H;
    const toastH = onHint ? 0 : compact || midFree < midNeed + TOAST_H ? TOAST_SMALL_H : TOAST_H;
    const squeeze = Math.max(0, Math.min(base - (compact ? 64 : 80), Math.ceil((midNeed + toastH - midFree) / rows)));
    const spare = midFree - 150 - usedH - toastH;
    const grow = input.board === false ? Math.max(0, Math.min(44, Math.floor(spare / rows))) : 0;
    const seatH = base + grow - squeeze;
    const seatArea = { x: PAD, y: barH + 8, w: W - 2 * PAD, h: rows * seatH + (rows - 1) * 6 };
    const seats = seatRects(seatArea, n, cols, 0);
    const cTop = seatArea.y + seatArea.h + 8;
    const cBottom = input.spectator ? H - PAD : me.y - 6;
    const pot = { x: PAD, y: cTop, w: W - 2 * PAD, h: compact ? 32 : 44 };
    const status = { x: PAD, y: cBottom - (compact ? 22 : 24), w: W - 2 * PAD, h: compact ? 22 : 24 };
    // Toasts stand right above the status line, never on it: "… 차례" stays readable under a notice.
    const toasts = onHint
      ? { x: PAD, y: hint.y - 2, w: W - 2 * PAD, h: TOAST_SMALL_H }
      : { x: PAD, y: status.y - 2 - toastH, w: W - 2 * PAD, h: toastH };
    const midToasts = onHint ? status.y : toasts.y;
    // The used-card strip goes under the foreheads; with many seats (d52 인디언 seats 10) the middle is
    // too short for both, and the strip moves beside the foreheads instead.
    const stacked = midToasts - 4 - usedH - pot.y - pot.h - 8 >= (compact ? 36 : 56);
    const used = !usedH
      ? null
      : stacked
        ? { x: PAD + 16, y: midToasts - 4 - usedH, w: W - 2 * PAD - 32, h: usedH }
        : { x: W - PAD - 16 - Math.round(W * 0.42), y: pot.y + pot.h + 2, w: Math.round(W * 0.42), h: 0 };
    if (used && !stacked) used.h = midToasts - 2 - used.y;
    const midBottom = used && stacked ? used.y : midToasts;
    const bh = Math.min(84, midBottom - pot.y - pot.h - (used ? (stacked ? 8 : 4) : 12));
    const bw = Math.round(bh * RATIO);
    const boardArea = {
      x: (W - (5 * bw + 4 * 6)) / 2,
      y: pot.y + pot.h + (midBottom - pot.y - pot.h - bh) / 2,
      w: 5 * bw + 4 * 6,
      h: bh,
    };
    // The foreheads of 인디언 spread over the felt's width rather than five board slots.
    if (used) Object.assign(boardArea, { x: PAD + 16, w: stacked ? W - 2 * PAD - 32 : used.x - 8 - (PAD + 16) });
    return {
      orientation: 'portrait',
      width: W,
      height: H,
      topBar,
      title,
      menu: { rules, leave, chat },
      seats,
      pot,
      board: grid(boardArea, 5, 5, 1, 6),
      boardArea,
      status,
      toasts,
      me,
      hint,
      hand,
      cards: cardRow(hand, input.myCards, cardW, cardH),
      cardW,
      cardH,
      actions,
      felt: { x: PAD, y: pot.y - 6, w: W - 2 * PAD, h: status.y + status.h + 4 - (pot.y - 6) },
      log: null,
      ranks: null,
      used,
      actionRows,
    };
  }

  if (H < 520) return shortLandscape(input, W, H, n);

  const actionRows = 3;
  const aw = Math.min(500, Math.round(W * 0.36));
  const ah = actionRows * 60 + (actionRows - 1) * 8;
  const actions = { x: W - PAD - 8 - aw, y: H - PAD - 8 - ah, w: aw, h: ah };
  const cardH = Math.max(110, Math.min(150, Math.round(H * 0.16)));
  const cardW = Math.round(cardH * RATIO);
  const leftW = actions.x - 2 * PAD - 16;
  const hand = { x: PAD + 8, y: H - PAD - 8 - cardH, w: leftW, h: cardH };
  const hint = { x: PAD + 8, y: hand.y - 6 - 26, w: leftW, h: 26 };
  const me = { x: PAD + 8, y: hint.y - 4 - 34, w: leftW, h: 34 };
  const cols = n <= 6 ? n : Math.ceil(n / 2);
  const rows = Math.ceil(n / cols);
  const seatH = rows === 1 ? 140 : 118;
  // Three or more seats in one row bend into an arc; two sit level.
  const arc = rows === 1 && n >= 3 ? 70 : 0;
  const seatArea = { x: PAD + 8, y: barH + 10, w: W - 2 * PAD - 16, h: rows * seatH + (rows - 1) * 6 + arc };
  const seats = seatRects(seatArea, n, cols, arc);
  // The middle of the table: between the seats' lowest point and my strip (and the action bar on the right).
  const seatBottom = Math.max(...seats.map((s) => s.y + s.h));
  const midTop = seatBottom + 10;
  const midBottom = input.spectator ? H - PAD - 10 : Math.min(me.y, actions.y) - 10;
  const cx = W / 2;
  const status = { x: cx - 320, y: midBottom - 30, w: 640, h: 30 };
  // Toasts stand right above the status line, never on it: "… 차례" stays readable under a notice.
  const toasts = { x: cx - 320, y: status.y - 4 - TOAST_H, w: 640, h: TOAST_H };
  const pot = { x: cx - 320, y: midTop, w: 640, h: 52 };
  const used = input.usedPanel ? { x: cx - 300, y: toasts.y - 6 - 40, w: 600, h: 40 } : null;
  const boardBottom = used ? used.y : toasts.y;
  const bh = Math.max(60, Math.min(130, boardBottom - pot.y - pot.h - (used ? 8 : 16)));
  const bw = Math.round(bh * RATIO);
  const boardArea = {
    x: cx - (5 * bw + 4 * 10) / 2,
    y: pot.y + pot.h + (boardBottom - pot.y - pot.h - bh) / 2,
    w: 5 * bw + 4 * 10,
    h: bh,
  };
  if (used) Object.assign(boardArea, { x: cx - 320, w: 640 });
  // PC (§9): a column right of the round table holds the hand log and the hand-rank table; the
  // felt narrows (it still holds the 640 px middle) to give that column room when the screen is wide.
  const column = pcColumn(W, cx, seatBottom + 10, input.spectator ? H - PAD - 8 : actions.y - 12);
  const feltW = Math.min(W - 2 * PAD, 1040, column ? 2 * (column.x - 10 - cx) : Infinity);
  const felt = {
    x: Math.max(PAD, cx - feltW / 2),
    y: pot.y - 8,
    w: feltW,
    h: status.y + status.h + 4 - (pot.y - 8),
  };
  const { log, ranks } = column ?? { log: null, ranks: null };
  return {
    orientation: 'landscape',
    width: W,
    height: H,
    topBar,
    title,
    menu: { rules, leave, chat },
    seats,
    pot,
    board: grid(boardArea, 5, 5, 1, 10),
    boardArea,
    status,
    toasts,
    me,
    hint,
    hand,
    cards: cardRow(hand, input.myCards, cardW, cardH),
    cardW,
    cardH,
    actions,
    felt,
    log,
    ranks,
    used,
    actionRows,
  };
}

/**
 * The PC column right of the table: hand log on top, 족보표 below it (13 rows
 * of the Korean ranking need ≈ 250 px). Null when the screen is too narrow for
 * a readable column beside a felt that holds the 640 px middle, or too short.
 */
function pcColumn(
  W: number,
  cx: number,
  top: number,
  bottom: number,
): { x: number; log: Rect; ranks: Rect | null } | null {
  const right = W - PAD - 8;
  const x = Math.max(cx + 340 + 10, right - 320);
  const w = right - x;
  const h = bottom - top;
  if (w < 150 || h < 160) return null;
  if (w < 200 || h < 340) return { x, log: { x, y: top, w, h }, ranks: null };
  const logH = Math.max(110, Math.round(h * 0.3));
  return { x, log: { x, y: top, w, h: logH }, ranks: { x, y: top + logH + 10, w, h: h - logH - 10 } };
}

/**
 * A phone on its side (844×390, 932×430): one row of seats across the top,
 * the middle of the table below them, my cards bottom left and a compact
 * action bar bottom right — every part smaller but nothing on top of another.
 */
function shortLandscape(input: PokerLayoutInput, W: number, H: number, n: number): PokerLayout {
  const barH = 40;
  const topBar = { x: 0, y: 0, w: W, h: barH };
  const mb = { w: 68, h: barH - 10 };
  const leave = { x: W - PAD - mb.w, y: 5, w: mb.w, h: mb.h };
  const rules = { x: leave.x - 6 - mb.w, y: 5, w: mb.w, h: mb.h };
  const chat = { x: rules.x - 6 - mb.h, y: 5, w: mb.h, h: mb.h };
  const title = { x: PAD, y: 0, w: chat.x - 2 * PAD, h: barH };
  const actionRows = 3;
  const rowH = 42;
  const aw = Math.min(380, Math.round(W * 0.4));
  const ah = actionRows * rowH + (actionRows - 1) * 8;
  const actions = { x: W - PAD - aw, y: H - PAD - ah, w: aw, h: ah };
  const cardH = Math.max(64, Math.min(90, Math.round(H * 0.2)));
  const cardW = Math.round(cardH * RATIO);
  const leftW = actions.x - 2 * PAD;
  const hand = { x: PAD, y: H - PAD - cardH, w: leftW, h: cardH };
  const hint = { x: PAD, y: hand.y - 2 - 18, w: leftW, h: 18 };
  const me = { x: PAD, y: hint.y - 3 - 26, w: leftW, h: 26 };
  const seatArea = { x: PAD, y: barH + 4, w: W - 2 * PAD, h: 84 };
  const seats = seatRects(seatArea, n, n, 0);
  const midTop = seatArea.y + seatArea.h + 6;
  const midBottom = input.spectator ? H - PAD : Math.min(me.y, actions.y) - 4;
  const cx = W / 2;
  const mw = Math.min(640, W - 2 * PAD - 8);
  const pot = { x: cx - mw / 2, y: midTop, w: mw, h: 30 };
  const status = { x: cx - mw / 2, y: midBottom - 24, w: mw, h: 22 };
  const bh = Math.max(36, Math.min(110, status.y - pot.y - pot.h - 8));
  const bw = Math.round(bh * RATIO);
  const boardArea = {
    x: cx - (5 * bw + 4 * 6) / 2,
    y: pot.y + pot.h + (status.y - pot.y - pot.h - bh) / 2,
    w: 5 * bw + 4 * 6,
    h: bh,
  };
  // 인디언 on a phone on its side: the foreheads take the left of the middle, the used-card panel its right.
  const usedW = Math.min(260, Math.round(mw * 0.42));
  const used = input.usedPanel ? { x: cx + mw / 2 - 8 - usedW, y: boardArea.y, w: usedW, h: bh } : null;
  // No height to spare for a band of their own: toasts stand in the board row, left of the five cards (of
  // the foreheads for 인디언, whose five need ≈ 150 px at this height), never on the status line.
  // The small line, so the longest notice ("시간이 다 되어 자동으로 폴드했어요", ≈ 190 px) keeps to one line.
  const toastW = used ? 210 : boardArea.x - 8 - (cx - mw / 2 + 8);
  const toasts = { x: cx - mw / 2 + 8, y: boardArea.y + (bh - TOAST_SMALL_H) / 2, w: toastW, h: TOAST_SMALL_H };
  if (used) Object.assign(boardArea, { x: toasts.x + toastW + 8, w: used.x - 8 - (toasts.x + toastW + 8) });
  const felt = { x: Math.max(PAD, cx - 520), y: pot.y - 2, w: Math.min(W - 2 * PAD, 1040), h: 0 };
  felt.h = status.y + status.h + 1 - felt.y;
  return {
    orientation: 'landscape',
    width: W,
    height: H,
    topBar,
    title,
    menu: { rules, leave, chat },
    seats,
    pot,
    board: grid(boardArea, 5, 5, 1, 6),
    boardArea,
    status,
    toasts,
    me,
    hint,
    hand,
    cards: cardRow(hand, input.myCards, cardW, cardH),
    cardW,
    cardH,
    actions,
    felt,
    log: null,
    ranks: null,
    used,
    actionRows,
  };
}

/** The rectangles that must never overlap each other (tests and the test hook use this list). */
export function namedRects(l: PokerLayout, spectator: boolean): [string, Rect][] {
  const out: [string, Rect][] = [
    ['title', l.title],
    ['rules', l.menu.rules],
    ['leave', l.menu.leave],
    ['chat', l.menu.chat],
    ...l.seats.map((s, i) => [`seat${i}`, s] as [string, Rect]),
    ['pot', l.pot],
    ['board', l.boardArea],
    ['status', l.status],
    ['toasts', l.toasts],
  ];
  if (l.log) out.push(['log', l.log]);
  if (l.ranks) out.push(['ranks', l.ranks]);
  if (l.used) out.push(['used', l.used]);
  if (!spectator) out.push(['me', l.me], ['hint', l.hint], ['hand', l.hand], ['actions', l.actions]);
  return out;
}
