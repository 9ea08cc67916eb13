/**
 * The pure parts of 한 판 더 and the invite link (issue 41 item 5): which buttons a result offers where,
 * and the link a room is shared by and read back from.
 */
import { describe, expect, it } from 'vitest';
import { resultActions, type TableExit } from '../src/table-kit/result-actions.ts';
import { inviteLink, roomLinkFromUrl } from '../src/ui/invite.ts';

describe('result buttons', () => {
  const panel = {
    closed: 0,
    close() {
      this.closed++;
    },
  };
  it('a lobby room table offers 한 판 더 first; a quick match does not; a 복기 only closes', () => {
    const went: TableExit[] = [];
    const room = resultActions(false, panel, (to) => went.push(to), true);
    expect(room.map((a) => [a.key, a.label])).toEqual([
      ['again', '한 판 더'],
      ['room', '대기실로'],
      ['lobby', '로비로'],
    ]);
    room[0].onTap();
    expect(went).toEqual(['again']);
    expect(resultActions(false, panel, () => undefined).map((a) => a.key)).toEqual(['room', 'lobby']);
    expect(resultActions(true, panel, () => undefined, true).map((a) => a.key)).toEqual(['close']);
  });
});

describe('invite link', () => {
  it('names the room, and carries the code only for a private room', () => {
    const origin = 'https://example.test';
    expect(inviteLink({ roomId: 'r_1', isPrivate: false, code: 'ABC123' }, origin)).toBe(
      'https://example.test/?room=r_1',
    );
    const priv = inviteLink({ roomId: 'r_2', isPrivate: true, code: 'XYZ789' }, origin);
    expect(priv).toBe('https://example.test/?room=r_2&code=XYZ789');
    expect(roomLinkFromUrl(new URL(priv).search)).toEqual({ roomId: 'r_2', code: 'XYZ789' });
    expect(roomLinkFromUrl('?room=r_1&renderer=canvas')).toEqual({ roomId: 'r_1', code: null });
    expect(roomLinkFromUrl('?renderer=canvas')).toBeNull();
  });
});
