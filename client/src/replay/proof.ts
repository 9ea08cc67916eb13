/**
 * The proof a 복기 shows: the seed revealed at the end hashes (Web Crypto SHA-256, in the browser itself,
 * not the engine's hash) to the commitment published before the first deal; the engine, set up with that
 * seed, deals the same game; every recorded step is accepted against the hands that deal produced (a card
 * played that was never dealt to its player is refused); the replayed result is the recorded one.
 *
 * `prove` never throws: a missing Web Crypto (an insecure origin) is a failed line saying so. Its Korean
 * lines say what was compared; `failure` names the first step and card that did not match.
 */
import type { GameRecord } from '@joke/engine/client';
import { cardIdsOf, nameOf, type Timeline } from './timeline.ts';

export interface ProofLine {
  ok: boolean;
  label: string;
  detail: string;
}

export interface ProofReport {
  ok: boolean;
  commitment: string;
  computed: string;
  seed: string;
  /** Steps replayed and accepted, of the record's total. */
  steps: number;
  totalSteps: number;
  /** Dealt cards seen in hands across the game (per hand / round), and cards moved by the steps. */
  dealtCards: number;
  movedCards: number;
  lines: ProofLine[];
  failure: string | null;
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export async function prove(record: GameRecord, t: Timeline): Promise<ProofReport> {
  let computed = '';
  try {
    computed = await sha256Hex(record.seed);
  } catch {
    computed = '(이 브라우저에서는 SHA-256을 계산할 수 없어요)';
  }
  const commitOk = computed === record.seedCommit;
  const setupOk = t.states.length > 0 && t.states[0].seedCommit === record.seedCommit;
  const steps = t.states.length - 1;
  const totalSteps = record.actions.length;
  const dealt = new Set<string>();
  for (const s of t.states)
    for (const h of t.view.held(s)) for (const c of h.cards) dealt.add(`${t.view.markOf(s) ?? ''}:${c.id}`);
  const movedCards = record.actions.slice(0, steps).reduce((n, a) => n + cardIdsOf(a).length, 0);
  const last = t.states[t.states.length - 1];
  const replayed = last ? t.game.result(last) : null;
  const resultOk = !t.failure && JSON.stringify(replayed) === JSON.stringify(record.result);
  const f = t.failure;
  const failure = f
    ? f.step === 0
      ? f.reason
      : `${f.step}번째 동작 (${nameOf(record, f.actor)})${f.cards.length ? `: 카드 ${f.cards.join(', ')}` : ''} — ` +
        `시드로 섞은 덱에서 나온 패와 맞지 않아요 (${f.reason})`
    : null;
  const lines: ProofLine[] = [
    {
      ok: commitOk,
      label: '시드 ↔ 약속값',
      detail: commitOk ? 'SHA-256(시드)가 시작할 때 공개한 약속값과 같아요' : 'SHA-256(시드)가 약속값과 달라요',
    },
    {
      ok: setupOk,
      label: '시드로 다시 섞기',
      detail: setupOk ? '같은 시드로 덱을 다시 섞어 같은 패를 돌렸어요' : '시드로 섞은 게임이 다른 약속값을 내요',
    },
    {
      ok: !f,
      label: '동작 하나하나',
      detail: f
        ? f.step === 0
          ? (failure ?? '')
          : `${f.step}번째 동작에서 멈췄어요: 그 뒤의 동작 ${totalSteps - steps}개는 다시 둘 수 없어요`
        : `동작 ${steps}개를 모두 다시 두었어요 (낸 카드 ${movedCards}장, 돌린 카드 ${dealt.size}장 확인)`,
    },
    {
      ok: resultOk,
      label: '결과',
      detail: resultOk ? '다시 둔 결과가 기록된 결과와 같아요' : '다시 둔 결과가 기록된 결과와 달라요',
    },
  ];
  return {
    ok: lines.every((l) => l.ok),
    commitment: record.seedCommit,
    computed,
    seed: record.seed,
    steps,
    totalSteps,
    dealtCards: dealt.size,
    movedCards,
    lines,
    failure,
  };
}
