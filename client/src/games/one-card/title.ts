/**
 * The 원카드 table's title, as each game's title.ts gives it (hula/title.ts, poker/title.ts): variants
 * from the most to the least complete, all starting with the lead — the room's game name live, "복기 ·
 * 원카드" in a 복기. One line; the scene shows the first (the top bar has room for it at 360 px). Pure.
 */
import type { OneCardView } from '../../cards/model.ts';

const MODE_NAME: Record<string, string> = { classic: '클래식', 'uno-style': '색깔 카드' };

export function titleVariants(v: Pick<OneCardView, 'mode'>, lead: string): string[] {
  return [`${lead} · ${MODE_NAME[v.mode] ?? v.mode}`, lead];
}
