/**
 * The set-up every browser test of the real stack shares: the built client
 * served by a fresh embedded stack, one Chromium for the file, both closed
 * after it. Registers the file's beforeAll/afterAll and hands the two to the
 * file through `ready`, so each file keeps plain `stack` / `browser` bindings.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from './browser.ts';
import { builtClient, startStack, type Stack } from './stack.ts';

/** A phone in portrait, the viewport most browser tests play in. */
export const PHONE = { width: 390, height: 844 };

type StackOptions = Omit<NonNullable<Parameters<typeof startStack>[0]>, 'clientDir'>;

export function onBrowserStack(
  opts: StackOptions,
  ready: (stack: Stack, browser: Browser) => void,
  timeoutMs = 240_000,
): void {
  let stack: Stack | undefined;
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    stack = await startStack({ ...opts, clientDir: builtClient() });
    const launched = await launchBrowser();
    close = launched.close;
    ready(stack, launched.browser);
  }, timeoutMs);
  afterAll(async () => {
    await close?.();
    await stack?.close();
  });
}
