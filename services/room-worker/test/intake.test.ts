/**
 * Issue 37 item 4: while a worker is behind, the commands of the tables already playing go before opens and
 * joins. The intake (src/intake.ts) is driven here by real room queues (src/room-queue.ts) whose batches the
 * test completes by hand, on a fake clock: no sleeps, the order is decided by the queues' counts alone.
 */
import { describe, expect, it } from 'vitest';
import { FakeClock } from '@joke/bus/clock';
import { PriorityIntake, type Deferrable } from '../src/intake.ts';
import { ItemQueue, type QueueOwner } from '../src/room-queue.ts';
import type { Item } from '../src/room-types.ts';

/** A room whose batches finish only when the test says so, logging what it applied. */
class HandRoom implements QueueOwner {
  readonly applied: string[] = [];
  private finish: (() => void)[] = [];
  readonly queue: ItemQueue;
  constructor(
    readonly name: string,
    intake: PriorityIntake,
    private readonly log: string[],
  ) {
    this.queue = new ItemQueue(this, 64, 4, intake);
  }
  process(batch: Item[]): Promise<void> {
    for (const i of batch) this.log.push(`${this.name}:${i.kind === 'cmd' ? i.cmd.actionId : i.kind}`);
    return new Promise((r) => this.finish.push(r));
  }
  afterBatch(): void {}
  failed(err: unknown): void {
    throw err;
  }
  /** Completes the batch in flight and lets the queue take its next one. */
  async done(): Promise<void> {
    this.finish.shift()?.();
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  }
}

const cmd = (actionId: string): Item => ({
  kind: 'cmd',
  cmd: { v: 1, userId: 'u', actionId, action: { type: 'x' }, gatewayId: 'g', at: 0 },
  respond: () => {},
  at: 0,
});

function setup(opts: Partial<ConstructorParameters<typeof PriorityIntake>[0]> = {}) {
  const clock = new FakeClock(1_000_000);
  const counts = new Map<string, number>();
  const intake = new PriorityIntake(
    { deferQueued: 4, deferLagMs: 0, deferMax: 3, deferWaitMs: 2_000, ...opts },
    clock,
    { deferred: (kind, outcome) => counts.set(`${kind}:${outcome}`, (counts.get(`${kind}:${outcome}`) ?? 0) + 1) },
  );
  const log: string[] = [];
  const refused: string[] = [];
  const offer = (kind: Deferrable, name: string, deadline?: number) =>
    intake.admit(
      kind,
      () => log.push(`start:${name}`),
      () => refused.push(name),
      deadline,
    );
  return { clock, counts, intake, log, refused, offer };
}

describe('priority intake: opens and joins wait behind the commands of playing tables', () => {
  it('starts an open at once while the backlog is under the threshold', () => {
    const { intake, log, offer, counts } = setup();
    const a = new HandRoom('a', intake, log);
    a.queue.push(cmd('1'));
    offer('open', 't1');
    expect(log).toEqual(['a:1', 'start:t1']);
    expect(counts.size).toBe(0);
  });

  it('defers opens and joins while the queues are behind, and starts them only once the commands went', async () => {
    const { intake, log, offer, counts } = setup();
    const a = new HandRoom('a', intake, log);
    const b = new HandRoom('b', intake, log);
    // a's first batch (1) is in flight; 2..5 and b's 6..9 wait: 8 queued items > 4.
    for (const id of ['1', '2', '3', '4', '5']) a.queue.push(cmd(id));
    b.queue.push(cmd('6'));
    for (const id of ['7', '8', '9']) b.queue.push(cmd(id));
    expect(intake.backlog).toBe(7);
    offer('open', 't1');
    offer('join', 'j1');
    expect(intake.deferred).toBe(2);
    // Commands arriving after the open still go first: they join their room's queue, the open waits.
    a.queue.push(cmd('10'));
    await a.done(); // a takes 2,3,4,5 → backlog 4 (10 and b's 7,8,9): not over 4 → released
    expect(log.slice(0, 6)).toEqual(['a:1', 'b:6', 'a:2', 'a:3', 'a:4', 'a:5']);
    expect(log.slice(6)).toEqual(['start:t1', 'start:j1']);
    expect(counts.get('open:deferred')).toBe(1);
    expect(counts.get('open:started')).toBe(1);
    expect(counts.get('join:started')).toBe(1);
  });

  it('keeps arrival order: a later open does not overtake deferred ones even when the backlog just cleared', async () => {
    const { intake, log, offer } = setup();
    const a = new HandRoom('a', intake, log);
    for (const id of ['1', '2', '3', '4', '5', '6']) a.queue.push(cmd(id));
    offer('open', 't1');
    log.length = 0;
    // Backlog drains to 1 item at the next batch; before the release runs, t2 arrives.
    await a.done();
    offer('open', 't2');
    expect(log.filter((l) => l.startsWith('start'))).toEqual(['start:t1', 'start:t2']);
  });

  it('is bounded: past INTAKE_DEFER_MAX an open or join is refused capacity at once', () => {
    const { intake, log, offer, refused, counts } = setup({ deferMax: 2 });
    const a = new HandRoom('a', intake, log);
    for (let i = 0; i < 8; i++) a.queue.push(cmd(String(i)));
    offer('open', 't1');
    offer('join', 'j1');
    offer('open', 't2');
    expect(refused).toEqual(['t2']);
    expect(intake.deferred).toBe(2);
    expect(counts.get('open:refused')).toBe(1);
  });

  it('refuses capacity once a deferred item waited INTAKE_DEFER_WAIT_MS, or its own deadline came first', async () => {
    const { intake, log, offer, refused, clock, counts } = setup();
    const a = new HandRoom('a', intake, log);
    for (let i = 0; i < 8; i++) a.queue.push(cmd(String(i)));
    offer('open', 't1', clock.now() + 500);
    offer('join', 'j1');
    await clock.advance(499);
    expect(refused).toEqual([]);
    await clock.advance(1);
    expect(refused).toEqual(['t1']);
    await clock.advance(1_500);
    expect(refused).toEqual(['t1', 'j1']);
    expect(intake.deferred).toBe(0);
    expect(log.some((l) => l.startsWith('start'))).toBe(false);
    expect(counts.get('join:refused')).toBe(1);
  });

  it('defers by the loop delay too, released at the heartbeat that measures it under the limit', async () => {
    const { intake, log, offer } = setup({ deferQueued: 0, deferLagMs: 300 });
    intake.loopLag(450);
    offer('open', 't1');
    expect(intake.deferred).toBe(1);
    intake.loopLag(120);
    await Promise.resolve();
    expect(log).toEqual(['start:t1']);
  });

  it('a cleared room gives its queued items back to the count', () => {
    const { intake, log } = setup();
    const a = new HandRoom('a', intake, log);
    for (let i = 0; i < 6; i++) a.queue.push(cmd(String(i)));
    expect(intake.backlog).toBe(5);
    a.queue.clear();
    expect(intake.backlog).toBe(0);
  });
});
