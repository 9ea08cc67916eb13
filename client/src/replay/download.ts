/**
 * Saving a 복기: the record as JSON in exactly the format `npm run verify` reads (engine/src/record/cli.ts:
 * the GameRecord itself), and for poker the plain-text hand history (hand-history.ts). A browser that
 * refuses downloads simply saves nothing; there is no other failure.
 */
import type { ReplayDetail } from '@joke/lobby';
import { games } from '@joke/engine/client';
import { buildTimeline } from './timeline.ts';
import { pokerHandHistory } from './hand-history.ts';

function save(name: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function recordJson(detail: ReplayDetail): string {
  return `${JSON.stringify(detail.record, null, 2)}\n`;
}

export function saveRecord(detail: ReplayDetail): void {
  save(`joke-${detail.game}-${detail.gameId}.json`, 'application/json', recordJson(detail));
}

export function savePokerText(detail: ReplayDetail): void {
  const t = buildTimeline(games.poker, detail.record);
  save(`joke-poker-${detail.gameId}.txt`, 'text/plain;charset=utf-8', pokerHandHistory(detail.record, t.states));
}
