/**
 * Card pictures of the rules sheets: the table's own card art (cards/art.ts)
 * as <img> data URLs, one PNG per face and palette, drawn on first use. The
 * cache key carries the palette, so switching the §9 4-colour deck draws new
 * faces instead of showing the old inks. Large text needs nothing here: the
 * sheet grows by CSS zoom (styles.css, .large-text), the pictures with it.
 * Failure mode: no 2D canvas (never in a real browser) throws from the art.
 */
import { drawCardFace } from '../../cards/art.ts';
import { paletteKey } from '../../cards/art-common.ts';
import { faceKey, type Card } from '../../cards/model.ts';
import { el } from '../dom.ts';

const pictures = new Map<string, string>();

export function picture(card: Card): string {
  const key = faceKey(card) + paletteKey();
  let url = pictures.get(key);
  if (!url) {
    url = drawCardFace(card).toDataURL('image/png');
    pictures.set(key, url);
  }
  return url;
}

export interface PictureRow {
  cards: Card[];
  name: string;
  effect?: string;
}

/**
 * Rows of pictures beside a name and a line of text. `mini` draws small cards
 * (the 포커 족보: five per row must fit a 360 px phone beside the name).
 */
export function pictureRows(rows: PictureRow[], mini = false): HTMLElement {
  const table = el('div', { class: mini ? 'rule-cards mini' : 'rule-cards' });
  const [w, h] = mini ? ['28', '39'] : ['48', '67'];
  for (const row of rows) {
    const pics = el('div', { class: 'rule-pics' });
    for (const c of row.cards) pics.append(el('img', { src: picture(c), alt: row.name, width: w, height: h }));
    const text = el('div', { class: 'rule-text' }, [el('b', {}, [row.name])]);
    if (row.effect) text.append(el('p', {}, [row.effect]));
    table.append(el('div', { class: 'rule-row' }, [pics, text]));
  }
  return table;
}
