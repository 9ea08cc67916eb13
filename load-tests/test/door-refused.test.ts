/**
 * Issue 37, a bot refused for load: a gateway holding all the sockets it may (GATEWAY_MAX_SOCKETS) answers
 * a new socket's upgrade 503; the bot counts that as refused with code `capacity` — not a `socket` or
 * `disconnected` error — and connects again after a wait, as a player's client does. A quick match refused
 * `capacity` (the matchmaker answered too late) is asked for again after a wait, unless the table came
 * meanwhile: the late matchmaker may have seated the bot after all.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '@joke/protocol';
import { games } from '@joke/engine';
import { Bot, type BotSink } from '../src/bot.ts';
import { VIEW_GATES } from '../src/frames.ts';
import type { BotSocket, BotSocketEvents } from '../src/bot-socket.ts';

const bots: Bot[] = [];
afterEach(() => {
  for (const b of bots.splice(0)) b.stop();
});

function harness() {
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
  return { bot, errors, sockets };
}

/** The bot's first socket opened: what it sends, and a way to hand it server messages. */
function opened({ on, socket }: ReturnType<typeof harness>['sockets'][number]) {
  const sent: { t: string }[] = [];
  socket.isOpen = true;
  socket.send = (text: string) => void sent.push(JSON.parse(text) as { t: string });
  on.open();
  const message = (m: object) => on.message(Buffer.from(JSON.stringify({ v: PROTOCOL_VERSION, ...m })));
  return { sent, message };
}

describe('a bot refused for load', () => {
  it('counts a 503 upgrade as refused capacity and connects again later', async () => {
    const { errors, sockets } = harness();
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

  it('does not queue again for a second table when the refused quick match seated it after all', () => {
    const { bot, errors, sockets } = harness();
    const { sent, message } = opened(sockets[0]);
    message({ t: 'welcome', userId: 'u1', name: 'u1', serverTime: 0 });
    expect(sent.filter((m) => m.t === 'queue')).toHaveLength(1);
    message({ t: 'error', code: 'queueRejected', message: '잠시 후 다시', refusal: 'capacity' });
    expect(errors).toEqual(['capacity']);
    const timer = (bot as unknown as { requeueTimer: { armed: boolean; fire(): void } }).requeueTimer;
    expect(timer.armed).toBe(true);
    message({ t: 'matched', roomId: 'room-1', game: 'one-card', mode: 'classic' });
    expect(timer.armed).toBe(false);
    // Even a wait already under way when the table came asks for nothing.
    timer.fire();
    expect(sent.filter((m) => m.t === 'queue')).toHaveLength(1);
  });

  it('a finished bot that does not queue again stays done across a reconnect', () => {
    const { bot, sockets } = harness();
    const { sent, message } = opened(sockets[0]);
    message({ t: 'welcome', userId: 'u1', name: 'u1', serverTime: 0 });
    message({ t: 'matched', roomId: 'room-1', game: 'one-card', mode: 'classic' });
    // Its game ended (requeue off: it keeps its table and is done), then a socket closed for silence came back.
    (bot as unknown as { done: boolean }).done = true;
    message({ t: 'welcome', userId: 'u1', name: 'u1', serverTime: 0 });
    expect(sent.filter((m) => m.t === 'queue')).toHaveLength(1);
  });
});
