/**
 * The words of the room lifecycle notices (issue 15): the machine code picks
 * them, the viewer's place in the room shapes them, and only a code this
 * client does not know falls back to the lobby's own Korean text.
 */
import { describe, expect, it } from 'vitest';
import { LEFT_ROOM, roomNoticeText } from '../src/ui/room-notice.ts';

const room = (isHost: boolean) => ({ hostName: '손님둘', you: { seat: 1, spectating: false, isHost } });

describe('room lifecycle notices', () => {
  it('hostPassed tells the new host they can start, and everyone else who the host is now', () => {
    // The lobby's text is not what decides: a different string under the same code reads the same.
    const n = { code: 'hostPassed', text: '아무 문장' };
    expect(roomNoticeText(n, room(true))).toBe(
      '방장이 자리를 비워서 내가 새 방장이 됐어요. 이제 게임을 시작할 수 있어요',
    );
    expect(roomNoticeText(n, room(false))).toBe('방장이 자리를 비워서 손님둘 님이 새 방장이 됐어요');
  });

  it('a code this client does not know shows the lobby’s text', () => {
    expect(roomNoticeText({ code: 'somethingNew', text: '새 안내예요' }, room(false))).toBe('새 안내예요');
  });

  it('every reason for leaving a room has Korean words', () => {
    expect(Object.keys(LEFT_ROOM).sort()).toEqual(['notMember', 'roomClosed']);
    for (const text of Object.values(LEFT_ROOM)) expect(text).toMatch(/[가-힣]/);
  });
});
