/** Test helpers: a worker on an in-process bus and memory store, and a fake gateway. */
import { InProcessBus, MemorySnapshotStore, type Bus, type SnapshotStore } from '@joke/bus';
import { bus as wire, subjects, PROTOCOL_VERSION } from '@joke/protocol';
import { pino } from 'pino';
import type { AnyGame } from '@joke/engine';
import { startRoomWorker, type RoomWorker, type WorkerConfig } from '../src/index.ts';
import { raceGame } from './fixtures/race-game.ts';

export const quietLog = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
export const games: Record<string, AnyGame> = { race: raceGame };

export async function worker(
  bus: Bus,
  store: SnapshotStore,
  cfg: Partial<WorkerConfig> = {},
  g: Record<string, AnyGame> = games,
): Promise<RoomWorker> {
  return startRoomWorker(
    { workerId: `w${Math.random().toString(36).slice(2, 8)}`, botDelayMs: 0, botJitterMs: 0, heartbeatMs: 100, ...cfg },
    { bus, store, games: g, log: quietLog },
  );
}

export function setup() {
  const bus = new InProcessBus({ onHandlerError: (e) => console.error(e) });
  const store = new MemorySnapshotStore();
  return { bus, store };
}

export const seat = (id: string, bot = false) => ({ id, name: id.toUpperCase(), bot });

export async function openRoom(
  bus: Bus,
  workerId: string,
  roomId: string,
  players: ReturnType<typeof seat>[],
  options: Record<string, unknown> = {},
  game = 'race',
) {
  const reply = await bus.request(
    subjects.workerOpen(workerId),
    JSON.stringify({ v: 1, roomId, create: { roomId, game, options, players } }),
    2000,
  );
  return JSON.parse(reply) as { ok: boolean; epoch?: number; seq?: number; reason?: string };
}

export interface Frame {
  t: string;
  seq: number;
  role?: string;
  view?: any;
  events?: any[];
  presence?: any[];
  result?: any;
}

/** Plays a gateway: joins viewers, sends commands, keeps every delivery it gets. */
export class FakeGateway {
  deliveries: wire.Delivery[] = [];
  private sub;
  constructor(
    private readonly bus: Bus,
    readonly id: string,
  ) {
    this.sub = bus.subscribe(subjects.gatewayDeliver(id), (m) => this.deliveries.push(JSON.parse(m.data)));
    bus.publish(subjects.gatewayHeartbeat, JSON.stringify({ v: 1, gatewayId: id, sockets: 0, at: Date.now() }));
  }
  async join(roomId: string, userId: string, spectate = false) {
    const r = JSON.parse(
      await this.bus.request(
        subjects.roomJoin(roomId),
        JSON.stringify({ v: PROTOCOL_VERSION, userId, spectate, gatewayId: this.id }),
        2000,
      ),
    );
    return { ...r, view: r.frame ? (JSON.parse(r.frame) as Frame) : undefined };
  }
  async act(roomId: string, userId: string, actionId: string, action: unknown) {
    return JSON.parse(
      await this.bus.request(
        subjects.roomCommand(roomId),
        JSON.stringify({ v: PROTOCOL_VERSION, userId, actionId, action, gatewayId: this.id, at: Date.now() }),
        2000,
      ),
    ) as { ok: boolean; seq?: number; reason?: string };
  }
  presence(roomId: string, userId: string, connected: boolean, left = false) {
    this.bus.publish(
      subjects.roomPresence(roomId),
      JSON.stringify({ v: PROTOCOL_VERSION, userId, gatewayId: this.id, connected, left }),
    );
  }
  /** `view` frames (or `t`) for `viewer` (null = spectator frame), parsed, in arrival order. */
  frames(roomId: string, viewer: string | null, t = 'view'): Frame[] {
    const out: Frame[] = [];
    for (const d of this.deliveries)
      if (d.roomId === roomId)
        for (const f of d.frames) {
          if (f.viewer !== viewer) continue;
          const frame = JSON.parse(f.frame) as Frame;
          if (frame.t === t) out.push(frame);
        }
    return out;
  }
  last(roomId: string, viewer: string | null, t = 'view'): Frame | undefined {
    const f = this.frames(roomId, viewer, t);
    return f[f.length - 1];
  }
  close() {
    this.sub.unsubscribe();
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function until(cond: () => boolean | Promise<boolean>, timeoutMs = 5000, what = 'condition') {
  const t0 = Date.now();
  while (!(await cond())) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}
