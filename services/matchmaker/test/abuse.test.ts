/**
 * Quick-match requests an attacker controls (issue 10): a game name that is an
 * Object.prototype key is an unknown game, not a crash inside the handler,
 * and one user's flood of requests is cut off by a per-user rate limit.
 */
import { describe, expect, it } from 'vitest';
import { InProcessBus } from '@joke/bus';
import { MemoryMatchStore, MemorySnapshotStore } from '@joke/stores';
import { subjects, wireText } from '@joke/protocol';
import { startMatchmaker } from '../src/index.ts';
import { cleanupAfterEach, games, log } from './helpers.ts';

const cleanup = cleanupAfterEach();

async function matchmaker(cfg: { queueRatePerUser?: number } = {}) {
  const bus = new InProcessBus();
  const mm = await startMatchmaker(
    { matchmakerId: 'mm-abuse', ...cfg },
    { bus, snapshots: new MemorySnapshotStore(), match: new MemoryMatchStore(), games, log },
  );
  cleanup.push(async () => {
    await mm.close();
    await bus.close();
  });
  const queue = async (userId: string, extra: Record<string, unknown> = {}) =>
    JSON.parse(
      wireText(
        await bus.request(
          subjects.queue,
          JSON.stringify({
            v: 1,
            userId,
            name: userId,
            gatewayId: 'g1',
            game: 'race',
            mode: 'classic',
            players: 3,
            ...extra,
          }),
          2000,
        ),
      ),
    );
  return { mm, queue };
}

describe('mm.queue abuse', () => {
  it('answers "unknown game" for Object.prototype names instead of throwing', async () => {
    const { mm, queue } = await matchmaker();
    for (const game of ['__proto__', 'constructor', 'toString', 'hasOwnProperty'])
      expect(await queue(`u_${game}`, { game })).toEqual({
        ok: false,
        code: 'unknownGame',
        reason: '알 수 없는 게임이에요',
      });
    const metrics = await mm.registry.metrics();
    expect(metrics).not.toMatch(/joke_matchmaker_errors_total\{[^}]*\} [1-9]/);
  });

  it('limits quick-match requests per user; cancels and other users are not affected', async () => {
    const { queue } = await matchmaker({ queueRatePerUser: 3 });
    for (let i = 0; i < 3; i++) expect(await queue('flood')).toEqual({ ok: true });
    expect(await queue('flood')).toEqual({
      ok: false,
      code: 'tooMany',
      reason: '빠른 대전 요청이 너무 많아요. 잠시 후 다시 시도해 주세요',
    });
    expect(await queue('flood', { cancel: true })).toEqual({ ok: true });
    expect(await queue('calm')).toEqual({ ok: true });
  });
});
