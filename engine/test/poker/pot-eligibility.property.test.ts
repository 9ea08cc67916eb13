/**
 * §5.5 property: over random all-in / fold / leave sequences, nobody ever wins
 * more than the pots they are eligible for. Checked two ways at every hand end:
 * against the engine's own pot records, and against a bound restated from the
 * spec independently of them — a player who put in c can win at most
 * Σ_j min(c_j, c) over everyone's contributions c_j, and a folded player nothing.
 * Games alternate between rules version 2 (chips above every live contribution
 * go back, folded players' too) and version 3 (clarification 17: they never go
 * back to a folded player; they join the pot below, so a player whose c is the
 * largest live contribution may also win the folded chips above it).
 */
import { describe, expect, it } from 'vitest';
import { poker } from '../../src/games/poker/index.ts';
import { Rng } from '../../src/core/rng.ts';
import { simPlayers } from '../../src/sim/runner.ts';
import type { PlayerId } from '../../src/core/types.ts';
import type { LegalAction, PokerState } from '../../src/games/poker/types.ts';

const T0 = 1_800_000_000_000;
const MODES = [
  { mode: 'holdem' },
  { mode: 'omaha' },
  { mode: 'holdem', betting: 'potLimit' },
  { mode: 'sevenPoker' },
  { mode: 'sevenHiLo' },
  { mode: 'badugi', betting: 'noLimit' },
  { mode: 'fiveDraw' },
];

function chips(s: PokerState): number {
  const h = s.hand;
  let t = s.seats.reduce((a, x) => a + x.stack, 0) + s.carryOver;
  if (h)
    t += h.pots.reduce((a, p) => a + p.amount, 0) + h.seatOrder.reduce((a, id) => a + h.players[id].committedRound, 0);
  return t;
}

/** Betting choice biased towards all-ins and folds, the moves that make side pots. */
function pickBet(legal: LegalAction[], rng: Rng): Record<string, unknown> {
  const by = (t: string) => legal.find((a) => a.type === t);
  const r = rng.float();
  const allIn = by('nl.allIn') ?? by('k.full') ?? by('k.half');
  if (r < 0.3 && allIn) return { type: allIn.type };
  if (r < 0.5) return { type: (by('nl.fold') ?? by('k.die'))!.type };
  const raise = by('nl.raise');
  if (r < 0.6 && raise && raise.type === 'nl.raise')
    return { type: 'nl.raise', to: raise.min + rng.int(raise.max - raise.min + 1) };
  const calm = by('nl.check') ?? by('k.check') ?? by('nl.call') ?? by('k.call') ?? by('k.ping') ?? legal[0];
  return { type: calm.type };
}

/** Checks one hand end; true when folded players' chips lay above every live contribution. */
function checkHandEnd(s: PokerState): boolean {
  const h = s.hand!;
  const liveMax = Math.max(
    ...h.seatOrder.filter((id) => !h.players[id].folded).map((id) => h.players[id].committedTotal),
  );
  let above = 0;
  for (const id of h.seatOrder) if (h.players[id].folded) above += Math.max(0, h.players[id].committedTotal - liveMax);
  // Version 2 returned every such chip before the pots were built.
  if (s.rulesVersion === 2) expect(above).toBe(0);
  const pots = h.potResults!;
  const put = new Map(h.seatOrder.map((id) => [id, h.players[id].committedTotal]));
  const won = new Map<PlayerId, number>();
  for (const a of h.awards!) {
    if (a.kind === 'penalty') continue;
    expect(h.players[a.to].folded, `folded ${a.to} won a pot`).toBe(false);
    expect(pots[a.potIndex].eligible).toContain(a.to);
    won.set(a.to, (won.get(a.to) ?? 0) + a.amount);
  }
  pots.forEach((p) => {
    if (p.amount > 0) expect(p.eligible.length).toBeGreaterThan(0);
    if (!p.carried) expect(p.winners.reduce((t, w) => t + w.amount, 0)).toBe(p.amount);
  });
  for (const [id, amount] of won) {
    const mine = put.get(id)!;
    let cap = 0;
    for (const c of put.values()) cap += Math.min(c, mine);
    if (mine === liveMax) cap += above;
    expect(amount, `${id} put in ${mine} and won ${amount}`).toBeLessThanOrEqual(cap);
  }
  return above > 0;
}

describe('§5.5 property — pot eligibility over random all-in/fold sequences', () => {
  it('§5.5 — nobody ever wins more than the pots they are eligible for (engine pots and an independent bound)', () => {
    let handsChecked = 0;
    let sidePots = 0;
    let returns = 0;
    let orphaned = 0;
    for (let g = 0; g < 140; g++) {
      const rng = Rng.fromSeed(`pots-${g}`);
      const n = 2 + (g % 5);
      const options = poker.optionsSchema.parse({ ...MODES[g % MODES.length], handLimit: 10 });
      const rulesVersion = g % 2 === 0 ? 3 : 2;
      let s = poker.setup({ seed: `pots-${g}`, players: simPlayers(n), options, now: T0, rulesVersion });
      const total = chips(s);
      let now = T0;
      let lastEnd = -1;
      for (let step = 0; step < 3000 && s.phase !== 'finished'; step++) {
        now += 10;
        const h = s.hand;
        if (h && h.phase === 'handEnd' && lastEnd !== h.handNo) {
          lastEnd = h.handNo;
          handsChecked++;
          if (h.potResults!.filter((p) => p.amount > 0).length > 1) sidePots++;
          if (checkHandEnd(s)) orphaned++;
        }
        let r: ReturnType<typeof poker.apply> | null = null;
        const seated = s.seats.filter((x) => x.status === 'playing').map((x) => x.id);
        if (h && h.phase === 'betting' && rng.float() < 0.04) {
          // Someone not to act leaves mid-round (version 2: a fold out of turn; version 3: timeouts from now on).
          const other = seated.filter((id) => id !== h.betting?.toAct && !h.players[id]?.folded);
          if (other.length > 2) r = poker.apply(s, rng.pick(other), { type: 'leave' }, now);
        }
        if (!r && h && h.phase === 'betting' && h.betting?.toAct) {
          const actor = h.betting.toAct;
          r = poker.apply(s, actor, pickBet(poker.view(s, actor).legalActions, rng), now);
        }
        if (!r) {
          for (const id of s.seats.map((x) => x.id)) {
            const a = poker.bot(poker.view(s, id), rng);
            if (a) {
              r = poker.apply(s, id, a, now);
              break;
            }
          }
        }
        if (!r) {
          const due = poker.deadline(s);
          if (due === null) break;
          now = Math.max(now, due);
          r = poker.onTimeout(s, now);
        }
        expect(r.ok, r.ok ? '' : r.reason).toBe(true);
        if (r.ok) s = r.state;
        if (r.ok && rulesVersion === 3)
          for (const e of r.events)
            if (e.type === 'returned') {
              // Clarification 17: a folded player's chips never go back — only the uncalled part of a bet (say
              // the big blind of a player who left, over a small blind that folded), so nobody else put in more.
              const h = s.hand!;
              const who = e.player as PlayerId;
              if (h.players[who].folded) {
                const others = h.seatOrder.filter((id) => id !== who).map((id) => h.players[id].committedTotal);
                expect(h.players[who].committedTotal, `folded ${who} got called chips back`).toBeGreaterThanOrEqual(
                  Math.max(...others),
                );
              }
              returns++;
            }
        expect(chips(s)).toBe(total + options.startingChips * s.seats.reduce((t, x) => t + x.rebuys, 0));
      }
    }
    expect(handsChecked).toBeGreaterThan(300);
    expect(sidePots).toBeGreaterThan(20);
    expect(returns).toBeGreaterThan(20);
    expect(orphaned).toBeGreaterThan(0);
  });
});
