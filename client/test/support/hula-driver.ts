/**
 * Plays the 훌라 table like a person: reads where things are drawn
 * (window.__joke.layout(), canvas pixels) and clicks there. It never sends
 * an action any other way. One step per call; returns what it did.
 */
import type { Page } from 'playwright-core';
import { clickAt, waitFor, type Box } from './table-driver.ts';

export interface HulaButton extends Box {
  enabled: boolean;
  visible: boolean;
  label: string;
}

export interface HulaSnapshot {
  scene: string;
  canvas: { left: number; top: number };
  width: number;
  height: number;
  orientation: 'portrait' | 'landscape';
  frames: number;
  seq: number | null;
  role: 'player' | 'spectator' | null;
  phase: string | null;
  finished: boolean;
  myTurn: boolean;
  busy: boolean;
  status: string;
  me: string | null;
  cards: { id: string; label: string; selected: boolean; visible: Box }[];
  melds: { id: number; owner: string; rect: Box; cards: string[] }[];
  opponents: { id: string; name: string; count: number; rect: Box; current: boolean }[];
  stock: Box | null;
  buttons: Record<string, HulaButton>;
  result: {
    title: string;
    summary: string;
    final: boolean;
    rows: { rank: number; name: string; me: boolean; bak: string; delta: string }[];
    buttons: Record<string, Box>;
  } | null;
  toasts: string[];
}

export async function hulaSnapshot(page: Page): Promise<HulaSnapshot> {
  return (await page.evaluate(() => window.__joke!.layout())) as unknown as HulaSnapshot;
}

export async function clickRect(page: Page, s: HulaSnapshot, b: Box): Promise<void> {
  await clickAt(page as never, s as never, b.x + b.w / 2, b.y + b.h / 2);
}

export interface HulaLog {
  draws: number;
  melds: number;
  discards: number;
  thankYous: number;
  passes: number;
  readies: number;
  stops: number;
}

const rankOf = (label: string) => label.slice(1);

export async function select(page: Page, s: HulaSnapshot, ids: string[]): Promise<HulaSnapshot | null> {
  for (const c of s.cards) if (c.selected !== ids.includes(c.id)) await clickRect(page, s, c.visible);
  return waitFor(
    'selection drawn',
    async () => {
      const n = await hulaSnapshot(page);
      return n.cards.every((c) => c.selected === ids.includes(c.id)) ? n : null;
    },
    3000,
  ).catch(() => null);
}

/** One decision: 땡큐/넘기기 when asked, draw from the stock, register what it can, discard. */
export async function hulaStep(page: Page, s: HulaSnapshot, log: HulaLog): Promise<string> {
  const b = s.buttons;
  const on = (k: string) => b[k]?.visible && b[k].enabled;
  if (s.result && !s.result.final && s.result.buttons.ready) {
    await clickRect(page, s, s.result.buttons.ready);
    log.readies++;
    return 'ready';
  }
  if (on('thankYou')) {
    await clickRect(page, s, b.thankYou);
    log.thankYous++;
    return 'thankYou';
  }
  if (on('pass')) {
    await clickRect(page, s, b.pass);
    log.passes++;
    return 'pass';
  }
  if (!s.myTurn || s.busy) return 'wait';
  if (on('stop')) {
    await clickRect(page, s, b.stop);
    log.stops++;
    return 'stop';
  }
  if (on('special')) {
    await clickRect(page, s, b.special);
    return 'special';
  }
  if (on('draw') && s.stock) {
    // Tap the stock pile itself (the 뽑기 button does the same).
    await clickRect(page, s, s.stock);
    log.draws++;
    return 'draw';
  }
  if (b.discard?.visible) {
    // Register three of a kind, or a lone 7, when the hand has one.
    const groups = new Map<string, string[]>();
    for (const c of s.cards)
      if (c.label !== '조커') groups.set(rankOf(c.label), [...(groups.get(rankOf(c.label)) ?? []), c.id]);
    const set = [...groups.values()].find((g) => g.length >= 3)?.slice(0, 3);
    const seven = groups.get('7')?.slice(0, 1);
    const meld = set ?? seven;
    if (meld && s.cards.length > meld.length) {
      const sel = await select(page, s, meld);
      if (sel?.buttons.meld.enabled) {
        await clickRect(page, sel, sel.buttons.meld);
        log.melds++;
        return `meld ${meld.join(',')}`;
      }
    }
    const card = s.cards.find((c) => c.label !== '조커') ?? s.cards[0];
    const sel = await select(page, s, [card.id]);
    if (!sel?.buttons.discard.enabled) return 'discard not ready';
    await clickRect(page, sel, sel.buttons.discard);
    log.discards++;
    return `discard ${card.label}`;
  }
  return 'nothing';
}
