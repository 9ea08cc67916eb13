/**
 * Issue 37: a gateway holding all the sockets it may (GATEWAY_MAX_SOCKETS) answers a new socket's upgrade
 * 503. The bot counts that as refused with code `capacity` — not a `socket` or `disconnected` error — and
 * connects again after a wait, as a player's client does; once a socket opens it plays on.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { games } from '@joke/engine';
import { Bot, type BotSink } from '../src/bot.ts';
import { VIEW_GATES } from '../src/frames.ts';
import type { BotSocket, BotSocketEvents } from '../src/bot-socket.ts';

const bots: Bot[] = [];
afterEach(() => {
  for (const b of bots.splice(0)) b.stop();
});

describe('a bot refused at the door', () => {
  it('counts a 503 upgrade as refused capacity and connects again later', async () => {
    const errors: string[] = [];
    const sink: BotSink = {
      matched() {},
      view() {},
      finished() {},
      acked() {},
      latency() {},
      raced() {},
      error: (kind) => void errors.push(kind),
      connected() {},
      reconnected() {},
      socket() {},
      stopping: () => false,
    };
    const sockets: { on: BotSocketEvents; socket: BotSocket & { isOpen: boolean } }[] = [];
    const bot = new Bot(
      {
        url: 'ws://127.0.0.1:1/ws',
        token: 't',
        userId: 'u1',
        game: games['one-card'],
        gameId: 'one-card',
        mode: 'classic',
        players: 4,
        think: () => 1000,
        requeue: false,
        gate: VIEW_GATES['one-card'],
        checkEvery: 1,
        socket: (on) => {
          const socket = { isOpen: false, send() {}, close() {}, terminate() {} };
          sockets.push({ on, socket });
          return socket;
        },
      },
      sink,
    );
    bots.push(bot);
    bot.start();
    expect(sockets).toHaveLength(1);
    // What lean-ws (and ws) report for a 503 answer to the upgrade, then the connection's end.
    sockets[0].on.error(new Error('Unexpected server response: 503'));
    sockets[0].on.close(1006);
    expect(errors).toEqual(['capacity']);
    // Not at once (a crowd asking again at once is the storm the refusal was for), but it does come back.
    expect(sockets).toHaveLength(1);
    await expect.poll(() => sockets.length, { timeout: 15_000, interval: 50 }).toBe(2);
    sockets[1].socket.isOpen = true;
    sockets[1].on.open();
    expect(errors).toEqual(['capacity']);
    // Any other failure to connect is still an error.
    sockets[1].socket.isOpen = false;
    sockets[1].on.error(new Error('Unexpected server response: 500'));
    expect(errors).toEqual(['capacity', 'socket']);
  });
});
