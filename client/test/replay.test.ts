/**
 * 복기 without a browser: the engine replays a record step by step (timeline), the proof checks seed,
 * commitment, every step and the result, a record with one card swapped fails naming that step and card,
 * the address parser, and poker's plain-text hand history.
 */
import { describe, expect, it } from 'vitest';
import { games } from '@joke/engine/client';
import { buildTimeline } from '../src/replay/timeline.ts';
import { prove } from '../src/replay/proof.ts';
import { pokerHandHistory } from '../src/replay/hand-history.ts';
import { replayIdFromUrl } from '../src/replay/route.ts';
import { botRecord, tamper } from './support/replay-records.ts';

const PLAYERS = [
  { id: 'seat0', name: '나' },
  { id: 'seat1', name: '민수' },
  { id: 'seat2', name: '지영' },
];

const CASES = [
  ['one-card', { mode: 'classic' }],
  ['poker', { mode: 'holdem', handLimit: 10 }],
  ['hula', { mode: 'monster', rounds: 3 }],
] as const;

describe('복기 timeline and proof', () => {
  for (const [id, options] of CASES)
    it(`${id}: every step replays, marks split hands/rounds, the proof passes`, async () => {
      const record = botRecord(id, options, PLAYERS, `replay-${id}`);
      const t = buildTimeline(games[id], record);
      expect(t.failure).toBeNull();
      expect(t.states).toHaveLength(record.actions.length + 1);
      if (id !== 'one-card') expect(t.marks.length).toBeGreaterThanOrEqual(2);
      const p = await prove(record, t);
      expect(p.lines.filter((l) => !l.ok)).toEqual([]);
      expect(p).toMatchObject({ ok: true, computed: record.seedCommit, steps: record.actions.length, failure: null });
      expect(p.dealtCards).toBeGreaterThan(0);
      const held = t.view.held(t.states[0]);
      expect(held.slice(0, 3).map((h) => h.who)).toEqual(['나', '민수', '지영']);
      expect(held[0].cards[0].name).toMatch(/^[♠♥♦♣]|조커|빨강|노랑|초록|파랑|색/);
    });

  for (const id of ['one-card', 'hula'] as const)
    it(`${id}: one card swapped in an action fails the proof, naming the step and the card in Korean`, async () => {
      const options = CASES.find((c) => c[0] === id)![1];
      const record = botRecord(id, options, PLAYERS, `tamper-${id}`);
      const bad = tamper(record);
      const t = buildTimeline(games[id], bad.record);
      expect(t.failure?.step).toBe(bad.step);
      const p = await prove(bad.record, t);
      expect(p.ok).toBe(false);
      const swapped = t.view.cardName(t.states[t.states.length - 1], bad.to);
      expect(swapped).toMatch(/^[♠♥♦♣]/);
      expect(p.failure).toContain(`${bad.step}번째 동작`);
      expect(p.failure).toContain(`카드 ${swapped}`);
      // The seed still matches its commitment: only the steps line fails.
      expect(p.lines.map((l) => l.ok)).toEqual([true, true, false, false]);
    });

  it('a seed that does not hash to the commitment fails the first line', async () => {
    const record = botRecord('one-card', { mode: 'classic' }, PLAYERS.slice(0, 2), 'seed-a');
    const forged = { ...record, seed: 'seed-b' };
    const p = await prove(forged, buildTimeline(games['one-card'], forged));
    expect(p.ok).toBe(false);
    expect(p.lines[0]).toMatchObject({ ok: false, label: '시드 ↔ 약속값' });
  });

  it('reads the shareable address in both forms', () => {
    expect(replayIdFromUrl({ hash: '#/replay/g_abc-1', search: '' })).toBe('g_abc-1');
    expect(replayIdFromUrl({ hash: '', search: '?renderer=canvas&replay=g_x' })).toBe('g_x');
    expect(replayIdFromUrl({ hash: '#/replay/../x', search: '' })).toBeNull();
    expect(replayIdFromUrl({ hash: '', search: '' })).toBeNull();
  });
});

describe('poker hand history (plain text)', () => {
  it('one block per hand with seats, blinds, streets, showdown and pots', () => {
    const record = botRecord('poker', { mode: 'holdem', handLimit: 10 }, PLAYERS, 'history-1');
    const t = buildTimeline(games.poker, record);
    const text = pokerHandHistory(record, t.states);
    const blocks = text.trim().split(/\n\n/);
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    blocks.forEach((b, i) => {
      const lines = b.split('\n');
      expect(lines[0]).toBe(`=== ${i + 1}번째 판 (holdem) ===`);
      expect(lines.filter((l) => l.startsWith('좌석 '))).toHaveLength(3);
      expect(b).toMatch(/^블라인드: \S+ 5 \/ \S+ 10$/m);
      expect(b).toContain('* 프리플롭');
      expect(b).toMatch(/^\* 메인 팟 \d+: /m);
      expect(b).toMatch(/^ {2}(나|민수|지영): (폴드|체크|콜|올인|레이즈 → \d+)$/m);
    });
    expect(text).toMatch(/^\* 쇼다운$/m);
    expect(text).toMatch(/^\* 플롭 \[[♠♥♦♣]\S+ [♠♥♦♣]\S+ [♠♥♦♣]\S+\]$/m);
    expect(pokerHandHistory(botRecord('one-card', { mode: 'classic' }, PLAYERS, 'x'), [])).toBe('');
  });
});
