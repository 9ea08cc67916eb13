/**
 * Each game's view-free actions (GameDefinition.viewFreeActions: judged on the current state whatever view
 * they were chosen on) are action types the game's own schema accepts, so a rename cannot leave the room
 * worker refusing `stale` the answers several players give at once.
 */
import { describe, expect, it } from 'vitest';
import { games } from '../src/index.ts';

const samples: Record<string, Record<string, unknown>> = {
  'one-card': { declareOneCard: { type: 'declareOneCard' } },
  poker: {
    declare: { type: 'declare', side: 'high' },
    ready: { type: 'ready' },
    rebuy: { type: 'rebuy', accept: true },
    leave: { type: 'leave' },
  },
  hula: {
    thankYou: { type: 'thankYou', cardIds: ['c1', 'c2'] },
    pass: { type: 'pass' },
    ready: { type: 'ready' },
    reserveLeave: { type: 'reserveLeave', on: true },
  },
};

describe('view-free actions', () => {
  for (const [id, game] of Object.entries(games)) {
    it(`${id}: each is an action type of its schema`, () => {
      const free = game.viewFreeActions ?? [];
      expect(free.length).toBeGreaterThan(0);
      for (const type of free) {
        const sample = samples[id]?.[type];
        expect(sample, `${id} ${type}: a sample action`).toBeDefined();
        expect(game.actionSchema.safeParse(sample).success, `${id} ${type}`).toBe(true);
      }
    });
  }
});
