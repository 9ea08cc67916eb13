/**
 * Room invites by link (issue 41 item 5): the 초대 sheet shows `<origin>/?room=<id>` (with the invite code
 * for a private room, the only way into one) and sends it with the Web Share API where the browser has it,
 * else copies it and says "링크를 복사했어요" in a toast. Opening such a link (roomLinkFromUrl, read by the
 * lobby after sign-in) takes the reader to that room as a viewer first, so they see its rules in force
 * before 자리에 앉기. State: none beyond the page URL; the parameters are removed once used, so a reload
 * does not join again. Failure modes: a share the person cancels is not an error (nothing is said); a
 * clipboard the page may not write to shows the link selected in the sheet to copy by hand.
 */
import type { RoomDetail } from '@joke/lobby';
import { el } from './dom.ts';
import { sheet } from './sheets.ts';

export interface RoomLink {
  roomId: string;
  code: string | null;
}

/** The link that opens `room` directly; a private room's carries its code. */
export function inviteLink(room: Pick<RoomDetail, 'roomId' | 'isPrivate' | 'code'>, origin = location.origin): string {
  const q = new URLSearchParams({ room: room.roomId });
  if (room.isPrivate && room.code) q.set('code', room.code);
  return `${origin}/?${q.toString()}`;
}

/** The room a link opened this page for, if any. */
export function roomLinkFromUrl(search = location.search): RoomLink | null {
  const q = new URLSearchParams(search);
  const roomId = q.get('room');
  return roomId ? { roomId, code: q.get('code') } : null;
}

/** Forgets the room link in the address bar (other parameters, e.g. the renderer, stay). */
export function clearRoomLink(): void {
  const url = new URL(location.href);
  url.searchParams.delete('room');
  url.searchParams.delete('code');
  history.replaceState(history.state, '', url.toString());
}

/** A short notice at the bottom of the page, gone after a moment. */
export function domToast(text: string): void {
  document.querySelector('.dom-toast')?.remove();
  const t = el('div', { class: 'dom-toast', role: 'status', 'data-testid': 'toast' }, [text]);
  document.body.append(t);
  setTimeout(() => t.remove(), 2500);
}

/** Shares the link, or copies it; resolves to what happened. */
export async function sendInvite(title: string, url: string): Promise<'shared' | 'copied' | 'cancelled' | 'failed'> {
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share({ title, text: `${title} 같이 해요!`, url });
      return 'shared';
    } catch (e) {
      if (e instanceof DOMException && e.name === 'AbortError') return 'cancelled';
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    domToast('링크를 복사했어요');
    return 'copied';
  } catch {
    return 'failed';
  }
}

/** The 초대 sheet of a room: the link, the code, and one button to send it. */
export function openInviteSheet(room: RoomDetail, title: string): void {
  const url = inviteLink(room);
  const link = el('input', { class: 'invite-link', 'data-testid': 'invite-link', readonly: '', value: url });
  const canShare = typeof navigator.share === 'function';
  const send = el('button', { class: 'btn primary big', 'data-testid': 'invite-send' }, [
    canShare ? '링크 보내기' : '링크 복사',
  ]);
  const body = el('div', { class: 'sheet-body invite' }, [
    el('p', {}, ['이 링크를 받은 친구는 로그인하면 바로 이 방으로 들어와요.']),
    link,
    room.code ? el('p', { class: 'muted' }, [`초대 코드 `, el('b', {}, [room.code])]) : '',
    send,
  ]);
  const s = sheet('친구 초대', body, 'invite-sheet');
  send.addEventListener('click', () => {
    void sendInvite(title, url).then((how) => {
      if (how === 'failed') link.select();
      else if (how !== 'cancelled') s.close();
    });
  });
}
