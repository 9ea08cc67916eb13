/**
 * Debian chromium driven by playwright-core with the launch flags from
 * STACK.md. Playwright itself gives every launch a fresh temporary profile
 * (it refuses a --user-data-dir argument), and we remove our temp dir after.
 */
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** How long a page action (click, screenshot, waitFor) may wait; see launchBrowser. */
export const PAGE_TIMEOUT_MS = 90_000;

export async function launchBrowser(): Promise<{ browser: Browser; close: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'joke-chromium-'));
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--enable-unsafe-swiftshader',
    ],
  });
  // Every page of this browser waits up to PAGE_TIMEOUT_MS for an action or a screenshot (Playwright's own
  // default is 30 s). A screenshot waits for a drawn frame and a click for the page to answer; on a box
  // shared with the other test lanes a page was starved that long (CI, 2026-12-03: one screenshot and six
  // harness tests in a row ran out at 30 s while another lane's load test ran) and then went on normally.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const ctx = await newContext(options);
    ctx.setDefaultTimeout(PAGE_TIMEOUT_MS);
    return ctx;
  };
  return {
    browser,
    close: async () => {
      await browser.close().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A fresh Korean-locale context and page at this viewport; page errors are printed with their stack. */
export async function openPage(
  browser: Browser,
  viewport: { width: number; height: number },
): Promise<[BrowserContext, Page]> {
  const ctx = await browser.newContext({ viewport, deviceScaleFactor: 1, locale: 'ko-KR' });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => console.error(`[page error] ${e.stack ?? e.message}`));
  return [ctx, page];
}

/** Signs in as a guest from the client's front page and waits for the room list with the nickname shown. */
export async function signIn(page: Page, url: string, nickname: string): Promise<void> {
  await page.goto(url);
  await page.getByTestId('nickname').fill(nickname);
  await page.getByTestId('login').click();
  await page.getByTestId('room-list').waitFor();
  await page.getByTestId('me').getByText(nickname).waitFor();
}
