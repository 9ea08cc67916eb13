/**
 * The buttons under a game's result panel, the same for every game's table scene: a live table of a lobby
 * room offers 한 판 더 (the same people and options again, once all agree: services/lobby rooms/again.ts),
 * 대기실로 and 로비로; a quick-match table (no room to play on in) offers only the last two; a 복기 offers
 * only 닫기, which folds the panel away so the last position of the table can be read (the replay's own bar
 * is the way out, and stepping back or forward redraws as usual).
 * Pure: no state; a tap on 닫기 when the panel is already closed does nothing.
 */
export interface ResultAction {
  key: string;
  label: string;
  onTap: () => void;
}

/** Where a table goes when it closes itself: `again` is the waiting room with this person's 한 판 더 vote sent. */
export type TableExit = 'again' | 'room' | 'lobby';

export function resultActions(
  replay: boolean | undefined,
  panel: { close(): void },
  exit: (to: TableExit) => void,
  again = false,
): ResultAction[] {
  if (replay) return [{ key: 'close', label: '닫기', onTap: () => panel.close() }];
  return [
    ...(again ? [{ key: 'again', label: '한 판 더', onTap: () => exit('again') }] : []),
    { key: 'room', label: '대기실로', onTap: () => exit('room') },
    { key: 'lobby', label: '로비로', onTap: () => exit('lobby') },
  ];
}
