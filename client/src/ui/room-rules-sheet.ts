/**
 * The room list's look before joining (issue 41): tapping a room's name opens its rules in
 * force (rules-in-force.ts) with 입장 and 관전 above them, so a player sees a house-rule room's
 * rules before taking a seat. Reads the room with rooms.get (open to anyone for a public room)
 * and the games' metadata from the shared catalog; a failure says so in the sheet.
 */
import { errorMessage, lobby } from '../net/trpc.ts';
import { gameCatalog } from '../net/games.ts';
import { el } from './dom.ts';
import { sheet } from './sheets.ts';
import { rulesInForceList } from './rules-in-force.ts';
import { roomTitle } from './waiting-room.ts';

export interface RoomRulesActions {
  /** Sits down in the room (the list's 입장). */
  join: () => void;
  /** Watches the room (the list's 관전). */
  spectate: () => void;
}

/** Opens the sheet for `roomId`; the buttons close it before acting. */
export function openRoomRules(roomId: string, actions: RoomRulesActions): void {
  const body = el('div', { class: 'sheet-body room-rules-sheet' }, [el('p', { class: 'muted' }, ['불러오는 중…'])]);
  const { close } = sheet('방 규칙', body, 'room-rules');
  Promise.all([lobby.rooms.get.query({ roomId }), gameCatalog()])
    .then(([room, games]) => {
      body.replaceChildren();
      const game = games.find((g) => g.id === room.game);
      const join = el('button', { class: 'btn primary', 'data-testid': 'room-rules-join' }, ['이 규칙으로 입장']);
      if (room.status !== 'waiting' || room.openSeats === 0) join.setAttribute('disabled', '');
      join.addEventListener('click', () => {
        close();
        actions.join();
      });
      const watch = el('button', { class: 'btn secondary', 'data-testid': 'room-rules-spectate' }, ['관전']);
      watch.addEventListener('click', () => {
        close();
        actions.spectate();
      });
      // The buttons above the list: on a phone the list runs past the fold.
      body.append(
        el('h3', {}, [roomTitle(room)]),
        el('div', { class: 'row' }, [join, watch]),
        game ? rulesInForceList(game, room.mode, room.options) : el('p', { class: 'muted' }, ['규칙 정보가 없어요']),
      );
    })
    .catch((e: unknown) => body.replaceChildren(el('p', { class: 'error' }, [errorMessage(e)])));
}
