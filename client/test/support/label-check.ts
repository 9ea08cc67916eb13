/**
 * What a player would see wrong in the labels a table shows (window.__joke.labels()):
 * text off the screen, two labels on top of each other, a word cut in two by
 * wrapping. Pure, so the large-text test reads the same rules as table-fit.
 */
import { inside, overlaps } from '../../src/table-kit/rect.ts';
import type { ShownLabel } from '../../src/table-kit/labels.ts';

export function labelProblems(labels: ShownLabel[], width: number, height: number): string[] {
  // Half a pixel of font rounding is neither clipping nor an overlap.
  const shrink = (l: ShownLabel) => ({ x: l.x + 0.5, y: l.y + 0.5, w: l.w - 1, h: l.h - 1 });
  const screen = { x: -1, y: -1, w: width + 2, h: height + 2 };
  const out: string[] = [];
  const one = (l: ShownLabel) => l.text.replace(/\n/g, '⏎');
  for (const l of labels) {
    if (!inside(shrink(l), screen)) out.push(`off screen: "${one(l)}" ${JSON.stringify(shrink(l))}`);
    for (const word of l.text.split(/\s+/).filter(Boolean))
      if (!l.lines.some((line) => line.includes(word))) out.push(`broken word "${word}" in "${l.lines.join('⏎')}"`);
  }
  for (let i = 0; i < labels.length; i++)
    for (let j = i + 1; j < labels.length; j++)
      if (overlaps(shrink(labels[i]), shrink(labels[j]))) out.push(`"${one(labels[i])}" × "${one(labels[j])}"`);
  return out;
}
