/**
 * The 포커 table's title, as each game's title.ts gives it (hula/title.ts, one-card/title.ts): variants
 * from the most to the least complete. Live: mode · betting · hand number. In a 복기 the lead ("복기 ·
 * 포커") comes first and stays in every variant, so a squeezed title still says it is a 복기; the
 * betting goes first, then the mode. `fitTitle` shows the first that fits and cuts the last with "…"
 * when none does.
 */
import type Phaser from 'phaser';
import { BETTING_NAME, MODE_NAME, type PokerView } from './model.ts';

export function titleVariants(v: PokerView, lead: string | null): string[] {
  const mode = v.options.mode === 'indian' && v.options.indianName === 'forehead' ? '이마 포커' : MODE_NAME[v.mode];
  const hand = v.hand ? `${v.hand.handNo}판` : '';
  const join = (...parts: string[]) => parts.filter((p) => p !== '').join(' · ');
  if (!lead) return [join(mode, BETTING_NAME[v.betting], hand)];
  return [join(lead, mode, BETTING_NAME[v.betting], hand), join(lead, mode, hand), join(lead, hand)];
}

export function fitTitle(t: Phaser.GameObjects.Text, width: number, variants: string[]): void {
  for (const text of variants) {
    t.setText(text);
    if (t.width <= width) return;
  }
  while (t.width > width && t.text.length > 4) t.setText(`${t.text.slice(0, -2)}…`);
}
