/**
 * Stale commands (issue 39): a command carries the seq of the view it was chosen on (`viewSeq`); the worker
 * refuses one chosen on an older view than the room's current one with its own code `stale` — a race, not an
 * `illegal` move — and changes nothing. A command without `viewSeq` (an older gateway or client) is judged as before.
 */
import { describe, expect, it } from 'vitest';
import { call, contract, PROTOCOL_VERSION, REFUSALS } from '@joke/protocol';
import { raceGame, raceState } from './fixtures/race-game.ts';
import { FakeGateway, REPLY_MS, storedRoom, twoSeatRoom } from './harness.ts';

describe('stale commands', () => {
  it('refuses a move chosen on an older view with `stale`, leaving the state unchanged', async ({ onTestFinished }) => {
    const { bus, store } = await twoSeatRoom(onTestFinished);
    const gw = new FakeGateway(bus, 'gw1');
    const joined = await gw.join('r', 'a');
    const first: string = joined.view.view.current;
    const second = first === 'a' ? 'b' : 'a';
    const seen: number = joined.seq;
    const act = (userId: string, actionId: string, viewSeq?: number) =>
      call(
        bus,
        contract.roomCommand.at('r'),
        { v: PROTOCOL_VERSION, userId, actionId, action: { type: 'add', n: 1 }, gatewayId: gw.id, at: 0, viewSeq },
        REPLY_MS,
      );

    // On the current view: applied.
    const moved = await act(first, 'm1', seen);
    expect(moved).toMatchObject({ ok: true });
    const now = moved.ok ? moved.seq : -1;
    expect(now).toBeGreaterThan(seen);
    const before = await storedRoom(store, 'r');

    // The second player's move, chosen on the view before the first one moved (its turn now, so the game
    // itself would accept it): refused as stale, and nothing changes.
    const stale = await act(second, 'm2', seen);
    expect(stale).toEqual({ ok: false, code: 'stale', reason: REFUSALS.stale });
    expect(REFUSALS.stale).toBe('이미 지난 화면에서 보낸 동작이에요');
    expect(await storedRoom(store, 'r')).toEqual(before);
    // The same actionId again gets the same answer (remembered, never applied).
    expect(await act(second, 'm2', now)).toEqual(stale);
    expect(await storedRoom(store, 'r')).toEqual(before);

    // Chosen again on the current view: applied.
    expect(await act(second, 'm3', now)).toMatchObject({ ok: true, seq: now + 1 });
    // Without a view seq (an older client): judged by the game alone, as before.
    expect(await act(first, 'm4')).toMatchObject({ ok: true, seq: now + 2 });
    expect(raceState((await storedRoom(store, 'r'))!.data.state).total).toBe(3);
  });

  it("judges a game's view-free actions on the current state whatever view they were chosen on", async ({
    onTestFinished,
  }) => {
    // Answers several players give at once (원카드 외치기, 훌라 땡큐/패스, 하이로우 선언): the second answer is
    // made on the view before the first one, and refusing it `stale` would break the game's own ordering.
    const { bus, store } = await twoSeatRoom(onTestFinished, { race: { ...raceGame, viewFreeActions: ['add'] } });
    const gw = new FakeGateway(bus, 'gw1');
    const joined = await gw.join('r', 'a');
    const first: string = joined.view.view.current;
    const second = first === 'a' ? 'b' : 'a';
    const seen: number = joined.seq;
    const act = (userId: string, actionId: string, viewSeq?: number) =>
      call(
        bus,
        contract.roomCommand.at('r'),
        { v: PROTOCOL_VERSION, userId, actionId, action: { type: 'add', n: 1 }, gatewayId: gw.id, at: 0, viewSeq },
        REPLY_MS,
      );
    expect(await act(first, 'v1', seen)).toMatchObject({ ok: true });
    // Chosen on the older view, legal now: applied, not refused stale.
    expect(await act(second, 'v2', seen)).toMatchObject({ ok: true });
    // Chosen on the older view and not legal now (not its turn): a race lost, `stale` with the game's reason.
    const refused = await act(second, 'v3', seen);
    expect(refused).toMatchObject({ ok: false, code: 'stale' });
    expect(refused.ok ? '' : refused.reason).not.toBe(REFUSALS.stale);
    // The same move on the current view is the game's plain refusal.
    const current = await act(second, 'v4', seen + 2);
    expect(current).toMatchObject({ ok: false, code: 'illegal' });
    expect(raceState((await storedRoom(store, 'r'))!.data.state).total).toBe(2);
  });

  it('a viewer joining moves no one on: a move made on the last view sent stays good', async ({ onTestFinished }) => {
    // A join or leave advances the room's seq without a view to the players; a player waiting on their
    // turn has no newer view to act on, so their move must not be refused stale (a 홀덤 table with a
    // spectator refused every raise of the human it waited on).
    const { bus } = await twoSeatRoom(onTestFinished);
    const gw = new FakeGateway(bus, 'gw1');
    const joined = await gw.join('r', 'a');
    const first: string = joined.view.view.current;
    const seen: number = joined.seq;
    await gw.join('r', 'watcher', true);
    const moved = await call(
      bus,
      contract.roomCommand.at('r'),
      {
        v: PROTOCOL_VERSION,
        userId: first,
        actionId: 'j1',
        action: { type: 'add', n: 1 },
        gatewayId: gw.id,
        at: 0,
        viewSeq: seen,
      },
      REPLY_MS,
    );
    expect(moved).toMatchObject({ ok: true });
  });
});
