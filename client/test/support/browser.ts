/**
 * Debian chromium driven by playwright-core with the launch flags from
 * STACK.md. Playwright itself gives every launch a fresh temporary profile
 * (it refuses a --user-data-dir argument), and we remove our temp dir after.
 */
import { chromium, type Browser } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

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
  return {
    browser,
    close: async () => {
      await browser.close().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
