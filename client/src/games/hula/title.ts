/**
 * The 훌라 table's title (a 복기's lead, mode, round, the viewer's own points and 등록 mark)
 * fitted to the layout's title rect: the font shrinks from 14 px to 10 px
 * first; only when even 10 px is too wide does a less important part go —
 * the mode name first (the 규칙 button and the lobby name it too), then
 * each line is cut with "…".
 */
import type Phaser from 'phaser';
import type { Rect } from '../../table-kit/rect.ts';
import { points, type HulaView } from './model.ts';

const MODE_NAME = { monster: '괴물 훌라', joker: '조커 훌라' } as const;
const MAX_FONT = 14;
const MIN_FONT = 10;

/**
 * Title texts from the most to the least complete; `oneLine` for a short top bar (phone on its side).
 * `lead` ("복기 · 훌라", as poker/title.ts and one-card/title.ts take it) opens every variant, so a squeezed
 * title still says it is a 복기; live tables have none.
 */
export function titleVariants(v: HulaView, oneLine: boolean, lead: string | null = null): string[] {
  const mine = v.seats.find((s) => s.id === v.viewer);
  const round = `${v.round}/${v.roundsTotal}판`;
  const own = mine ? `내 점수 ${points(mine.points)}${mine.registered ? ' · 등록' : ''}` : '';
  const join = (...parts: string[]) => parts.filter((p) => p !== '').join(oneLine ? ' · ' : '\n');
  // The 복기's lead says the game; its mode is on the 규칙 button.
  if (lead) return [join(lead, [round, own].filter((p) => p !== '').join(' · ')), join(lead, round)];
  return [join(`${MODE_NAME[v.mode]} · ${round}`, own), join(round, own)];
}

const fits = (t: Phaser.GameObjects.Text, r: Rect) => t.width <= r.w && t.height <= r.h;

/** Sets `t` to the first variant that fits `rect` at the largest font that fits, centred in the rect's height. */
export function fitTitle(t: Phaser.GameObjects.Text, rect: Rect, variants: string[]): void {
  let done = false;
  for (const text of variants) {
    t.setText(text);
    for (let size = MAX_FONT; size >= MIN_FONT && !done; size--) {
      t.setFontSize(size);
      done = fits(t, rect);
    }
    if (done) break;
  }
  if (!done) {
    // Even the shortest variant at 10 px is too wide: cut its longest line until it fits.
    const lines = variants[variants.length - 1].split('\n').map((l) => [...l]);
    const cut = lines.map(() => false);
    while (!fits(t, rect) && lines.some((l) => l.length > 2)) {
      const i = lines.reduce((best, l, j) => (l.length > lines[best].length ? j : best), 0);
      lines[i].pop();
      cut[i] = true;
      t.setText(lines.map((l, j) => l.join('') + (cut[j] ? '…' : '')).join('\n'));
    }
  }
  t.setPosition(rect.x, rect.y + Math.max(0, (rect.h - t.height) / 2));
}
