/**
 * The set-up browser test files share, in two kinds: the built client served by a fresh embedded stack
 * (`onBrowserStack`), or by the harness server, tables from engines in the page (`onHarnessBrowser`);
 * either with one Chromium for the file, both closed after it. Each registers the file's
 * beforeAll/afterAll and hands the two to the file through `ready`, so each file keeps plain bindings.
 * Failure modes: a start that fails fails the file's beforeAll; whatever did start is closed after it.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from './browser.ts';
import { startHarnessServer, type HarnessServer } from './harness-server.ts';
import { builtClient, startStack, type Stack } from './stack.ts';

/** Where browser tests write their screenshots (made by the set-ups here). */
export const SHOTS = fileURLToPath(new URL('../../../test-results/screenshots/', import.meta.url));

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

/** The harness server (tables from engines in the page) and one Chromium for the file. */
export function onHarnessBrowser(ready: (server: HarnessServer, browser: Browser) => void): void {
  let server: HarnessServer | undefined;
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    server = await startHarnessServer();
    const launched = await launchBrowser();
    close = launched.close;
    ready(server, launched.browser);
  });
  afterAll(async () => {
    await close?.();
    await server?.close();
  });
}
