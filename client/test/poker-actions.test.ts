/**
 * The action bar from real engine views in every mode: every enabled button
 * that sends an action is accepted by the engine, the bar is present whenever
 * the view lists legal actions, and the view's chips always add up.
 */
import { describe, expect, it } from 'vitest';
import { poker, Rng, simPlayers, type PokerState } from '@joke/engine/client';
import { actionBar, emptyBarState, pressUi, type BarState } from '../src/games/poker/actions.ts';
import { handEndLines, statusLine } from '../src/games/poker/status.ts';
import { chipsOnTable, type PokerView } from '../src/games/poker/model.ts';

const MODES = ['holdem', 'omaha', 'sevenPoker', 'sevenHiLo', 'badugi', 'fiveDraw', 'indian'] as const;

/** Bar states a player could reach: nothing picked, a raise panel at each preset, picked cards, a full choice. */
function barStates(v: PokerView): BarState[] {
  const out: BarState[] = [emptyBarState()];
  const me = v.hand?.players.find((p) => p.id === v.viewer);
  const raise = v.legalActions.find((a) => a.type === 'nl.raise');
  if (raise && 'min' in raise)
    for (const to of [raise.min, raise.max, Math.round((raise.min + raise.max) / 2)])
      out.push({ ...emptyBarState(), raiseOpen: true, raiseTo: to });
  const ids = (me?.hole ?? []).flatMap((c) => ('id' in c ? [c.id] : []));
  if (ids.length) out.push({ ...emptyBarState(), selected: ids.slice(0, 1) }, { ...emptyBarState(), selected: ids });
  const choice = (me?.choice ?? []).flatMap((c) => ('id' in c ? [c.id] : []));
  if (choice.length >= 2) out.push({ ...emptyBarState(), choice: { discardId: choice[0], openId: choice[1] } });
  return out;
}

describe('poker action bar from engine views', () => {
  for (const mode of MODES)
    for (const betting of ['auto', 'korean', 'noLimit'] as const)
      it(`${mode} (${betting}): enabled buttons are legal, chips add up`, () => {
        const players = simPlayers(mode === 'holdem' ? 4 : 3);
        const rng = Rng.fromSeed(`bar:${mode}:${betting}`);
        const options = poker.optionsSchema.parse({ mode, betting, handLimit: 10, koreanMaxRaise: 'full' });
        let now = 1_800_000_000_000;
        let s: PokerState = poker.setup({ seed: `bar-${mode}`, players, options, now });
        const seen = new Set<string>();
        for (let step = 0; step < 400 && !poker.result(s); step++) {
          const spectator = poker.view(s, null);
          const c = chipsOnTable(spectator);
          expect(c.shown, `chips at step ${step}`).toBe(c.expected);
          expect(statusLine(spectator).length).toBeGreaterThan(0);
          handEndLines(spectator);
          for (const p of players) {
            const v = poker.view(s, p.id);
            for (const ui of barStates(v)) {
              const bar = actionBar(v, ui);
              if (v.legalActions.length > 0 && ui === barStates(v)[0])
                expect(
                  bar.buttons.some((b) => b.enabled),
                  `${p.id} has something to press`,
                ).toBe(true);
              // Pressing a bar button (raise panel, presets, −/+) leads to a bar whose actions are legal too.
              const next = bar.buttons.filter((b) => b.enabled && b.ui).map((b) => actionBar(v, pressUi(v, ui, b)));
              for (const b of [...bar.buttons, ...next.flatMap((n) => n.buttons)]) {
                if (!b.enabled || !b.action) continue;
                const r = poker.apply(s, p.id, b.action, now + 1);
                expect(r.ok, `${b.key} ${JSON.stringify(b.action)}: ${r.ok ? '' : r.reason}`).toBe(true);
                seen.add(b.key);
              }
            }
          }
          const moves = players.flatMap((p) => {
            const a = poker.bot(poker.view(s, p.id), rng);
            return a ? [{ id: p.id, a }] : [];
          });
          let r;
          if (moves.length === 0) {
            now = Math.max(now, poker.deadline(s) ?? now);
            r = poker.onTimeout(s, now);
          } else {
            const m = moves[rng.int(moves.length)];
            now += 10;
            r = poker.apply(s, m.id, m.a, now);
          }
          expect(r.ok).toBe(true);
          if (r.ok) s = r.state;
        }
        // The mode's own controls did appear.
        const expectKeys: Partial<Record<(typeof MODES)[number], string>> = {
          sevenPoker: 'choose',
          sevenHiLo: 'high',
          badugi: 'draw',
          fiveDraw: 'draw',
        };
        if (expectKeys[mode]) expect([...seen]).toContain(expectKeys[mode]);
        expect([...seen]).toContain('ready');
      });
});
