/**
 * The page's own first-visit timings, as the first-paint test, the idle test and the first-paint bench
 * read them: first contentful paint (a PerformanceObserver, buffered so an early paint is not missed) and
 * when the lobby's nickname field appeared (a MutationObserver), both in ms from navigation start.
 *
 * Failure modes: installed after `goto` it sees nothing (call `recordPaintTimings` before navigating);
 * a page that never paints or never shows the field leaves that timing null.
 */
import type { Page } from 'playwright-core';

declare global {
  interface Window {
    /** First contentful paint, ms from navigation start (set by recordPaintTimings). */
    __fcp?: number;
    /** When the nickname field appeared, ms from navigation start (set by recordPaintTimings). */
    __usable?: number;
  }
}

/** Installs the observers on every document `page` loads from now on. */
export async function recordPaintTimings(page: Page): Promise<void> {
  await page.addInitScript(() => {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') window.__fcp = e.startTime;
    }).observe({ type: 'paint', buffered: true });
    new MutationObserver((_, obs) => {
      if (!document.querySelector('[data-testid="nickname"]')) return;
      window.__usable = performance.now();
      obs.disconnect();
    }).observe(document, { childList: true, subtree: true });
  });
}

/** The timings so far (null: not yet). */
export function paintTimings(page: Page): Promise<{ fcp: number | null; usable: number | null }> {
  return page.evaluate(() => ({ fcp: window.__fcp ?? null, usable: window.__usable ?? null }));
}
