/**
 * The waiting room's card: seats with their tags, the host's bot and start
 * controls, 초대 (invite.ts), 한 판 더 after a game (who agreed; services/lobby
 * rooms/again.ts), the latest lifecycle notice (room-notice.ts), and the room's
 * rules in force (rules-in-force.ts). Drawn from one RoomDetail; the lobby (lobby.ts) polls the room
 * and redraws, and a mutation's answer redraws at once.
 */
import type { GameInfo, RoomDetail } from '@joke/lobby';
import { lobby } from '../net/trpc.ts';
import { loadSession } from '../net/session.ts';
import { clear, el } from './dom.ts';
import { rulesInForceList } from './rules-in-force.ts';
import { roomNoticeBanner } from './room-notice.ts';
import { openInviteSheet } from './invite.ts';

export const STATUS_KO: Record<string, string> = { waiting: '대기 중', starting: '시작하는 중', playing: '게임 중' };

/** "원카드 · 색깔 카드"; a mode named like its game is not repeated. */
export function roomTitle(r: { gameName: string; modeName: string }): string {
  return r.modeName === r.gameName ? r.gameName : `${r.gameName} · ${r.modeName}`;
}

export interface WaitingRoomContext {
  games: () => GameInfo[];
  /** Asks for the games' metadata (the option summary needs it); resolves once it is known. */
  loadGames: () => Promise<unknown>;
  /** The waiting room of `roomId` is still on screen. */
  showing: (roomId: string) => boolean;
  err: HTMLElement;
  failed: (e: unknown) => void;
  /** The host's start went through: open the table. */
  started: (room: RoomDetail) => void;
}

/** Redraws `body` for `room`, unless it already shows exactly this room. */
export function fillWaitingRoom(body: HTMLElement, room: RoomDetail, ctx: WaitingRoomContext): void {
  const me = loadSession()?.userId;
  const key = JSON.stringify([room, ctx.games().length]);
  if (body.dataset.key === key) return;
  body.dataset.key = key;
  clear(body);
  // Mutations answer with the updated room: show it at once instead of waiting for the next poll.
  const act = (p: Promise<RoomDetail>) =>
    p
      .then((next) => {
        ctx.err.hidden = true;
        if (ctx.showing(next.roomId)) fillWaitingRoom(body, next, ctx);
      })
      .catch((e: unknown) => ctx.failed(e));
  const seats = el('ul', { class: 'seats', 'data-testid': 'seats' });
  for (const s of room.seats) {
    const tags = [s.bot ? '봇' : '', s.userId === room.hostId ? '방장' : '', s.userId === me ? '나' : ''].filter(
      Boolean,
    );
    const agreed = !s.bot && room.again?.seats.includes(s.seat);
    const li = el('li', { 'data-seat': String(s.seat) }, [
      el('b', {}, [s.name]),
      tags.length ? el('span', { class: 'tags' }, [tags.join(' · ')]) : '',
      agreed ? el('span', { class: 'tags agreed', 'data-testid': `agreed-${s.seat}` }, ['한 판 더 ✓']) : '',
    ]);
    if (s.bot && room.you.isHost && room.status === 'waiting') {
      const rm = el('button', { class: 'btn ghost small', 'data-testid': `remove-bot-${s.seat}` }, ['빼기']);
      rm.addEventListener('click', () => void act(lobby.rooms.removeBot.mutate({ roomId: room.roomId, seat: s.seat })));
      li.append(rm);
    }
    seats.append(li);
  }
  const free = room.maxSeats - room.seats.length;
  if (free > 0) seats.append(el('li', { class: 'empty' }, [`빈 자리 ${free}개`]));
  const controls = el('div', { class: 'row' });
  if (room.you.isHost && room.status === 'waiting') {
    const addBot = el('button', { class: 'btn secondary', 'data-testid': 'add-bot' }, ['봇 추가']);
    if (room.openSeats === 0) addBot.setAttribute('disabled', '');
    addBot.addEventListener('click', () => void act(lobby.rooms.addBot.mutate({ roomId: room.roomId })));
    const start = el('button', { class: 'btn primary big', 'data-testid': 'start' }, ['게임 시작']);
    if (room.seated < room.minPlayers) start.setAttribute('disabled', '');
    start.addEventListener('click', () => {
      start.setAttribute('disabled', '');
      lobby.rooms.start
        .mutate({ roomId: room.roomId })
        .then((r) => ctx.started(r.room))
        .catch((e: unknown) => {
          start.removeAttribute('disabled');
          ctx.failed(e);
        });
    });
    controls.append(addBot, start);
  } else if (room.status === 'waiting') {
    controls.append(
      el('p', { class: 'muted' }, [
        room.you.spectating
          ? '관전 중이에요. 게임이 시작되면 자동으로 테이블이 열려요'
          : '방장이 게임을 시작하기를 기다리는 중…',
      ]),
    );
  } else controls.append(el('p', { class: 'muted' }, [STATUS_KO[room.status] ?? '']));
  if (room.you.spectating && room.status === 'waiting' && room.openSeats > 0) {
    const sit = el('button', { class: 'btn secondary', 'data-testid': 'sit' }, ['자리에 앉기']);
    sit.addEventListener('click', () => void act(lobby.rooms.join.mutate({ roomId: room.roomId })));
    controls.append(sit);
  }
  const invite = el('button', { class: 'btn secondary', 'data-testid': 'invite' }, ['초대']);
  invite.addEventListener('click', () => openInviteSheet(room, roomTitle(room)));
  controls.append(invite);
  const game = ctx.games().find((g) => g.id === room.game);
  // The rules in force, open before anyone sits down at the table (issue 41).
  const rules = game
    ? rulesInForceList(game, room.mode, room.options)
    : el('p', { class: 'muted' }, ['규칙을 불러오는 중…']);
  // Redraw as soon as the catalogue arrives rather than at the next poll (up to a second of "loading").
  if (!game)
    void ctx.loadGames().then(() => {
      // Only if nothing newer was drawn meanwhile: a poll's fresher room wins over this one.
      if (ctx.games().length > 0 && ctx.showing(room.roomId) && body.dataset.key === key)
        fillWaitingRoom(body, room, ctx);
    });
  body.append(
    el('section', { class: 'card room-info' }, [
      roomNoticeBanner(room),
      el('h2', {}, [roomTitle(room)]),
      el('p', {}, [
        `${STATUS_KO[room.status] ?? room.status} · ${room.seated}/${room.maxSeats}명`,
        room.code ? el('span', { class: 'code', 'data-testid': 'room-code' }, [` 초대 코드 ${room.code}`]) : '',
      ]),
      seats,
      againPanel(room, act),
      room.spectators.length
        ? el('p', { class: 'muted' }, [`관전: ${room.spectators.map((s) => s.name).join(', ')}`])
        : '',
      controls,
    ]),
    el('section', { class: 'card room-rules' }, [rules]),
  );
}

/**
 * 한 판 더 after a game: how many people agreed, the button for those who have not, and (host) whether bots
 * take the seats of people who leave. Nothing before a room's first game.
 */
function againPanel(room: RoomDetail, act: (p: Promise<RoomDetail>) => void): HTMLElement | string {
  const again = room.again;
  if (!again || room.status !== 'waiting') return '';
  const people = room.seats.filter((s) => !s.bot);
  const agreed = people.filter((s) => again.seats.includes(s.seat)).length;
  const mine = room.you.seat !== null && again.seats.includes(room.you.seat);
  const box = el('div', { class: 'again', 'data-testid': 'again-panel' }, [
    el('p', {}, [el('b', {}, ['한 판 더 ']), `${agreed}/${people.length}명 동의`]),
  ]);
  const bots = el('input', { type: 'checkbox', 'data-testid': 'again-bots' });
  bots.checked = again.bots;
  const vote = () => act(lobby.rooms.again.mutate({ roomId: room.roomId, bots: room.you.isHost && bots.checked }));
  if (room.you.isHost) {
    bots.addEventListener('change', () => mine && vote());
    box.append(el('label', { class: 'field check' }, [bots, el('span', {}, ['나간 자리는 봇으로 채우기'])]));
  }
  if (again.short)
    box.append(
      el('p', { class: 'error', 'data-testid': 'again-short' }, [
        again.missing > 0
          ? `지난 판보다 ${again.missing}자리가 비었어요. 누가 앉거나 방장이 봇을 추가하면 시작해요`
          : `인원이 부족해요. 최소 ${room.minPlayers}명이 있어야 해요. 누가 앉거나 방장이 봇을 추가하면 시작해요`,
      ]),
    );
  if (room.you.seat !== null && !mine) {
    const btn = el('button', { class: 'btn primary big', 'data-testid': 'again' }, ['한 판 더']);
    btn.addEventListener('click', () => {
      btn.setAttribute('disabled', '');
      vote();
    });
    box.append(btn);
  } else if (mine) box.append(el('p', { class: 'muted' }, ['다른 사람이 동의하면 바로 시작해요']));
  return box;
}
