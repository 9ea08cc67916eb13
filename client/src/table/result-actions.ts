/**
 * The buttons under a game's result panel, the same for every game's table scene: a live table offers
 * 대기실로 / 로비로; a 복기 offers only 닫기, which folds the panel away so the last position of the table
 * can be read (the replay's own bar is the way out, and stepping back or forward redraws as usual).
 * Pure: no state; a tap on 닫기 when the panel is already closed does nothing.
 */
export interface ResultAction {
  key: string;
  label: string;
  onTap: () => void;
}

export function resultActions(
  replay: boolean | undefined,
  panel: { close(): void },
  exit: (to: 'room' | 'lobby') => void,
): ResultAction[] {
  if (replay) return [{ key: 'close', label: '닫기', onTap: () => panel.close() }];
  return [
    { key: 'room', label: '대기실로', onTap: () => exit('room') },
    { key: 'lobby', label: '로비로', onTap: () => exit('lobby') },
  ];
}
