/**
 * The lobby as an HTML overlay over the canvas: nickname sign-in, the room
 * list (polled), the create-room form generated from the engine's option
 * metadata, join by invite code or by a room link (invite.ts: opened after
 * sign-in, as a viewer first), 내 기록 (my-record.ts), and the waiting room
 * (polled here, its card drawn by waiting-room.ts; when the room is gone the
 * list says why; after 한 판 더 the poll re-sends a vote that could not start
 * the game yet). Forms are HTML so Korean IME input, autofill and screen
 * readers work as usual.
 */
import type { GameInfo, RoomDetail, RoomSummary } from '@joke/lobby';
import { TRPCClientError } from '@trpc/client';
import { errorMessage, isUnauthorized, lobby } from '../net/trpc.ts';
import { clearSession, loadSession, saveSession, type Session } from '../net/session.ts';
import { gateway, resetGateway } from '../app.ts';
import { clear, el } from './dom.ts';
import { buildOptionForm } from './option-form.ts';
import { gameCatalog } from '../net/games.ts';
import { openRoomRules } from './room-rules-sheet.ts';
import { openSettings } from './sheets.ts';
import { openGameRules } from './rules/game-rules.ts';
import { describeQueue, quickMatchCard, showWaiting } from './quick-match.ts';
import { tutorialEntry } from './tutorial-entry.ts';
import type { TutorialGame } from '../tutorial/lessons.ts';
import { BRAND } from '@joke/web/brand';
import { LEFT_ROOM, type LeftRoomCode } from './room-notice.ts';
import { STATUS_KO, fillWaitingRoom, roomTitle, type WaitingRoomContext } from './waiting-room.ts';
import type { QueueRequest } from '../net/gateway.ts';
import { replayIdFromUrl } from '../replay/route.ts';
import { fillMyRecord } from './my-record.ts';
import { clearRoomLink, roomLinkFromUrl, type RoomLink } from './invite.ts';

/** Games this client has a table for; others are listed but cannot be created here yet. */
export const PLAYABLE_GAMES = new Set(['one-card', 'poker', 'hula']);

export type LobbyScreen =
  | { name: 'login' }
  | { name: 'list' }
  | { name: 'create' }
  /** Waiting for a quick-match table. */
  | { name: 'queue'; q: QueueRequest }
  /**
   * `leftGame`: a game room just left or finished, not to be re-entered automatically; `again`: this person
   * pressed 한 판 더 on its result, so the vote is sent on arrival.
   */
  | { name: 'room'; roomId: string; leftGame?: string; again?: boolean };

/** The room this tab sits in, so a reload (or leaving a table mid-game) can find the way back. */
const ROOM_KEY = 'joke.room';
export function savedRoom(): string | null {
  return localStorage.getItem(ROOM_KEY);
}
function saveRoom(roomId: string | null): void {
  if (roomId) localStorage.setItem(ROOM_KEY, roomId);
  else localStorage.removeItem(ROOM_KEY);
}

export interface LobbyCallbacks {
  /** A game is on in a room we sit or watch in: open the table. */
  enterTable: (room: RoomDetail, spectate: boolean) => void;
  /** Quick match found a table: open game room `roomId` of `game`. */
  enterMatch: (roomId: string, game: string, title: string) => void;
  /** A first-game tutorial in the page (no server, no sign-in). */
  startTutorial: (game: TutorialGame) => void;
  /** 복기 of a finished game (from the recent games, or a link opened before signing in). */
  openReplay: (gameId: string) => void;
}

export class LobbyApp {
  readonly root: HTMLElement;
  private screen: LobbyScreen = { name: 'login' };
  private timer: ReturnType<typeof setInterval> | null = null;
  private games: GameInfo[] = [];
  private destroyed = false;
  private flash: string | null = null;
  /** Machine code of `flash` when it says why we left a room (the list's notice carries it). */
  private flashCode: LeftRoomCode | null = null;
  private stopWaiting: (() => void) | null = null;

  constructor(
    private readonly cb: LobbyCallbacks,
    initial?: LobbyScreen,
  ) {
    this.root = el('div', { class: 'lobby', 'data-testid': 'lobby' });
    document.getElementById('ui')!.append(this.root);
    const session = loadSession();
    const room = savedRoom();
    const linked = session && !initial ? roomLinkFromUrl() : null;
    if (linked) void this.openRoomLink(linked);
    else
      void this.go(
        initial ?? (!session ? { name: 'login' } : room ? { name: 'room', roomId: room } : { name: 'list' }),
      );
  }

  /**
   * An invite link (invite.ts) opened after sign-in: into the room as a viewer first, so the rules in force
   * show before 자리에 앉기; someone already in the room just goes back to it. A refusal lands on the list.
   */
  private async openRoomLink(link: RoomLink): Promise<void> {
    clearRoomLink();
    try {
      const seen = await lobby.rooms.get.query({ roomId: link.roomId });
      if (seen.you.seat === null && !seen.you.spectating)
        await lobby.rooms.spectate.mutate(link.code ? { code: link.code } : { roomId: link.roomId });
      void this.go({ name: 'room', roomId: link.roomId });
    } catch (e) {
      this.flash = errorMessage(e);
      void this.go({ name: 'list' });
    }
  }

  destroy(): void {
    this.destroyed = true;
    this.stopPolling();
    this.stopWaiting?.();
    this.root.remove();
  }

  private stopPolling(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private poll(fn: () => Promise<void>, ms: number): void {
    this.stopPolling();
    let running = false;
    const tick = async () => {
      if (running || this.destroyed) return;
      running = true;
      try {
        await fn();
      } finally {
        running = false;
      }
    };
    void tick();
    this.timer = setInterval(() => void tick(), ms);
  }

  async go(screen: LobbyScreen): Promise<void> {
    this.stopPolling();
    this.stopWaiting?.();
    this.stopWaiting = null;
    this.screen = screen;
    clear(this.root);
    if (screen.name !== 'login' && !loadSession()) return this.go({ name: 'login' });
    switch (screen.name) {
      case 'login':
        return this.renderLogin();
      case 'list':
        return this.renderList();
      case 'create':
        return this.renderCreate();
      case 'room':
        return this.renderRoom(screen.roomId, screen.leftGame, screen.again);
      case 'queue':
        return this.renderQueue(screen.q);
    }
  }

  private handleError(e: unknown, target: HTMLElement): void {
    if (isUnauthorized(e)) {
      clearSession();
      this.flash = '로그인이 만료됐어요. 다시 시작해 주세요';
      void this.go({ name: 'login' });
      return;
    }
    target.textContent = errorMessage(e);
    target.hidden = false;
  }

  private header(title: string, back?: () => void): HTMLElement {
    const session = loadSession();
    const left = el('div', { class: 'head-left' });
    if (back) {
      const b = el('button', { class: 'btn ghost', 'data-testid': 'back' }, ['← 뒤로']);
      b.addEventListener('click', back);
      left.append(b);
    }
    left.append(el('h1', {}, [title]));
    const right = el('div', { class: 'head-right' });
    const rules = el('button', { class: 'btn ghost', 'data-testid': 'lobby-rules' }, ['규칙']);
    rules.addEventListener('click', () => openGameRules());
    const settings = el('button', { class: 'btn ghost' }, ['설정']);
    settings.addEventListener('click', () => openSettings(() => undefined));
    right.append(rules, settings);
    if (session) right.append(el('span', { class: 'me', 'data-testid': 'me' }, [`${session.nickname} 님`]));
    return el('header', { class: 'lobby-head' }, [left, right]);
  }

  // ── sign in ─────────────────────────────────────────────────────────

  private renderLogin(): void {
    const err = el('p', { class: 'error', 'data-testid': 'error' });
    err.hidden = !this.flash;
    err.textContent = this.flash ?? '';
    this.flash = null;
    const input = el('input', {
      id: 'nickname',
      'data-testid': 'nickname',
      maxlength: '12',
      placeholder: '닉네임 (2~12자)',
      autocomplete: 'nickname',
      enterkeyhint: 'go',
    }) as HTMLInputElement;
    const prev = loadSession();
    if (prev) input.value = prev.nickname;
    const submit = el('button', { class: 'btn primary big', type: 'submit', 'data-testid': 'login' }, ['시작하기']);
    const form = el('form', { class: 'card login' }, [
      el('div', { class: 'logo', 'data-testid': 'brand' }, [
        el('span', {}, [BRAND.name.slice(0, 2)]),
        BRAND.name.slice(2),
      ]),
      el('p', { class: 'sub', 'data-testid': 'tagline' }, [BRAND.tagline]),
      el('label', { for: 'nickname' }, ['닉네임']),
      input,
      submit,
      err,
    ]);
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      submit.setAttribute('disabled', '');
      err.hidden = true;
      lobby.auth.guest
        .mutate({ nickname: input.value })
        .then((s: Session) => {
          saveSession({ userId: s.userId, nickname: s.nickname, token: s.token });
          // The socket (if any) said hello with the previous identity.
          resetGateway();
          // A private game's 복기 link asked for a sign-in: open it now.
          const linked = replayIdFromUrl();
          const roomLink = roomLinkFromUrl();
          if (linked) this.cb.openReplay(linked);
          else if (roomLink) void this.openRoomLink(roomLink);
          else void this.go({ name: 'list' });
        })
        .catch((e: unknown) => this.handleError(e, err))
        .finally(() => submit.removeAttribute('disabled'));
    });
    this.root.append(el('main', { class: 'center' }, [form, tutorialEntry(this.cb.startTutorial)]));
    setTimeout(() => input.focus(), 0);
  }

  // ── room list ───────────────────────────────────────────────────────

  private renderList(): void {
    const err = el('p', { class: 'error', 'data-testid': 'error' });
    err.hidden = true;
    const create = el('button', { class: 'btn primary', 'data-testid': 'create-room' }, ['방 만들기']);
    create.addEventListener('click', () => void this.go({ name: 'create' }));
    const code = el('input', {
      'data-testid': 'join-code',
      placeholder: '초대 코드',
      maxlength: '8',
      autocapitalize: 'characters',
    }) as HTMLInputElement;
    const joinBtn = el('button', { class: 'btn secondary', type: 'submit', 'data-testid': 'join-code-btn' }, [
      '코드로 입장',
    ]);
    const joinForm = el('form', { class: 'join-code' }, [code, joinBtn]);
    joinForm.addEventListener('submit', (ev) => {
      ev.preventDefault();
      lobby.rooms.join
        .mutate({ code: code.value.trim().toUpperCase() })
        .then((room) => void this.go({ name: 'room', roomId: room.roomId }))
        .catch((e: unknown) => this.handleError(e, err));
    });
    const logout = el('button', { class: 'btn ghost', 'data-testid': 'logout' }, ['로그아웃']);
    logout.addEventListener('click', () => {
      clearSession();
      saveRoom(null);
      resetGateway();
      void this.go({ name: 'login' });
    });
    const quick = el('div', { class: 'quick-slot' });
    // Why the last quick match ended without a table (refused by the server), until the next screen.
    const notice = el('p', { class: 'error', 'data-testid': 'notice' }, [this.flash ?? '']);
    if (this.flashCode) notice.dataset.code = this.flashCode;
    notice.hidden = !this.flash;
    this.flash = null;
    this.flashCode = null;
    const list = el('ul', { class: 'rooms', 'data-testid': 'room-list' });
    const history = el('ul', { class: 'history', 'data-testid': 'history' });
    const record = el('ul', { class: 'history', 'data-testid': 'my-record' });
    this.root.append(
      this.header(BRAND.name),
      el('main', { class: 'scroll' }, [
        notice,
        quick,
        tutorialEntry(this.cb.startTutorial),
        el('section', { class: 'card actions' }, [create, joinForm, logout]),
        err,
        el('h2', {}, ['열린 방']),
        list,
        el('h2', {}, ['최근 게임']),
        history,
        el('h2', {}, ['내 기록']),
        record,
      ]),
    );
    fillMyRecord(record, () => this.loadGames());
    void this.loadGames().then((games) => {
      if (this.screen.name === 'list' && games.length)
        quick.append(quickMatchCard(games, (q) => void this.go({ name: 'queue', q })));
    });
    lobby.history.mine
      .query({ limit: 5 })
      .then((h) => {
        clear(history);
        if (h.games.length === 0) history.append(el('li', { class: 'empty' }, ['아직 끝낸 게임이 없어요']));
        for (const g of h.games) {
          const replay = el('button', { class: 'btn ghost replay-link', 'data-testid': 'history-replay' }, ['복기']);
          replay.dataset.gameId = g.gameId;
          replay.addEventListener('click', () => this.cb.openReplay(g.gameId));
          history.append(el('li', {}, [el('b', {}, [g.myRank ? `${g.myRank}등` : '-']), ` ${g.summary}`, replay]));
        }
      })
      .catch(() => history.append(el('li', { class: 'empty' }, ['기록을 불러오지 못했어요'])));
    this.poll(async () => {
      try {
        const rooms = await lobby.rooms.list.query({ limit: 30 });
        if (this.screen.name !== 'list') return;
        this.fillRooms(list, rooms, err);
        err.hidden = true;
      } catch (e) {
        this.handleError(e, err);
      }
    }, 2000);
  }

  private fillRooms(list: HTMLElement, rooms: RoomSummary[], err: HTMLElement): void {
    // Rebuild only on change: a rebuild under a finger would swallow the tap.
    const key = JSON.stringify([rooms, savedRoom()]);
    if (list.dataset.key === key) return;
    list.dataset.key = key;
    clear(list);
    if (rooms.length === 0) list.append(el('li', { class: 'empty' }, ['열린 방이 없어요. 새로 만들어 보세요!']));
    for (const r of rooms) {
      const mine = r.roomId === savedRoom();
      const join = el('button', { class: 'btn primary small', 'data-testid': `join-${r.roomId}` }, [
        mine ? '돌아가기' : '입장',
      ]);
      const watch = el('button', { class: 'btn secondary small', 'data-testid': `spectate-${r.roomId}` }, ['관전']);
      if (!mine && (r.status !== 'waiting' || r.openSeats === 0)) join.setAttribute('disabled', '');
      if (mine) watch.hidden = true;
      const sitDown = () =>
        mine
          ? void this.go({ name: 'room', roomId: r.roomId })
          : lobby.rooms.join
              .mutate({ roomId: r.roomId })
              .then(() => void this.go({ name: 'room', roomId: r.roomId }))
              .catch((e: unknown) => this.handleError(e, err));
      const spectate = () =>
        lobby.rooms.spectate
          .mutate({ roomId: r.roomId })
          .then(() => void this.go({ name: 'room', roomId: r.roomId }))
          .catch((e: unknown) => this.handleError(e, err));
      join.addEventListener('click', sitDown);
      watch.addEventListener('click', spectate);
      // The room's name opens its rules in force before joining (room-rules-sheet.ts).
      const rules = el('button', { class: 'room-main', 'data-testid': `room-rules-${r.roomId}` }, [
        el('b', {}, [roomTitle(r)]),
        el('span', {}, [`방장 ${r.hostName} · ${r.seated}/${r.maxSeats}명 · 관전 ${r.spectatorCount} · 규칙 보기`]),
      ]);
      rules.addEventListener('click', () => openRoomRules(r.roomId, { join: sitDown, spectate }));
      list.append(
        el('li', { class: 'room', 'data-room': r.roomId }, [
          rules,
          el('span', { class: `badge ${r.status}` }, [STATUS_KO[r.status] ?? r.status]),
          el('div', { class: 'room-btns' }, [join, watch]),
        ]),
      );
    }
  }

  private async loadGames(): Promise<GameInfo[]> {
    if (this.games.length === 0) this.games = await gameCatalog().catch(() => []);
    return this.games;
  }

  // ── quick match ─────────────────────────────────────────────────────

  private async renderQueue(q: QueueRequest): Promise<void> {
    const games = await this.loadGames();
    if (this.screen.name !== 'queue') return;
    const label = describeQueue(games, q);
    const back = () => void this.go({ name: 'list' });
    this.root.append(this.header('빠른 대전'));
    const gw = await gateway();
    if (this.screen.name !== 'queue') return;
    this.stopWaiting = showWaiting(this.root, gw, q, label, {
      onMatched: (roomId) => this.cb.enterMatch(roomId, q.game, label),
      onCancel: (message) => {
        if (message) this.flash = message;
        back();
      },
    });
  }

  // ── create room ─────────────────────────────────────────────────────

  private async renderCreate(): Promise<void> {
    const err = el('p', { class: 'error', 'data-testid': 'error' });
    err.hidden = true;
    this.root.append(this.header('방 만들기', () => void this.go({ name: 'list' })));
    const main = el('main', { class: 'scroll' });
    this.root.append(main, err);
    try {
      if (this.games.length === 0) this.games = await gameCatalog();
    } catch (e) {
      this.handleError(e, err);
      return;
    }
    if (this.screen.name !== 'create') return;
    const playable = this.games.filter((g) => PLAYABLE_GAMES.has(g.id));
    const gameSel = el('select', { 'data-testid': 'game' }) as HTMLSelectElement;
    for (const g of this.games) {
      const o = el('option', { value: g.id }, [
        PLAYABLE_GAMES.has(g.id) ? g.name : `${g.name} (준비 중)`,
      ]) as HTMLOptionElement;
      if (!PLAYABLE_GAMES.has(g.id)) o.disabled = true;
      gameSel.append(o);
    }
    if (playable[0]) gameSel.value = playable[0].id;
    const form = el('form', { class: 'card create', 'data-testid': 'create-form' });
    const fields = el('div', { class: 'fields' });
    const privateBox = el('input', { type: 'checkbox', 'data-testid': 'private' }) as HTMLInputElement;
    const submit = el('button', { class: 'btn primary big', type: 'submit', 'data-testid': 'create-submit' }, [
      '방 만들기',
    ]);
    form.append(
      el('label', { class: 'field' }, [el('span', {}, ['게임']), gameSel]),
      fields,
      el('label', { class: 'field check' }, [privateBox, el('span', {}, ['비공개 방 (초대 코드로만 입장)'])]),
      submit,
    );
    main.append(form);

    let readValues: () => Record<string, unknown> = () => ({});
    const build = () => {
      const game = this.games.find((g) => g.id === gameSel.value);
      if (game) readValues = buildOptionForm(fields, game);
    };
    gameSel.addEventListener('change', build);
    build();
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      submit.setAttribute('disabled', '');
      err.hidden = true;
      lobby.rooms.create
        .mutate({ game: gameSel.value, options: readValues(), isPrivate: privateBox.checked })
        .then((room) => void this.go({ name: 'room', roomId: room.roomId }))
        .catch((e: unknown) => this.handleError(e, err))
        .finally(() => submit.removeAttribute('disabled'));
    });
  }

  // ── waiting room ────────────────────────────────────────────────────

  private renderRoom(roomId: string, leftGame?: string, again?: boolean): void {
    const err = el('p', { class: 'error', 'data-testid': 'error' });
    err.hidden = true;
    const body = el('main', { class: 'scroll' });
    saveRoom(roomId);
    // Our own leave empties the seat (or closes the room): a poll answered after it is no news.
    let leaving = false;
    const leave = () => {
      leaving = true;
      saveRoom(null);
      void lobby.rooms.leave
        .mutate({ roomId })
        .catch(() => undefined)
        .finally(() => void this.go({ name: 'list' }));
    };
    this.root.append(this.header('대기실', leave), body, err);
    const ctx: WaitingRoomContext = {
      games: () => this.games,
      loadGames: () => this.loadGames(),
      showing: (id) => this.screen.name === 'room' && this.screen.roomId === id,
      err,
      failed: (e) => this.handleError(e, err),
      started: (room) => this.cb.enterTable(room, false),
    };
    let entered = false;
    // 한 판 더 from the result: vote now; the poll below votes again when the vote could not start the game
    // (sent before the lobby had stored the finished game, or the last seat turned into a bot).
    let voted = again ? lobby.rooms.again.mutate({ roomId }).catch((e: unknown) => ctx.failed(e)) : null;
    this.poll(async () => {
      try {
        await voted;
        const room = await lobby.rooms.get.query({ roomId });
        if (leaving || this.screen.name !== 'room' || this.screen.roomId !== roomId) return;
        if (room.you.seat === null && !room.you.spectating) return this.backToList('notMember');
        if (readyToStart(room))
          voted = lobby.rooms.again.mutate({ roomId, bots: room.again!.bots }).catch(() => undefined);
        const fresh = room.gameRoomId !== null && room.gameRoomId !== leftGame;
        if (fresh && !entered) {
          entered = true;
          this.stopPolling();
          this.cb.enterTable(room, room.you.seat === null);
          return;
        }
        fillWaitingRoom(body, room, ctx);
      } catch (e) {
        if (leaving || this.screen.name !== 'room' || this.screen.roomId !== roomId) return;
        if (e instanceof TRPCClientError && (e.data as { code?: string } | undefined)?.code === 'NOT_FOUND')
          return this.backToList('roomClosed');
        this.handleError(e, err);
      }
    }, 1000);
  }

  /** The room we waited in is gone for us: back to the list, saying why. */
  private backToList(code: LeftRoomCode): void {
    saveRoom(null);
    this.flash = LEFT_ROOM[code];
    this.flashCode = code;
    void this.go({ name: 'list' });
  }
}

/** Everyone at a waiting table agreed to 한 판 더 (I did too) and the table is big enough: my vote starts it. */
function readyToStart(room: RoomDetail): boolean {
  const a = room.again;
  const me = room.you.seat;
  return (
    room.status === 'waiting' &&
    !!a &&
    !a.short &&
    me !== null &&
    a.seats.includes(me) &&
    a.seats.length === room.seats.length
  );
}
