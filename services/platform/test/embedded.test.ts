/**
 * `npm start` composition, end to end in one process: a real WebSocket client
 * signs in at the uWebSockets.js gateway, joins a one-card table created
 * through the matchmaker, plays it against two worker-driven bots to the end,
 * and every acknowledged action is in the published, verifiable record.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { games, Rng, verifyRecord, type GameRecord } from '@joke/engine';
import { FixedViewMembers, PROTOCOL_REVISION, subjects, wireText } from '@joke/protocol';
import { signPlayerToken } from '@joke/protocol/auth';
import { startPlatform, type Platform } from '../src/index.ts';
import { createRoom } from './support/stack-room.ts';

let p: Platform;
beforeAll(async () => {
  p = await startPlatform({ port: 0, gatewayPort: 0, opsPort: 0, logLevel: 'silent', botDelayMs: 20, botJitterMs: 0 });
});
afterAll(() => p?.close());

describe('embedded platform', () => {
  it('serves the probes and mounted handlers on the public server, /metrics on the ops server only', async () => {
    p.mountHttp('/api', (_req, res) => void res.end('mounted'));
    expect(await (await fetch(`${p.httpUrl}/healthz`)).text()).toBe('ok\n');
    expect((await fetch(`${p.httpUrl}/readyz`)).status).toBe(200);
    // Metrics only on the ops port: a LAN or the internet reaching the public port never reads them.
    expect((await fetch(`${p.httpUrl}/metrics`)).status).toBe(404);
    const metrics = await (await fetch(`${p.opsUrl}/metrics`)).text();
    for (const name of [
      'joke_worker_rooms',
      'joke_matchmaker_live_workers',
      'joke_gateway_sockets',
      'process_cpu_user_seconds_total',
    ])
      expect(metrics).toContain(name);
    expect(await (await fetch(`${p.httpUrl}/api/x`)).text()).toBe('mounted');
    expect(p.gatewayUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/ws$/);
  });

  // A whole one-card game's length is the deal's luck (bot against bot its p99 is ≈ 300 actions, each at a
  // person's 80 ms pace plus the bots' turns): two files at a time on a loaded box took it past 30 s.
  it('plays a one-card table over the WebSocket gateway to the end; acked actions are all in the record', async () => {
    const game = games['one-card'];
    const finished: any[] = [];
    p.bus.subscribe(subjects.roomFinished, (m) => finished.push(JSON.parse(wireText(m.data))));
    const roomId = 'embedded1';
    const created = await createRoom(
      p.bus,
      {
        roomId,
        game: 'one-card',
        options: { mode: 'classic' },
        players: [
          { id: 'u1', name: '민수', bot: false },
          { id: 'b1', name: '봇1', bot: true },
          { id: 'b2', name: '봇2', bot: true },
        ],
      },
      3000,
    );
    expect(created).toMatchObject({ ok: true, workerId: 'worker-embedded' });

    const ws = new WebSocket(p.gatewayUrl);
    await new Promise((r, j) => ws.once('open', r).once('error', j));
    const rng = Rng.fromSeed('client');
    const acked = new Map<string, number>();
    let latest: any = null;
    let pending: string | null = null;
    let n = 0;
    let lastSeq = -1;
    // The game's fixed view members come in the join's reply (view `fixed`) and are kept, as a client does.
    const fixed = new FixedViewMembers();
    const done = new Promise<any>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('game did not finish')), 140_000);
      const maybeAct = () => {
        if (pending || !latest || latest.result) return;
        const action = game.bot(latest.view, rng);
        if (!action) return;
        pending = `a${++n}`;
        const id = pending;
        // A person's pace: the gateway rate-limits clients that send faster than 20 messages/s.
        setTimeout(() => ws.send(JSON.stringify({ v: 1, t: 'action', roomId, actionId: id, action })), 80);
      };
      ws.on('message', (raw) => {
        const msg = JSON.parse(String(raw));
        if (msg.t === 'view') {
          expect(fixed.complete(msg), `fixed members of ${roomId}#${msg.seq}`).toBe(true);
          expect(msg.seq).toBeGreaterThan(lastSeq);
          lastSeq = msg.seq;
          latest = msg;
          if (msg.result) {
            clearTimeout(timer);
            resolve(msg);
          }
          maybeAct();
        } else if (msg.t === 'ack' || msg.t === 'rejected') {
          if (msg.t === 'ack') acked.set(msg.actionId, msg.seq);
          if (msg.actionId === pending) pending = null;
          maybeAct();
        } else if (msg.t === 'error') reject(new Error(`gateway error ${msg.code}: ${msg.message}`));
      });
    });
    ws.send(
      JSON.stringify({
        v: 1,
        t: 'hello',
        token: await signPlayerToken(p.config.jwtSecret, { sub: 'u1', name: '민수' }),
        revision: PROTOCOL_REVISION,
      }),
    );
    ws.send(JSON.stringify({ v: 1, t: 'join', roomId }));
    const last = await done;
    ws.close();

    expect(acked.size).toBeGreaterThan(0);
    await expect.poll(() => finished.length).toBe(1);
    const record = finished[0].record as GameRecord;
    const verdict = verifyRecord(game, record);
    expect(verdict.problems).toEqual([]);
    expect(JSON.stringify(last.result)).toBe(JSON.stringify(record.result));
    const humanSteps = record.actions.filter((s) => 'actor' in s && s.actor === 'u1').length;
    expect(humanSteps).toBe(acked.size);
  }, 150_000);
});
