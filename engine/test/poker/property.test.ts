import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { poker } from '../../src/games/poker/index.ts';
import { simPlayers } from '../../src/sim/runner.ts';
import { deriveSeed } from '../../src/core/commit.ts';
import { verifyRecord } from '../../src/record/record.ts';
import type { PlayerId } from '../../src/core/types.ts';
import type { Card, PokerState } from '../../src/games/poker/types.ts';
import { gameFor, play, type Step } from './play.ts';
import { allCards } from '../../src/games/poker/sim.ts';

/** Cards `viewer` must not be able to identify, restated from §8.3 (independently of the sim adapter). */
function secretFrom(s: PokerState, viewer: PlayerId | null): Card[] {
  const out: Card[] = [...(s.indianDeck ?? [])];
  const h = s.hand;
  if (!h) return out;
  const mine = viewer !== null && h.players[viewer] ? h.players[viewer] : null;
  out.push(...h.deck, ...h.muck.filter((c) => c.id !== mine?.discarded?.id));
  const over = h.phase === 'handEnd';
  for (const id of h.seatOrder) {
    const p = h.players[id];
    const shown = over && (s.options.mode === 'indian' || !!h.showdown?.some((e) => e.id === id));
    if (shown) continue;
    if (id !== viewer) out.push(...p.hole, ...(p.choice ?? []));
    if (p.forehead && (id === viewer || !mine)) out.push(p.forehead);
  }
  return out;
}

const CARD_RE = /"id":(\d+),"rank":(\d+),"suit":"([SHDC])"/g;

function leaks(json: string, secret: Card[]): string[] {
  const bad = new Set(secret.map((c) => `${c.id}:${c.rank}:${c.suit}`));
  const out: string[] = [];
  for (const m of json.matchAll(CARD_RE)) if (bad.has(`${m[1]}:${m[2]}:${m[3]}`)) out.push(m[0]);
  return out;
}

describe('속성 기반 검사 (§10)', () => {
  it('§10 — 비밀 누출: 무작위 시드 1,000개의 모든 단계에서 모든 시청자(관전자 포함)의 view·이벤트 JSON에 상대 비공개 카드·덱·초이스 버림 카드·시드가 없음', () => {
    let views = 0;
    const hands = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const g = gameFor(i);
      const viewers: (PlayerId | null)[] = [...simPlayers(g.players).map((p) => p.id), null];
      // Two whole hands per seed (every phase of the mode, the hand end and the next deal); every 25th seed plays its whole game.
      const until = i % 25 === 0 ? undefined : (s: PokerState) => s.handsPlayed >= 2 && s.hand!.phase !== 'handEnd';
      play(
        g,
        (s, events, all) => {
          hands.add(`${i}:${s.hand!.handNo}`);
          const over = poker.result(s) !== null;
          const hiddenSeed = s.hand && !s.hand.seedRevealed ? deriveSeed(s.seed, `hand:${s.hand.handNo}`) : null;
          for (const v of viewers) {
            const secret = secretFrom(s, v);
            const json = JSON.stringify(all.get(v));
            views++;
            const found = leaks(json, secret);
            if (found.length) throw new Error(`game ${i} viewer ${v}: ${found.join(', ')}`);
            if (!over && json.includes(s.seed)) throw new Error(`game ${i}: master seed in a view`);
            if (hiddenSeed && json.includes(hiddenSeed)) throw new Error(`game ${i}: unrevealed hand seed in a view`);
            if (json.includes(JSON.stringify(s.rng)) || (s.hand && json.includes(JSON.stringify(s.hand.rng))))
              throw new Error(`game ${i}: rng state in a view`);
            for (const e of events) {
              const seen = poker.eventView(e, v);
              if (!seen) continue;
              const ej = JSON.stringify(seen);
              const f = leaks(ej, secret);
              if (f.length) throw new Error(`game ${i} event ${e.type} to ${v}: ${f.join(', ')}`);
              if (!over && ej.includes(s.seed)) throw new Error(`game ${i}: master seed in an event`);
            }
          }
        },
        until,
      );
    }
    expect(hands.size).toBeGreaterThan(2500);
    expect(views).toBeGreaterThan(100_000);
  });

  it('§10 — 재현성: 같은 시드 + 같은 액션 열 → apply 결과 상태 해시 동일(모든 단계)', () => {
    const hash = (s: PokerState) => createHash('sha256').update(JSON.stringify(s)).digest('hex');
    for (let i = 0; i < 14; i++) {
      const g = gameFor(i);
      const hashes: string[] = [];
      const { steps, final } = play(g, (s) => hashes.push(hash(s)));
      let s = poker.setup({
        seed: g.seed,
        players: simPlayers(g.players),
        options: poker.optionsSchema.parse(g.options),
        now: 1_800_000_000_000,
      });
      expect(hash(s)).toBe(hashes[0]);
      steps.forEach((st: Step, k) => {
        const r = 'timeout' in st ? poker.onTimeout(s, st.now) : poker.apply(s, st.actor, st.action, st.now);
        if (!r.ok) throw new Error(r.reason);
        s = r.state;
        expect(hash(s)).toBe(hashes[k + 1]);
      });
      const record = {
        game: 'poker',
        options: g.options,
        players: simPlayers(g.players),
        startedAt: 1_800_000_000_000,
        seedCommit: final.seedCommit,
        rulesVersion: final.rulesVersion,
        seed: g.seed,
        actions: steps,
        result: poker.result(final),
      };
      expect(verifyRecord(poker, record).ok).toBe(true);
    }
  });

  it('§10 — 칩 보존 불변식: 매 apply 후 Σ스택 + Σ팟 + Σ이번 라운드 기여 + 이월 판돈(+ 인디언 벌칙) = 초기 칩 합 + 리바이 합, 카드도 보존', () => {
    let checks = 0;
    for (let i = 0; i < 70; i++) {
      const g = gameFor(i, { rebuy: i % 2 ? 'unlimited' : 'limited' });
      let deck: string | null = null;
      play(g, (s) => {
        const h = s.hand!;
        const rebuys = s.seats.reduce((t, x) => t + x.rebuys, 0);
        const sum =
          s.seats.reduce((t, x) => t + x.stack, 0) +
          h.pots.reduce((t, p) => t + p.amount, 0) +
          h.seatOrder.reduce((t, id) => t + h.players[id].committedRound, 0) +
          h.penalties.reduce((t, p) => t + p.amount, 0) +
          s.carryOver;
        if (sum !== s.options.startingChips * (s.seats.length + rebuys)) throw new Error(`game ${i}: chips ${sum}`);
        if (s.seats.some((x) => x.stack < 0)) throw new Error(`game ${i}: negative stack`);
        const ids = allCards(s)
          .map((c) => c.id)
          .sort((a, b) => a - b)
          .join();
        deck ??= ids;
        if (ids !== deck) throw new Error(`game ${i}: cards not conserved`);
        checks++;
      });
    }
    expect(checks).toBeGreaterThan(5_000);
  });

  it('§8.2 — apply는 순수: 얼린 입력 상태로 여러 판을 끝까지 진행해도 예외 없음', () => {
    const freeze = (o: unknown): void => {
      if (o && typeof o === 'object' && !Object.isFrozen(o)) {
        Object.freeze(o);
        for (const v of Object.values(o)) freeze(v);
      }
    };
    for (let i = 0; i < 14; i++) play(gameFor(i), (s) => freeze(s));
  });
});
