/**
 * The operator page in Chromium (playwright-core, Debian's /usr/bin/chromium as in client/test): it asks
 * for the token, lists the seeded colluding pair from operator.fairplay with evidence hands linked to
 * their 복기, shows the refusal for a wrong token, and raises no Content-Security-Policy violation.
 * (Playwright gives every launch a fresh temporary profile; it refuses a --user-data-dir argument.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { chromium, type Browser } from 'playwright-core';
import { InProcessBus } from '@joke/bus';
import { subjects } from '@joke/protocol';
import { Rng } from '@joke/engine/core/rng';
import { playGame } from '@joke/engine/fairplay/world';
import { lobbyConfigFromEnv } from '../src/config.ts';
import { startLobbyServer, type LobbyServer } from '../src/server.ts';

const TOKEN = 'browser-operator-token-0123456789';
const bus = new InProcessBus();
let server: LobbyServer;
let browser: Browser;

beforeAll(async () => {
  server = await startLobbyServer(
    lobbyConfigFromEnv({
      HOST: '127.0.0.1',
      PORT: '0',
      OPS_PORT: '0',
      JWT_SECRET: 's'.repeat(32),
      OPERATOR_TOKEN: TOKEN,
    }),
    { bus, logger: pino({ level: 'silent' }) },
  );
  const rng = Rng.fromSeed('lobby-fairplay');
  const honest = Array.from({ length: 8 }, (_, i) => `h${i + 1}`);
  const partners = new Map([
    ['c1', 'c2'],
    ['c2', 'c1'],
  ]);
  for (let g = 0; g < 14; g++) {
    const pool = [...honest];
    const table = ['c1', 'c2'];
    while (table.length < 6) table.push(pool.splice(rng.int(pool.length), 1)[0]);
    const record = playGame(`lobby-fp:${g}`, table, partners, rng);
    const msg = {
      v: 1,
      roomId: `fp-game-${g}`,
      game: 'poker',
      mode: 'holdem',
      players: table.map((id) => ({ id, name: id === 'c1' ? '<b>짝패</b>' : `이름${id}`, bot: false })),
      record,
      result: record.result,
      finishedAt: record.startedAt + 60_000 * (g + 1),
    };
    bus.publish(subjects.roomFinished, JSON.stringify(msg));
  }
  await new Promise((r) => setImmediate(r));
  await server.lobby.idle();
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
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
    ],
  });
}, 600_000);

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await server?.close();
  await bus.close();
});

describe('operator page in Chromium', () => {
  it('lists the flagged pair with links to the replays after the token is given', async () => {
    const ctx = await browser.newContext({ locale: 'ko-KR' });
    ctx.setDefaultTimeout(90_000);
    const page = await ctx.newPage();
    const violations: string[] = [];
    // As text: this package's TypeScript has no DOM types.
    await page.addInitScript({
      content:
        "document.addEventListener('securitypolicyviolation', (e) => console.error('CSP ' + e.violatedDirective));",
    });
    page.on('console', (m) => {
      if (m.text().startsWith('CSP ')) violations.push(m.text());
    });
    try {
      await page.goto(`${server.url}/operator`);
      await page.getByLabel('운영자 토큰').fill('a-wrong-token-a-wrong-token');
      await page.getByRole('button', { name: '불러오기' }).click();
      await page.locator('#status.err').waitFor();
      expect(await page.locator('#status').textContent()).toBe('운영자 인증이 필요해요');
      expect(await page.locator('#pairs tbody tr').count()).toBe(0);

      await page.getByLabel('운영자 토큰').fill(TOKEN);
      await page.getByRole('button', { name: '불러오기' }).click();
      const row = page.locator('#pairs tbody tr[data-pair="c1|c2"]');
      await row.waitFor();
      // A nickname is shown as text, never as markup.
      expect(await row.locator('td').first().textContent()).toBe('<b>짝패</b> (c1)');
      expect(await row.locator('b').count()).toBe(0);
      const links = row.locator('a');
      expect(await links.count()).toBeGreaterThan(0);
      expect(await links.first().getAttribute('href')).toMatch(/^\/\?replay=fp-game-\d+$/);
      expect(await page.locator('#status').textContent()).toMatch(/^의심 짝 \d+개/);
      expect(violations).toEqual([]);
    } finally {
      await ctx.close();
    }
  });
});
