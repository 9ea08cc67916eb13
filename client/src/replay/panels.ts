/**
 * The 복기 screen's sheets: the proof (what was compared, pass or fail, in Korean) and every player's
 * cards at the position shown. DOM over the table; each sheet closes with its button or a tap outside.
 */
import { el } from '../ui/dom.ts';
import type { HeldCards } from './games/index.ts';
import type { ProofReport } from './proof.ts';

function sheet(testid: string, title: string, body: (Node | string)[]): HTMLElement {
  const close = el('button', { class: 'btn secondary', 'data-testid': `${testid}-close` }, ['닫기']);
  const card = el('div', { class: 'card replay-sheet', 'data-testid': testid, role: 'dialog' }, [
    el('h2', {}, [title]),
    ...body,
    close,
  ]);
  const backdrop = el('div', { class: 'replay-backdrop' }, [card]);
  const shut = (): void => backdrop.remove();
  close.addEventListener('click', shut);
  backdrop.addEventListener('click', (e) => {
    if (e.target === backdrop) shut();
  });
  document.body.append(backdrop);
  return backdrop;
}

export function proofSheet(p: ProofReport): HTMLElement {
  const rows = p.lines.map((l) =>
    el('li', { class: l.ok ? 'ok' : 'bad' }, [
      el('b', {}, [`${l.ok ? '✓' : '✗'} ${l.label}`]),
      el('span', {}, [l.detail]),
    ]),
  );
  const facts = el('dl', { class: 'replay-facts' }, [
    el('dt', {}, ['약속값 (시작 때 공개)']),
    el('dd', { class: 'mono', 'data-testid': 'proof-commit' }, [p.commitment]),
    el('dt', {}, ['SHA-256(시드) (이 브라우저에서 계산)']),
    el('dd', { class: 'mono', 'data-testid': 'proof-computed' }, [p.computed]),
    el('dt', {}, ['시드 (게임이 끝나고 공개)']),
    el('dd', { class: 'mono' }, [p.seed]),
    el('dt', {}, ['확인한 것']),
    el('dd', {}, [`동작 ${p.steps}/${p.totalSteps}개 · 돌린 카드 ${p.dealtCards}장 · 낸 카드 ${p.movedCards}장`]),
  ]);
  const verdict = el('p', { class: `replay-verdict ${p.ok ? 'ok' : 'bad'}`, 'data-testid': 'proof-verdict' }, [
    p.ok ? '통과: 이 게임은 시작 전에 정해진 덱으로 기록대로 진행됐어요' : '실패: 기록이 시드와 맞지 않아요',
  ]);
  const body: (Node | string)[] = [verdict, el('ul', { class: 'replay-lines' }, rows), facts];
  if (p.failure) body.splice(1, 0, el('p', { class: 'replay-failure', 'data-testid': 'proof-failure' }, [p.failure]));
  return sheet('proof-sheet', '공정성 증명', body);
}

export function handsSheet(held: HeldCards[], where: string): HTMLElement {
  const rows = held.map((h) =>
    el('li', {}, [
      el('b', {}, [h.who]),
      el('span', { class: 'replay-cards' }, [h.cards.length ? h.cards.map((c) => c.name).join(' ') : '(없음)']),
    ]),
  );
  return sheet('hands-sheet', `모든 패 · ${where}`, [el('ul', { class: 'replay-hands' }, rows)]);
}
