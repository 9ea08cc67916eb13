/**
 * Plays the 원카드 table like a person would: reads where things are drawn
 * (window.__joke.layout(), canvas coordinates) and clicks there with the
 * mouse. It never sends an action any other way.
 */
import type { Page } from 'playwright-core';

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface ButtonState extends Box {
  enabled: boolean;
  visible: boolean;
  label: string;
  on: boolean;
}

export interface TableSnapshot {
  scene: string;
  canvas: { left: number; top: number };
  orientation: 'portrait' | 'landscape';
  width: number;
  height: number;
  connection: string;
  banner: string | null;
  bannerLog: string[];
  frames: number;
  seq: number | null;
  role: 'player' | 'spectator' | null;
  finished: boolean;
  myTurn: boolean;
  busy: boolean;
  status: string;
  hint: string;
  attack: string | null;
  declared: string | null;
  shaking: boolean;
  reducedMotion: boolean;
  cardSize: { w: number; h: number } | null;
  cards: {
    id: string;
    label: string;
    legal: boolean;
    selected: boolean;
    visible: Box;
    tap: { x: number; y: number };
  }[];
  buttons: Record<string, ButtonState>;
  opponents: { id: string; name: string; count: number; rect: Box; connected: boolean; current: boolean }[];
  me: { id: string; count: number } | null;
  picker: { kind: string; options: { value: string; label: string; rect: Box }[] } | null;
  result: {
    summary: string;
    rows: { rank: number; name: string; state: string; cardsLeft: number; points: number; me: boolean }[];
    seedCommit: string;
    seed: string;
    verified: boolean | null;
    buttons: Record<string, Box>;
  } | null;
  toasts: string[];
}

export async function snapshot(page: Page): Promise<TableSnapshot> {
  return (await page.evaluate(() => window.__joke!.layout())) as unknown as TableSnapshot;
}

export async function clickAt(page: Page, snap: TableSnapshot, x: number, y: number): Promise<void> {
  await page.mouse.click(snap.canvas.left + x, snap.canvas.top + y);
}

export async function clickBox(page: Page, snap: TableSnapshot, b: Box): Promise<void> {
  await clickAt(page, snap, b.x + b.w / 2, b.y + b.h / 2);
}

/**
 * Polls `fn` until it returns something truthy. The default limit is for a page on a loaded box: it returns
 * as soon as the page shows the state, and only a page that never does waits it out (one poll of a starved
 * page has taken seconds in CI, so 15 s was sometimes a handful of polls).
 */
export async function waitFor<T>(
  what: string,
  fn: () => Promise<T | null | undefined | false>,
  timeoutMs = 30_000,
  everyMs = 60,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < until) {
    try {
      const v = await fn();
      if (v) return v;
      last = v;
    } catch (e) {
      last = e;
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`timed out waiting for ${what} (last: ${String(last)})`);
}

export interface TurnLog {
  plays: number;
  draws: number;
  picks: number;
  declares: number;
  catches: number;
}

/**
 * One decision when it is our move: pick a colour/suit if a picker is open,
 * else tap the first legal card, check it rose, and press 내기; with no legal
 * card press the draw button (먹기 / N장 먹기 / 넘기기). Returns what it did.
 */
export async function takeTurn(page: Page, snap: TableSnapshot, log: TurnLog): Promise<string> {
  if (snap.picker) {
    await clickBox(page, snap, snap.picker.options[0].rect);
    log.picks++;
    return `pick ${snap.picker.options[0].label}`;
  }
  const legal = snap.cards.filter((c) => c.legal);
  if (legal.length > 0 && snap.buttons.play.visible) {
    const card = legal[0];
    if (!card.selected) {
      await clickAt(page, snap, card.tap.x, card.tap.y);
      const raised = await waitFor(
        'card raised',
        async () => {
          const s = await snapshot(page);
          return s.cards.find((c) => c.id === card.id && c.selected) ? s : null;
        },
        // Returns as soon as the card rises; 3 s ran out on a starved box and the turn was lost.
        15_000,
      ).catch(() => null);
      if (!raised) return 'tap missed';
      snap = raised;
    }
    if (!snap.buttons.play.enabled) return 'play disabled';
    await clickBox(page, snap, snap.buttons.play);
    log.plays++;
    return `play ${card.label}`;
  }
  if (snap.buttons.draw.visible && snap.buttons.draw.enabled) {
    await clickBox(page, snap, snap.buttons.draw);
    log.draws++;
    return `draw (${snap.buttons.draw.label})`;
  }
  return 'nothing to do';
}
