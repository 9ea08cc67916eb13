/**
 * 내 기록 in the lobby (issue 41 item 5): per game, how many games I played, how many I won, my best
 * finish and (poker) the best hands that were mine — read from the lobby's history.record. Only my own
 * numbers: no chips, no ranking against anyone (seed §12). Stateless; a failed read says so in the list.
 */
import type { GameInfo } from '@joke/lobby';
import { lobby } from '../net/trpc.ts';
import { clear, el } from './dom.ts';

/** Fills `list` with my record; `games` names the games (ids until they are known). */
export function fillMyRecord(list: HTMLElement, games: () => Promise<GameInfo[]>): void {
  Promise.all([lobby.history.record.query(), games()])
    .then(([{ games: lines }, infos]) => {
      clear(list);
      if (lines.length === 0) list.append(el('li', { class: 'empty' }, ['게임을 끝내면 기록이 쌓여요']));
      for (const l of lines) {
        const name = infos.find((g) => g.id === l.game)?.name ?? l.game;
        const rate = l.games > 0 ? Math.round((l.wins / l.games) * 100) : 0;
        const hands = l.bestHands.map((h) => (h.times > 1 ? `${h.hand} ×${h.times}` : h.hand)).join(', ');
        list.append(
          el('li', { 'data-game': l.game }, [
            el('b', {}, [name]),
            ` ${l.games}판 · ${l.wins}승 (${rate}%)`,
            l.bestRank ? ` · 최고 ${l.bestRank}등` : '',
            hands ? el('span', { class: 'muted' }, [` · 베스트 핸드 ${hands}`]) : '',
          ]),
        );
      }
    })
    .catch(() => {
      clear(list);
      list.append(el('li', { class: 'empty' }, ['기록을 불러오지 못했어요']));
    });
}
