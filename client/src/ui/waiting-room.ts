/**
 * The waiting room's card: seats with their tags, the host's bot and start
 * controls, the latest lifecycle notice (room-notice.ts), and the room's
 * rules in force (rules-in-force.ts). Drawn from one RoomDetail; the lobby (lobby.ts) polls the room
 * and redraws, and a mutation's answer redraws at once.
 */
import type { GameInfo, RoomDetail } from '@joke/lobby';
import { lobby } from '../net/trpc.ts';
import { loadSession } from '../net/session.ts';
import { clear, el } from './dom.ts';
import { rulesInForceList } from './rules-in-force.ts';
import { roomNoticeBanner } from './room-notice.ts';

export const STATUS_KO: Record<string, string> = { waiting: '대기 중', starting: '시작하는 중', playing: '게임 중' };

/** "원카드 · 색깔 카드"; a mode named like its game is not repeated. */
export function roomTitle(r: { gameName: string; modeName: string }): string {
  return r.modeName === r.gameName ? r.gameName : `${r.gameName} · ${r.modeName}`;
}

export interface WaitingRoomContext {
  games: () => GameInfo[];
  /** Asks for the games' metadata (the option summary needs it). */
  loadGames: () => void;
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
    const li = el('li', {}, [
      el('b', {}, [s.name]),
      tags.length ? el('span', { class: 'tags' }, [tags.join(' · ')]) : '',
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
  const game = ctx.games().find((g) => g.id === room.game);
  // The rules in force, open before anyone sits down at the table (issue 41).
  const rules = game
    ? rulesInForceList(game, room.mode, room.options)
    : el('p', { class: 'muted' }, ['규칙을 불러오는 중…']);
  if (!game) ctx.loadGames();
  body.append(
    el('section', { class: 'card room-info' }, [
      roomNoticeBanner(room),
      el('h2', {}, [roomTitle(room)]),
      el('p', {}, [
        `${STATUS_KO[room.status] ?? room.status} · ${room.seated}/${room.maxSeats}명`,
        room.code ? el('span', { class: 'code', 'data-testid': 'room-code' }, [` 초대 코드 ${room.code}`]) : '',
      ]),
      seats,
      room.spectators.length
        ? el('p', { class: 'muted' }, [`관전: ${room.spectators.map((s) => s.name).join(', ')}`])
        : '',
      controls,
    ]),
    el('section', { class: 'card room-rules' }, [rules]),
  );
}
