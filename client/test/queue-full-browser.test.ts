/**
 * 빠른 대전 while every table is taken (issue 37), in headless Chromium against
 * the product started as `npm start` starts it, with a deliberately tiny fleet:
 * one room worker that accepts one room (MAX_ROOMS=1). A room opened straight
 * through the bus holds that one table; the scenario (support/queue-full-scenario.ts)
 * then has two players wait, one leave and come back, and a second worker seat them.
 * Screenshots (390×844) go to test-results/screenshots/queue-full*.png.
 */
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { call, contract } from '@joke/protocol';
import { startRoomWorker } from '@joke/room-worker';
import type { Stack } from './support/stack.ts';
import { onBrowserStack } from './support/browser-stack.ts';
import { quickMatchWhileFull } from './support/queue-full-scenario.ts';

let stack: Stack;
let browser: Browser;
onBrowserStack({ maxRooms: 1 }, (s, b) => {
  stack = s;
  browser = b;
});

describe('빠른 대전 when the fleet is full (issue 37)', () => {
  it('keeps both players queued with the full-fleet wait, lets one leave, and seats them once a worker joins', async () => {
    const { platform } = stack;
    // The only table the fleet has: a room nobody joins, opened the way the lobby opens rooms.
    const held = await call(
      platform.bus,
      contract.createRoom,
      {
        v: 1,
        room: {
          roomId: 'holds-the-only-table',
          game: 'one-card',
          options: { mode: 'classic' },
          players: [
            { id: 'holder-1', name: '자리주인1', bot: false },
            { id: 'holder-2', name: '자리주인2', bot: false },
          ],
        },
      },
      10_000,
    );
    expect(held.ok).toBe(true);
    await quickMatchWhileFull({
      browser,
      url: stack.url,
      shots: 'queue-full',
      async addWorker() {
        const extra = await startRoomWorker(
          { workerId: 'worker-joins', logLevel: 'warn', botDelayMs: 60, botJitterMs: 40 },
          { bus: platform.bus, store: platform.stores.snapshots },
        );
        return () => extra.close();
      },
    });
  }, 180_000);
});
