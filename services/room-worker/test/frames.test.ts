/**
 * Each viewer's frame built from the view's parts (the shared members encoded
 * once per transition, the viewer's own spliced in: src/frames.ts) against the
 * frame as it was built before, the whole view encoded per viewer: over
 * bot-played games of every game and mode, for each seat and the spectator,
 * the two parse to the same message once the game's fixed members (a frame's
 * `fixed`, sent only to viewers that lack them) are put back into the view as
 * a client does, and the header the bots read by bytes
 * (load-tests/src/frames.ts) is unchanged.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { games, type AnyGame, type GameEvent } from '@joke/engine';
import { simPlayers } from '@joke/engine/sim/runner';
import { botTransitions } from '@joke/engine/sim/transitions';
import { FixedMembers, joinObjects, StateViews, viewFrame, viewFrameBytes } from '../src/frames.ts';

const roomIdJson = '"room-7_x"';

function frameBefore(
  game: AnyGame,
  t: { seq: number; state: unknown; events: GameEvent[] },
  viewer: string | null,
  presenceJson: string,
  resultJson: string | null,
): string {
  const events = t.events.map((e) => game.eventView(e, viewer)).filter((e) => e !== null);
  const role = viewer === null ? 'spectator' : 'player';
  const view = JSON.stringify(game.view(t.state, viewer));
  return viewFrame(roomIdJson, t.seq, role, view, JSON.stringify(events), presenceJson, resultJson);
}

/**
 * Parsed JSON compared with node's isDeepStrictEqual (a deep toEqual of every viewer's frame of every
 * transition took most of a 120 s budget under a loaded suite); toEqual only to show a difference.
 */
function sameJson(actual: unknown, expected: unknown): void {
  if (!isDeepStrictEqual(actual, expected)) expect(actual).toEqual(expected);
}

describe('view frames from view parts', () => {
  it('joins two objects as text', () => {
    expect(joinObjects('{"a":1}', '{"b":[2],"c":{}}')).toBe('{"a":1,"b":[2],"c":{}}');
    expect(joinObjects('{}', '{"b":2}')).toBe('{"b":2}');
    expect(joinObjects('{"a":1}', '{}')).toBe('{"a":1}');
  });

  for (const game of Object.values(games))
    for (const mode of game.modes)
      it(`${game.id} ${mode.id}: every viewer's frame parses to the one built from the whole view`, () => {
        fc.assert(
          fc.property(fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 2, max: 5 }), (seed, n) => {
            const options = game.optionsSchema.parse({ mode: mode.id });
            const range = game.playerRange(options);
            const players = simPlayers(Math.min(Math.max(n, range.min), range.max));
            const viewers = [...players.map((p) => p.id), null];
            const presenceJson = JSON.stringify(players.map((p) => ({ id: p.id, connected: true })));
            const fixedMembers = new FixedMembers(game);
            let firstFixed: string | null = null;
            for (const t of botTransitions(game, {
              seed: `frames-${seed}`,
              players,
              options: { mode: mode.id },
              timeoutRate: 0.03,
              maxSteps: game.id === 'poker' ? 40 : 200,
            })) {
              const result = game.result(t.state);
              const resultJson = result === null ? null : JSON.stringify(result);
              const fixedJson = fixedMembers.json(t.state);
              expect(fixedJson).not.toBeNull();
              // One text for the whole game.
              firstFixed ??= fixedJson;
              expect(fixedJson).toBe(firstFixed);
              const c = {
                roomIdJson,
                seq: t.seq,
                events: t.events,
                views: new StateViews(game, t.state),
                presenceJson,
                resultJson,
                fixedJson,
              };
              const fixed = JSON.parse(fixedJson!);
              for (const viewer of viewers) {
                const beforeText = frameBefore(game, t, viewer, presenceJson, resultJson);
                const before = JSON.parse(beforeText);
                const now = Buffer.from(viewFrameBytes(game, c, viewer)).toString('utf8');
                const parsed = JSON.parse(now);
                expect(parsed).not.toHaveProperty('fixed');
                sameJson({ ...parsed, view: { ...fixed, ...parsed.view } }, before);
                const withFixed = JSON.parse(Buffer.from(viewFrameBytes(game, c, viewer, true)).toString('utf8'));
                sameJson(withFixed, { ...parsed, fixed });
                const head = beforeText.slice(0, now.indexOf('"view":{') + 8);
                expect(now.startsWith(head)).toBe(true);
              }
            }
          }),
          { numRuns: 4, seed: 3 },
        );
      }, 120_000);
});
