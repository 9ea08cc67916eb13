/**
 * Plays the 포커 table like a person: reads where the table draws its cards
 * and buttons (window.__joke.layout(), canvas pixels) and clicks there.
 */
import type { Page } from 'playwright-core';
import { waitFor, type Box } from './table-driver.ts';

export interface PokerSnap {
  scene: string;
  canvas: { left: number; top: number };
  orientation: string;
  width: number;
  frames: number;
  seq: number | null;
  role: string | null;
  mode: string | null;
  handNo: number;
  handsPlayed: number;
  phase: string | null;
  showdown: boolean;
  myTurn: boolean;
  legal: string[];
  busy: boolean;
  prompt: string;
  pot: number;
  chips: { shown: number; expected: number } | null;
  buttons: (Box & { key: string; label: string; enabled: boolean })[];
  cards: { id: number | null; rect: Box | null; tap: { x: number; y: number } | null; selected: boolean }[];
  seats: { id: string; name: string; stack: number; rect: Box }[];
  result: unknown;
  toasts: string[];
}

export async function pokerSnap(page: Page): Promise<PokerSnap> {
  return (await page.evaluate(() => window.__joke!.layout())) as unknown as PokerSnap;
}

export async function clickBox(page: Page, s: PokerSnap, b: Box): Promise<void> {
  await page.mouse.click(s.canvas.left + b.x + b.w / 2, s.canvas.top + b.y + b.h / 2);
}

async function tapCard(page: Page, s: PokerSnap, i: number): Promise<PokerSnap> {
  const c = s.cards[i];
  await page.mouse.click(s.canvas.left + c.tap!.x, s.canvas.top + c.tap!.y);
  // Answered when the card's mark flips or the prompt changes — or when the table moved on meanwhile
  // (my draw's clock ran out on a loaded box, and the tap landed on a hand that was no longer mine to draw
  // from): the caller then acts on what the table shows now.
  return waitFor('card marked', async () => {
    const x = await pokerSnap(page);
    return x.cards[i]?.selected !== c.selected || x.prompt !== s.prompt || x.seq !== s.seq ? x : null;
  });
}

/** The buttons a turn presses, first enabled wins: a patient player who checks and calls. */
export const CHECK_CALL = ['choose', 'draw', 'high', 'ready', 'k.check', 'k.call', 'check', 'call', 'k.ping', 'rebuy'];
/** A player in a hurry: all in whenever betting allows it (short games for tests that need a finished one). */
export const ALL_IN = ['choose', 'draw', 'high', 'ready', 'allIn', 'k.check', 'k.call', 'check', 'call', 'rebuy'];

/**
 * One decision by clicking: the 7-poker choice (discard the first card, open
 * the second), a one-card draw, a "high" declare, or the first enabled button
 * of `order` in betting. Returns the label pressed, or null when nothing was enabled.
 */
export async function takePokerTurn(
  page: Page,
  s: PokerSnap,
  order: readonly string[] = CHECK_CALL,
): Promise<string | null> {
  const enabled = () => new Map(s.buttons.filter((b) => b.enabled).map((b) => [b.key, b]));
  if (s.legal.includes('choose')) {
    s = await tapCard(page, s, 0);
    s = await tapCard(page, s, 1);
  } else if (s.legal.includes('draw')) {
    s = await tapCard(page, s, 0);
    if (!enabled().has('draw') && s.legal.includes('draw')) s = await tapCard(page, s, 0);
  }
  const e = enabled();
  const key = order.find((k) => e.has(k));
  if (!key) return null;
  const b = e.get(key)!;
  await clickBox(page, s, b);
  return b.label;
}
