/**
 * The k6 scripts cannot run here (no k6 binary), so what they send is checked
 * from Node: every message their builders make parses with services/protocol's
 * ClientMessage, every kind they read is a ServerMessage, and the one-card
 * policy they play with only picks legal actions in the engine.
 */
import { describe, expect, it } from 'vitest';
import { games, Rng } from '@joke/engine';
import { ClientMessage, PROTOCOL_VERSION, ServerMessage } from '@joke/protocol';
// @ts-expect-error plain JavaScript shared with k6, no type declarations
import * as k6 from '../k6/protocol.js';

describe('k6 scripts speak the gateway protocol', () => {
  it('every message they build is a valid ClientMessage', () => {
    expect(k6.PROTOCOL_VERSION).toBe(PROTOCOL_VERSION);
    const built = [
      k6.hello('tok.en.x'),
      k6.queue('one-card', 'classic', 4),
      k6.join('r_abc', false),
      k6.join('r_abc', true),
      k6.leave('r_abc'),
      k6.action('r_abc', '7.0.1', { type: 'draw' }),
      k6.ping(123),
    ];
    for (const m of built) expect(ClientMessage.safeParse(m).success, JSON.stringify(m)).toBe(true);
  });

  it('every kind they read is a ServerMessage kind', () => {
    const kinds = ServerMessage.options.map((o) => o.shape.t.value as string);
    for (const k of k6.HANDLED) expect(kinds).toContain(k);
  });

  it('signs in with a nickname the lobby accepts (2–12 characters)', () => {
    for (const vu of [1, 99999, 123456789]) expect([...k6.guestInput(vu).nickname].length).toBeLessThanOrEqual(12);
  });

  it('the one-card policy only picks legal actions (200 games of 4, engine-checked)', () => {
    const game = games['one-card'];
    let actions = 0;
    for (let g = 0; g < 200; g++) {
      const rng = Rng.fromSeed(`k6-policy-${g}`, 'test');
      const players = [0, 1, 2, 3].map((i) => ({ id: `p${i}`, name: `p${i}` }));
      let state = game.setup({
        seed: `k6-${g}`,
        players,
        options: game.optionsSchema.parse({ mode: 'classic' }),
        now: 0,
      });
      for (let step = 0; step < 2000 && !game.result(state); step++) {
        const moved = players.some((p) => {
          const a = k6.chooseOneCard(game.view(state, p.id), () => rng.float());
          if (!a) return false;
          const r = game.apply(state, p.id, a, 0);
          expect(r.ok, `${JSON.stringify(a)}: ${r.ok ? '' : r.reason}`).toBe(true);
          if (r.ok) state = r.state;
          actions++;
          return true;
        });
        if (!moved) {
          // Nobody can act (a timer is due): let the game's own timeout move it on.
          const r = game.onTimeout(state, game.deadline(state) ?? 0);
          if (!r.ok) break;
          state = r.state;
        }
      }
    }
    expect(actions).toBeGreaterThan(1000);
  });
});
