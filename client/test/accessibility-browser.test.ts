/**
 * Spec §9 접근성 in Chromium (poker.md §9, one-card.md §9): the 4-colour deck
 * switched on in the table's settings sheet recolours the cards already on the
 * table (pixel sampling of a ◆/♣ card's corner) and persists; large text at
 * 360×640 leaves no label off the screen or on another, on every table and in
 * the DOM lobby; navigator.vibrate (stubbed before the page loads) is called
 * when the turn becomes mine and never with the setting off. Screenshots of
 * every table (원카드 classic and 색깔 카드, 포커 홀덤/7포커/인디언/바둑이, 훌라)
 * at 390×844 DPR 3 with both options on land in
 * test-results/screenshots/a11y-<table>.png for a person to look at.
 * Tables run from engines in the page (harness); every wait is on the hook.
 */
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Settings } from '../src/settings.ts';
import type { ShownLabel } from '../src/table-kit/labels.ts';
import type { HarnessServer } from './support/harness-server.ts';
import { onHarnessBrowser, SHOTS } from './support/browser-stack.ts';
import { labelProblems } from './support/label-check.ts';
import { waitFor, type Box } from './support/table-driver.ts';

const SMALL = { width: 360, height: 640 };
const SHOT = { width: 390, height: 844 };

const TABLES = {
  onecard: { scene: 'table', query: 'mode=classic&players=6&bots=0&seed=a11y&warmup=6' },
  poker: { scene: 'poker', query: 'game=poker&mode=holdem&players=6&bots=0&seed=a11y' },
  hula: { scene: 'hula', query: 'game=hula&players=5&bots=0&seed=a11y' },
} as const;
type Table = keyof typeof TABLES;
/** bots=0 freezes a harness table; the vibration test needs the bots to play up to my turn. */
const LIVE_ONE_CARD = 'mode=classic&players=3&bots=30&seed=a11y-buzz';

let server: HarnessServer;
let browser: Browser;
onHarnessBrowser((s, b) => {
  server = s;
  browser = b;
});

type Hook = Record<string, any> & { labels: ShownLabel[]; width: number; height: number };

interface OpenOpts {
  viewport: { width: number; height: number };
  dpr?: number;
  settings?: Partial<Settings>;
  /** Record navigator.vibrate calls in window.__buzzes instead of buzzing. */
  stubVibrate?: boolean;
}

async function newPage(o: OpenOpts): Promise<Page> {
  const page = await browser.newPage({ viewport: o.viewport, deviceScaleFactor: o.dpr ?? 2 });
  page.on('pageerror', (e) => console.error(`[page error] ${e.stack ?? e.message}`));
  await page.addInitScript(
    ({ settings, stub }) => {
      if (settings) localStorage.setItem('joke.settings', JSON.stringify(settings));
      if (stub) {
        const buzzes: unknown[] = [];
        (window as unknown as { __buzzes: unknown[] }).__buzzes = buzzes;
        Object.defineProperty(Navigator.prototype, 'vibrate', {
          configurable: true,
          value: (pattern: unknown) => buzzes.push(pattern) > 0,
        });
      }
    },
    { settings: o.settings ?? null, stub: !!o.stubVibrate },
  );
  return page;
}

const hookOf = async (page: Page) =>
  (await page.evaluate(() => ({ ...window.__joke!.layout(), labels: window.__joke!.labels() }))) as Hook;

async function openTable(
  table: Table,
  o: OpenOpts,
  until?: (h: Hook) => boolean,
  query: string = TABLES[table].query,
): Promise<[Page, Hook]> {
  const t = TABLES[table];
  const page = await newPage(o);
  await page.goto(`${server.base}/harness.html?${query}`);
  const hook = await waitFor(
    `${table} drawn`,
    async () => {
      const s = await hookOf(page);
      return s.scene === t.scene && s.frames > 0 && s.width === o.viewport.width && (!until || until(s)) ? s : null;
    },
    120_000,
  ).catch(async (e: unknown) => {
    await page.close();
    throw e;
  });
  return [page, hook];
}

/** Pixels of each ink in a page rectangle, read from a screenshot decoded in the page. */
async function inks(page: Page, clip: Box): Promise<{ blue: number; green: number }> {
  const png = await page.screenshot({ clip: { x: clip.x, y: clip.y, width: clip.w, height: clip.h } });
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const g = c.getContext('2d')!;
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    let blue = 0;
    let green = 0;
    for (let i = 0; i < d.length; i += 4) {
      const [r, gr, b] = [d[i], d[i + 1], d[i + 2]];
      if (b > r + 90 && b > gr + 40) blue++;
      // The felt is green too, but dark: the 4-colour ♣ ink is brighter than it.
      else if (gr > r + 60 && gr > b + 40 && gr > 110) green++;
    }
    return { blue, green };
  }, png.toString('base64'));
}

describe('poker §9 접근성: 4색 덱', () => {
  it('the settings sheet switches an open table to ♠ black ◆ blue ♥ red ♣ green, and it persists', async () => {
    const [page, hook] = await openTable('onecard', { viewport: SHOT });
    try {
      const card = (hook.cards as { label: string; visible: Box }[]).find((c) => /[◆♦♣]/.test(c.label));
      expect(card, `a ◆ or ♣ card in ${hook.cards.map((c: { label: string }) => c.label).join(' ')}`).toBeTruthy();
      const diamond = /[◆♦]/.test(card!.label);
      // The corner index of a fanned card: the top of its uncovered strip.
      const v = card!.visible;
      const corner = { x: hook.canvas.left + v.x, y: hook.canvas.top + v.y, w: Math.min(v.w, 40), h: 70 };
      const ink = (s: { blue: number; green: number }) => (diamond ? s.blue : s.green);
      const before = ink(await inks(page, corner));

      const settings = hook.buttons.settings as Box;
      await page.mouse.click(
        hook.canvas.left + settings.x + settings.w / 2,
        hook.canvas.top + settings.y + settings.h / 2,
      );
      await page.click('[data-testid=setting-four-color]');
      await page.click('[data-testid=settings-close]');
      const after = await waitFor(
        `${card!.label} redrawn in the 4-colour ink`,
        async () => {
          const n = ink(await inks(page, corner));
          return n > before + 40 ? n : null;
        },
        60_000,
      );
      expect(after).toBeGreaterThan(before + 40);
      const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('joke.settings') ?? '{}'));
      expect(stored.fourColorDeck).toBe(true);
    } finally {
      await page.close();
    }
  });
});

describe('poker §9 접근성: 큰 글씨 모드 at 360×640', () => {
  // The fewest and the most seats each table takes (훌라 seats at most 5).
  const SEATS: Record<Table, number[]> = { onecard: [2, 6, 10], poker: [2, 6, 10], hula: [2, 5] };
  for (const table of Object.keys(TABLES) as Table[])
    it(`${table}: every label on the screen, none on another, at ${SEATS[table].join('/')} seats`, async () => {
      for (const n of SEATS[table]) {
        const query = TABLES[table].query.replace(/players=\d+/, `players=${n}`);
        const [page, hook] = await openTable(
          table,
          { viewport: SMALL, settings: { largeText: true } },
          undefined,
          query,
        );
        try {
          expect(labelProblems(hook.labels, hook.width, hook.height), `${n} seats`).toEqual([]);
        } finally {
          await page.close();
        }
      }
    });
  it('the DOM lobby grows its text and keeps it inside 360 px', async () => {
    const measure = async (largeText: boolean) => {
      const page = await newPage({ viewport: SMALL, settings: { largeText } });
      try {
        await page.goto(`${server.base}/`);
        await page.waitForSelector('[data-testid=login]');
        return await page.evaluate(() => {
          const out: string[] = [];
          for (const e of document.querySelectorAll<HTMLElement>('.lobby *')) {
            if (!e.childElementCount && !e.textContent?.trim()) continue;
            const r = e.getBoundingClientRect();
            if (r.width === 0) continue;
            if (r.left < -0.5 || r.right > innerWidth + 0.5)
              out.push(`${e.tagName} "${e.textContent}" ${r.left}–${r.right}`);
            if (e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible')
              out.push(`${e.tagName} "${e.textContent}" clipped`);
          }
          const brand = document.querySelector('[data-testid=login]')!.getBoundingClientRect();
          return { problems: out, loginHeight: brand.height, pageWidth: document.documentElement.scrollWidth };
        });
      } finally {
        await page.close();
      }
    };
    const normal = await measure(false);
    const large = await measure(true);
    expect(large.problems).toEqual([]);
    expect(large.pageWidth).toBeLessThanOrEqual(SMALL.width);
    expect(large.loginHeight).toBeGreaterThan(normal.loginHeight * 1.1);
  });
});

describe('poker §9 초보자 도움: 내 차례에 진동', () => {
  const myTurn = (h: Hook) => h.myTurn === true;

  it('navigator.vibrate is called with a short pattern when the turn becomes mine', async () => {
    const [page] = await openTable('onecard', { viewport: SHOT, stubVibrate: true }, myTurn, LIVE_ONE_CARD);
    try {
      const buzzes = (await page.evaluate(() => (window as unknown as { __buzzes: unknown[] }).__buzzes)) as number[][];
      expect(buzzes.length).toBe(1);
      expect(buzzes[0].reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(300);
    } finally {
      await page.close();
    }
  });

  it('stays still with the setting off', async () => {
    const [page] = await openTable(
      'onecard',
      { viewport: SHOT, stubVibrate: true, settings: { vibrate: false } },
      myTurn,
      LIVE_ONE_CARD,
    );
    try {
      expect(await page.evaluate(() => (window as unknown as { __buzzes: unknown[] }).__buzzes)).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

/** Every table a player can sit at (issue 41): both 원카드 modes, four 포커 modes, 훌라. */
const SHOT_TABLES: [string, Table, string][] = [
  ['onecard', 'onecard', TABLES.onecard.query],
  ['onecard-uno', 'onecard', 'mode=uno-style&players=6&bots=0&seed=a11y&warmup=6'],
  ['poker', 'poker', TABLES.poker.query],
  ['poker-seven', 'poker', 'game=poker&mode=sevenPoker&players=6&bots=0&seed=a11y'],
  // 인디언 after two hands were played by the bots, so the used-card panel has cards in it.
  ['poker-indian', 'poker', 'game=poker&mode=indian&players=4&bots=15&autoplay=1&pause=indianUsed&seed=a11y'],
  ['poker-badugi', 'poker', 'game=poker&mode=badugi&players=6&bots=0&seed=a11y'],
  ['hula', 'hula', TABLES.hula.query],
];

const usedBoxes = (h: Hook) =>
  ((h.used ?? []) as { boxes: string[] }[]).reduce((n, c) => n + c.boxes.filter((b) => b === 'used').length, 0);

describe('screenshots with the 4-colour deck and large text (390×844, DPR 3)', () => {
  for (const [name, table, query] of SHOT_TABLES)
    it(name, async () => {
      const indian = name === 'poker-indian';
      const [page, hook] = await openTable(
        table,
        { viewport: SHOT, dpr: 3, settings: { fourColorDeck: true, largeText: true } },
        // The harness pauses the bots in a hand being bet once two hands' cards are on the used pile.
        indian ? (h) => h.phase === 'betting' && usedBoxes(h) >= 8 : undefined,
        query,
      );
      try {
        await page.screenshot({ path: `${SHOTS}a11y-${name}.png` });
        expect(labelProblems(hook.labels, hook.width, hook.height)).toEqual([]);
      } finally {
        await page.close();
      }
    });
});
