/**
 * The poker table tells the story (issue 16 §3, §4), read from the screen
 * model the table draws (window.__joke → story, centre, clock, chipMoves):
 * the real PokerScene over the poker engine running in the page (harness.html
 * ?game=poker), its bots playing every seat until the table pauses at the
 * moment under test. One server and one browser for the file; every wait is
 * on the hook's state, never on a duration.
 */
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { HarnessServer } from './support/harness-server.ts';
import { onHarnessBrowser } from './support/browser-stack.ts';
import { waitFor, type Box } from './support/table-driver.ts';

let server: HarnessServer;
let browser: Browser;
onHarnessBrowser((s, b) => {
  server = s;
  browser = b;
});

interface Story {
  id: string;
  name: string;
  declare: string | null;
  draws: string | null;
  boss: boolean;
  awards: string[];
  hand: string | null;
  best: number[];
}

interface Snap {
  scene: string;
  canvas: { left: number; top: number };
  frames: number;
  phase: string | null;
  showdown: boolean;
  legal: string[];
  mode: string;
  buttons: (Box & { key: string; label: string; enabled: boolean })[];
  seats: { id: string; rect: Box }[];
  layoutRects: { pot: Box; me: Box };
  potChips: Box;
  story: Story[];
  centre: { status: string; awards: string[]; round: string | null } | null;
  clock: { seconds: number; urgent: boolean; label: string } | null;
  clockShown: string | null;
  chipMoves: {
    kind: 'bet' | 'win';
    seat: string;
    amount: number;
    to: { x: number; y: number };
    animated: boolean;
    hand: number;
  }[];
  toasts: string[];
  flips: { hand: number; seat: string; order: number }[];
  handNo: number;
}

const snap = async (page: Page) => (await page.evaluate(() => window.__joke!.layout())) as unknown as Snap;

/** The poker engine's view as the page received it last (to check the screen model against). */
async function lastView(page: Page): Promise<Record<string, any>> {
  const frames = await page.evaluate(() => window.__joke!.frames());
  return (JSON.parse(frames[frames.length - 1]) as { view: Record<string, any> }).view;
}

async function openPoker(
  query: string,
  until: (s: Snap) => boolean,
  label: string,
  reducedMotion: 'reduce' | 'no-preference' = 'no-preference',
): Promise<[Page, Snap]> {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, reducedMotion });
  page.on('pageerror', (e) => console.error(`[page error] ${e.stack ?? e.message}`));
  await page.goto(`${server.base}/harness.html?game=poker&${query}`);
  const s = await waitFor(
    label,
    async () => {
      const x = await snap(page);
      return x.scene === 'poker' && x.frames > 0 && until(x) ? x : null;
    },
    120_000,
  ).catch(async (e: unknown) => {
    // A page left open keeps drawing and slows every later test.
    await page.close();
    throw e;
  });
  return [page, s];
}

describe('the poker table tells the story (harness, engine in the page)', () => {
  it('하이로우 to a showdown: every revealed seat shows its 하이/로우/스윙, every award names its half', async () => {
    const [page, s] = await openPoker(
      'mode=sevenHiLo&players=4&bots=30&autoplay=1&pause=showdown&seed=hilo-story',
      (x) => x.phase === 'handEnd' && x.showdown,
      'a 하이로우 showdown',
    );
    const v = await lastView(page);
    const shown = v.hand.showdown as { id: string; declare?: string; handName: string }[];
    expect(shown.length).toBeGreaterThanOrEqual(2);
    const word = { high: '하이', low: '로우', swing: '스윙' } as Record<string, string>;
    for (const e of shown) {
      const st = s.story.find((x) => x.id === e.id)!;
      expect(st.declare).toBe(word[e.declare!]);
      expect(st.hand).toBeTruthy();
      expect(st.best.length).toBe(e.declare === 'low' ? 0 : 5);
      // A made high hand carries its rank ("J 투페어", "A 마운틴"), so two 투페어 read apart.
      const made =
        /페어|트리플|포카드|풀하우스|스트레이트|플러시|마운틴|탑$/.test(e.handName) && !/로열/.test(e.handName);
      if (e.declare !== 'low' && made) expect(st.hand).toMatch(/(^|하이 |스윙 )([AKQJ]|10|[2-9]) /);
    }
    const awards = v.hand.awards as { to: string; side?: string; kind?: string; potIndex: number }[];
    const paid = awards.filter((a) => a.kind !== 'return');
    expect(paid.length).toBeGreaterThan(0);
    for (const a of paid) {
      const labels = s.story.find((x) => x.id === a.to)!.awards.join(' ');
      if (a.side === 'high') expect(labels).toContain('하이');
      if (a.side === 'low') expect(labels).toContain('로우');
      if (v.hand.pots.length > 1) expect(labels).toMatch(a.potIndex === 0 ? /메인/ : /사이드 \d/);
    }
    // Showdown cards flip seat by seat in the engine's showing order.
    expect(s.flips.filter((f) => f.hand === s.handNo).map((f) => [f.seat, f.order])).toEqual(
      shown.map((e, i) => [e.id, i]),
    );
    // The headline is the biggest winner, with the half they won.
    expect(s.centre!.awards[0]).toMatch(/하이|로우|스윙/);
    await page.close();
  }, 150_000);

  it('바둑이 through its draws: each seat shows its draw counts named 아침/점심/저녁', async () => {
    const [page, s] = await openPoker(
      'mode=badugi&players=4&bots=30&autoplay=1&pause=showdown&seed=badugi-story',
      (x) => x.phase === 'handEnd' && x.showdown,
      'a 바둑이 showdown',
    );
    const v = await lastView(page);
    const players = v.hand.players as { id: string; drawCounts: number[]; folded: boolean }[];
    const drew = players.filter((p) => p.drawCounts.length > 0);
    expect(drew.length).toBeGreaterThanOrEqual(2);
    for (const p of players) {
      const st = s.story.find((x) => x.id === p.id)!;
      if (!p.drawCounts.length) expect(st.draws).toBeNull();
      else expect(st.draws).toBe(p.drawCounts.map((n, i) => `${['아침', '점심', '저녁'][i]} ${n}`).join(' · '));
    }
    expect(players.filter((p) => !p.folded).every((p) => p.drawCounts.length === 3)).toBe(true);
    await page.close();
  }, 150_000);

  it('홀덤: chips fly from each bettor to the pot and from the pot to the winner (tween targets from the hook)', async () => {
    const [page, s] = await openPoker(
      'mode=holdem&players=4&bots=30&autoplay=1&pause=handEnd&seed=holdem-chips',
      (x) => x.phase === 'handEnd',
      'a hold’em hand end',
    );
    const hand = Math.max(...s.chipMoves.map((m) => m.hand));
    const moves = s.chipMoves.filter((m) => m.hand === hand);
    const centre = (r: Box) => ({ x: r.x + r.w / 2, y: r.y + r.h / 2 });
    const rectOf = (id: string) => s.seats.find((x) => x.id === id)?.rect ?? s.layoutRects.me;
    const bets = moves.filter((m) => m.kind === 'bet');
    // The blinds at least: two seats put chips in.
    expect(new Set(bets.map((m) => m.seat)).size).toBeGreaterThanOrEqual(2);
    for (const m of bets) expect(m.to).toEqual(centre(s.potChips));
    const v = await lastView(page);
    const awards = (v.hand.awards as { to: string; amount: number }[]).filter((a) => a.amount > 0);
    const wins = moves.filter((m) => m.kind === 'win');
    expect(wins.map((m) => [m.seat, m.amount])).toEqual(awards.map((a) => [a.to, a.amount]));
    for (const m of wins) expect(m.to).toEqual(centre(rectOf(m.seat)));
    expect(moves.every((m) => m.animated)).toBe(true);
    await page.close();
    // prefers-reduced-motion: the same moves are recorded, and none of them is animated.
    const [still, r] = await openPoker(
      'mode=holdem&players=4&bots=30&autoplay=1&pause=handEnd&seed=holdem-chips',
      (x) => x.phase === 'handEnd',
      'a hold’em hand end with motion reduced',
      'reduce',
    );
    const quiet = r.chipMoves.filter((m) => m.hand === hand);
    expect(quiet.map((m) => [m.kind, m.seat, m.amount])).toEqual(moves.map((m) => [m.kind, m.seat, m.amount]));
    expect(quiet.some((m) => m.animated)).toBe(false);
    await still.close();
  }, 240_000);

  // The status-line pill ("교환 20초"). A snapshot can fall between a new frame and the next render,
  // when the betting ring ("20") of the frame before is still up: wait for the pill, then check its word.
  const PILL = /^\S+ \d+초$/;
  it('a countdown with seconds in the 7포커 choice, a draw, a declaration and the rebuy prompt; the clock that decides says so', async () => {
    const [choice, c] = await openPoker(
      'mode=sevenPoker&players=4&bots=0&seed=clock',
      (x) => x.phase === 'choice' && PILL.test(x.clockShown ?? ''),
      'the 7포커 choice clock',
    );
    expect(c.clockShown).toMatch(/^선택 \d+초$/);
    expect(c.clock!.seconds).toBeGreaterThan(5);
    await choice.close();
    for (const [mode, phase, word] of [
      ['badugi', 'draw', '교환'],
      ['sevenHiLo', 'declare', '선언'],
    ] as const) {
      const [page, d] = await openPoker(
        `mode=${mode}&players=3&bots=20&autoplay=1&pause=${phase}&seed=clock`,
        (x) => x.phase === phase && PILL.test(x.clockShown ?? ''),
        `the ${phase} clock`,
      );
      expect(d.clockShown).toMatch(new RegExp(`^${word} \\d+초$`));
      await page.close();
    }
    // The rebuy prompt on a running table (bots > 0: its clock runs out like the server's would).
    const [rebuy, r] = await openPoker(
      'mode=holdem&players=3&bots=200&seed=clock&prepare=rebuy&o.rebuy=unlimited',
      (x) => x.legal.includes('rebuy') && x.clockShown !== null,
      'the rebuy clock',
    );
    expect(r.clockShown).toMatch(/^리바이 \d+초$/);
    expect(r.clock!.seconds).toBeLessThanOrEqual(15);
    expect(r.buttons.map((b) => b.key)).toContain('rebuy');
    // The last five seconds are urgent, and when the clock declines for me the table says so.
    const urgent = await waitFor(
      'the urgent rebuy clock',
      async () => {
        const x = await snap(rebuy);
        return x.legal.includes('rebuy') && x.clock?.urgent && /^리바이 [1-5]초$/.test(x.clockShown ?? '') ? x : null;
      },
      60_000,
      40,
    );
    expect(urgent.clock!.seconds).toBeLessThanOrEqual(5);
    await waitFor(
      'the clock-decided notice',
      async () => ((await snap(rebuy)).toasts.includes('시간이 다 되어 리바이하지 않았어요') ? true : null),
      60_000,
    );
    await rebuy.close();
  }, 240_000);

  it('a tapped greyed button says why in Korean', async () => {
    const [page, s] = await openPoker(
      'mode=holdem&players=4&bots=0&seed=why',
      (x) => x.phase === 'betting' && x.buttons.some((b) => !b.enabled && b.key !== 'amount'),
      'a betting bar with a greyed button',
    );
    const b = s.buttons.find((x) => !x.enabled && x.key !== 'amount')!;
    await page.mouse.click(s.canvas.left + b.x + b.w / 2, s.canvas.top + b.y + b.h / 2);
    const after = await waitFor('the refusal toast', async () => {
      const x = await snap(page);
      const t = x.toasts[x.toasts.length - 1] ?? '';
      return /차례예요|없어요|금액이에요/.test(t) && !s.toasts.includes(t) ? t : null;
    });
    console.log(`refused ${b.key}: ${after}`);
    await page.close();
  }, 150_000);
});
