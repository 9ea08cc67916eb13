/**
 * 빠른 대전: the lobby card that queues with one tap (game, mode and table
 * size pre-chosen, last choice remembered) and the waiting screen that shows
 * how many wait, for how long, when bots will fill the table, that every
 * table is taken when the fleet is full (the server keeps the player queued
 * and retries), and leaves the queue with 대기 취소.
 * The queue itself is the matchmaker's (gateway `queue`/`unqueue`).
 */
import type { GameInfo } from '@joke/lobby';
import type { GatewayClient, QueueRequest, QueueStatus } from '../net/gateway.ts';
import { clear, el } from './dom.ts';

/** Table sizes offered per game: the ones people actually play; the server checks each mode's range. */
const COMMON_PLAYERS: Record<string, number[]> = {
  'one-card': [2, 3, 4, 5],
  poker: [2, 3, 4, 5, 6],
  hula: [2, 3, 4],
};

const CHOICE_KEY = 'joke.quick';

export function savedChoice(): QueueRequest {
  try {
    const c = JSON.parse(localStorage.getItem(CHOICE_KEY) ?? 'null') as Partial<QueueRequest> | null;
    if (c && typeof c.game === 'string' && typeof c.mode === 'string' && typeof c.players === 'number')
      return { game: c.game, mode: c.mode, players: c.players, bots: c.bots !== false };
  } catch {
    // A damaged entry just means the default choice.
  }
  return { game: 'one-card', mode: 'classic', players: 2, bots: true };
}

/** "원카드 · 2명", for the card and the waiting screen. */
export function describeQueue(games: GameInfo[], q: { game: string; mode: string; players: number }): string {
  const g = games.find((x) => x.id === q.game);
  const mode = g?.modes.find((m) => m.id === q.mode)?.name ?? q.mode;
  const name = g?.name ?? q.game;
  return `${mode === name ? name : `${name} · ${mode}`} · ${q.players}명`;
}

function options(select: HTMLSelectElement, items: { value: string; label: string }[], selected: string): void {
  clear(select);
  for (const it of items) select.append(el('option', { value: it.value }, [it.label]));
  select.value = items.some((i) => i.value === selected) ? selected : (items[0]?.value ?? '');
}

/** The lobby's 빠른 대전 card; `start` runs with the chosen queue (also saved for next time). */
export function quickMatchCard(games: GameInfo[], start: (q: QueueRequest) => void): HTMLElement {
  const choice = savedChoice();
  const gameSel = el('select', { 'data-testid': 'quick-game', 'aria-label': '게임' }) as HTMLSelectElement;
  const modeSel = el('select', { 'data-testid': 'quick-mode', 'aria-label': '모드' }) as HTMLSelectElement;
  const playersSel = el('select', { 'data-testid': 'quick-players', 'aria-label': '인원' }) as HTMLSelectElement;
  const bots = el('input', { type: 'checkbox', 'data-testid': 'quick-bots' }) as HTMLInputElement;
  bots.checked = choice.bots;
  const playable = games.filter((g) => g.id in COMMON_PLAYERS);
  options(
    gameSel,
    playable.map((g) => ({ value: g.id, label: g.name })),
    choice.game,
  );
  const refill = (mode: string, players: number) => {
    const g = playable.find((x) => x.id === gameSel.value);
    if (!g) return;
    options(
      modeSel,
      g.modes.map((m) => ({ value: m.id, label: m.name })),
      mode,
    );
    const counts = (COMMON_PLAYERS[g.id] ?? [2]).filter((n) => n >= g.minPlayers && n <= g.maxPlayers);
    options(
      playersSel,
      counts.map((n) => ({ value: String(n), label: `${n}명` })),
      String(players),
    );
  };
  refill(choice.mode, choice.players);
  gameSel.addEventListener('change', () => refill('', 0));
  const go = el('button', { class: 'btn primary big', 'data-testid': 'quick-match' }, ['빠른 대전']);
  go.addEventListener('click', () => {
    const q: QueueRequest = {
      game: gameSel.value,
      mode: modeSel.value,
      players: Number(playersSel.value),
      bots: bots.checked,
    };
    localStorage.setItem(CHOICE_KEY, JSON.stringify(q));
    start(q);
  });
  return el('section', { class: 'card quick' }, [
    el('h2', {}, ['빠른 대전']),
    el('p', { class: 'muted' }, ['같은 게임을 기다리는 사람과 바로 한 테이블에 앉아요']),
    el('div', { class: 'quick-row' }, [gameSel, modeSel, playersSel]),
    el('label', { class: 'field check' }, [bots, el('span', {}, ['오래 기다리면 빈 자리는 봇으로 채워도 좋아요'])]),
    go,
  ]);
}

/** "1:05" */
export function clockText(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** Shown while the server says the fleet is full: the wait is for a free table, not for players. */
export const FULL_LINE = '지금은 테이블이 가득 찼어요. 자리가 나면 바로 시작해요';

/** The waiting screen's lines for a status at local time `now` (a pure view model, unit-tested). */
export function waitingLines(
  status: QueueStatus | null,
  q: QueueRequest,
  elapsedMs: number,
  serverNow: number,
): { size: string; elapsed: string; bots: string; full: string } {
  const size =
    status?.waiting == null ? `${q.players}명 테이블 찾는 중…` : `기다리는 사람 ${status.waiting}/${q.players}명`;
  let bots = q.bots ? '' : '사람끼리만 기다려요';
  if (q.bots && status?.botsAt != null) {
    const left = status.botsAt - serverNow;
    bots = left > 0 ? `${Math.ceil(left / 1000)}초 뒤 빈 자리를 봇이 채워요` : '봇과 함께 테이블을 여는 중…';
  }
  return { size, elapsed: `기다린 시간 ${clockText(elapsedMs)}`, bots, full: status?.full ? FULL_LINE : '' };
}

/**
 * Queues on `gw` and shows the wait in `root` until matched (then `onMatched`) or cancelled
 * (then `onCancel`, after telling the server). Returns a stop function for when the screen is left.
 */
export function showWaiting(
  root: HTMLElement,
  gw: GatewayClient,
  q: QueueRequest,
  label: string,
  cb: { onMatched: (roomId: string) => void; onCancel: (message?: string) => void },
): () => void {
  const started = Date.now();
  let status: QueueStatus | null = null;
  const size = el('p', { class: 'queue-size', 'data-testid': 'queue-size' });
  const elapsed = el('p', { class: 'muted', 'data-testid': 'queue-elapsed' });
  const bots = el('p', { class: 'muted', 'data-testid': 'queue-bots' });
  const full = el('p', { class: 'queue-full', 'data-testid': 'queue-full', role: 'status' });
  const cancel = el('button', { class: 'btn secondary big', 'data-testid': 'queue-cancel' }, ['대기 취소']);
  const render = () => {
    const lines = waitingLines(status, q, Date.now() - started, gw.serverNow());
    size.textContent = lines.size;
    elapsed.textContent = lines.elapsed;
    bots.textContent = lines.bots;
    full.textContent = lines.full;
    full.hidden = lines.full === '';
  };
  const offs = [
    gw.on('queue', (s) => {
      status = s;
      render();
    }),
    gw.on('matched', (m) => {
      stop();
      cb.onMatched(m.roomId);
    }),
    gw.on('error', (message, code) => {
      if (code !== 'queueRejected' && code !== 'rateLimited') return;
      stop();
      cb.onCancel(message);
    }),
  ];
  const timer = setInterval(render, 1000);
  const stop = () => {
    clearInterval(timer);
    for (const off of offs) off();
  };
  cancel.addEventListener('click', () => {
    stop();
    gw.unqueue();
    cb.onCancel();
  });
  render();
  root.append(
    el('main', { class: 'center' }, [
      el('section', { class: 'card queue', 'data-testid': 'queue-screen', 'aria-live': 'polite' }, [
        el('div', { class: 'spinner', 'aria-hidden': 'true' }),
        el('h2', {}, ['상대를 찾는 중']),
        el('p', {}, [el('b', {}, [label])]),
        full,
        size,
        elapsed,
        bots,
        cancel,
      ]),
    ]),
  );
  gw.connect();
  gw.queue(q);
  return stop;
}
