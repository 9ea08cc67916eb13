/**
 * The client runs under the Content-Security-Policy the platform sends with
 * every page (services/web headers.ts, issue 36): in Chromium, the front page
 * loads its module scripts, fonts and Phaser (WebGL and Canvas), signs in over
 * /trpc, opens its WebSocket to the configured gateway, and the browser
 * reports not one policy violation.
 */
import { describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { openPage, signIn } from './support/browser.ts';
import { onBrowserStack } from './support/browser-stack.ts';
import type { Stack } from './support/stack.ts';

let stack: Stack;
let browser: Browser;
onBrowserStack({}, (s, b) => {
  stack = s;
  browser = b;
});

describe('client under its Content-Security-Policy', () => {
  for (const renderer of ['webgl', 'canvas'])
    it(`${renderer}: loads, signs in and opens its gateway socket without one violation`, async () => {
      const [ctx, page] = await openPage(browser, { width: 1280, height: 800 });
      try {
        const violations: string[] = [];
        page.on('console', (m) => {
          if (/^Refused to load \(CSP/.test(m.text()) || /Refused to connect/.test(m.text())) violations.push(m.text());
        });
        await page.addInitScript(() => {
          document.addEventListener('securitypolicyviolation', (e) => {
            // zod 4 probes once whether it may compile validators with `Function('')` and, refused, validates
            // without (its jitless path): an expected refusal, not a broken feature.
            if (e.blockedURI === 'eval' && /\/assets\/vendor-[^/]*\.js$/.test(e.sourceFile)) return;
            console.error(`Refused to load (CSP ${e.violatedDirective}): ${e.blockedURI} from ${e.sourceFile}`);
          });
        });
        const url = `${stack.httpUrl}/${renderer === 'canvas' ? '?renderer=canvas' : ''}`;
        const res = await page.goto(url);
        expect(res!.headers()['content-security-policy']).toContain("script-src 'self'");
        await signIn(page, url, '정책검사');
        await page.getByTestId('room-list').waitFor();
        // The page may open its configured gateway (as the table and quick match do)…
        const open = (target: string) =>
          page.evaluate(
            (u) =>
              new Promise<string>((resolve) => {
                try {
                  const ws = new WebSocket(u);
                  ws.onopen = () => {
                    ws.close();
                    resolve('open');
                  };
                  ws.onerror = () => resolve('error');
                } catch {
                  resolve('blocked');
                }
              }),
            target,
          );
        expect(await open(stack.gatewayUrl)).toBe('open');
        expect(violations).toEqual([]);
        // …and nothing else: a socket to another origin is refused by the browser, and reported.
        expect(await open('ws://127.0.0.1:9/ws')).not.toBe('open');
        await expect.poll(() => violations.join('\n'), { timeout: 30_000 }).toMatch(/connect-src/);
      } finally {
        await ctx.close();
      }
    });
});
