/**
 * What the waiting room and the room list say about a room's lifecycle
 * (issue 15): the lobby's notice on the room (`hostPassed`, …) and the
 * client's own reasons for sending someone back to the list (the room closed,
 * the seat is gone). The machine code picks the words; the lobby's Korean text
 * is shown only for a code this client does not know yet, so a newer lobby
 * still explains itself.
 */
import type { RoomDetail } from '@joke/lobby';
import { el } from './dom.ts';

export interface RoomNotice {
  code: string;
  text: string;
}

/** Why the waiting room sent the user back to the room list. */
export const LEFT_ROOM = {
  /** rooms.get answered NOT_FOUND: the lobby closed it (nobody connected for a while) or it was emptied. */
  roomClosed: '기다리던 방이 닫혔어요. 한동안 아무도 접속해 있지 않았어요',
  /** The room is there but no longer has us in a seat or in the gallery. */
  notMember: '이제 이 방에 내 자리가 없어요. 다른 방을 골라 주세요',
} as const;
export type LeftRoomCode = keyof typeof LEFT_ROOM;

/** The Korean line for a room's notice, as this viewer should read it. */
export function roomNoticeText(n: RoomNotice, room: Pick<RoomDetail, 'hostName' | 'you'>): string {
  switch (n.code) {
    case 'hostPassed':
      // Whoever holds the role now is the one the notice is about (the lobby only passes it on).
      return room.you.isHost
        ? '방장이 자리를 비워서 내가 새 방장이 됐어요. 이제 게임을 시작할 수 있어요'
        : `방장이 자리를 비워서 ${room.hostName} 님이 새 방장이 됐어요`;
    default:
      return n.text;
  }
}

/** The waiting room's banner for the room's latest transition, or nothing when there is none. */
export function roomNoticeBanner(room: Pick<RoomDetail, 'hostName' | 'you' | 'notice'>): HTMLElement | '' {
  const n = room.notice;
  if (!n) return '';
  return el('p', { class: 'room-notice', role: 'status', 'data-testid': 'room-notice', 'data-code': n.code }, [
    roomNoticeText(n, room),
  ]);
}
