/**
 * Icons drawn as inline SVG rather than emoji: an emoji is whatever the device's emoji font makes of it
 * (a desktop Linux browser or a headless Chromium without one shows an empty box), while a path is the
 * same crisp shape at every pixel ratio and takes the button's text colour (`currentColor`).
 */
const SVG = 'http://www.w3.org/2000/svg';

/** A speech bubble with three dots, 24×24 units, sized by CSS (`.icon`). */
export function chatIcon(): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('class', 'icon');
  svg.setAttribute('aria-hidden', 'true');
  const bubble = document.createElementNS(SVG, 'path');
  bubble.setAttribute('d', 'M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H10l-5 4v-4H4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z');
  bubble.setAttribute('fill', 'currentColor');
  svg.append(bubble);
  for (const x of [7.5, 12, 16.5]) {
    const dot = document.createElementNS(SVG, 'circle');
    dot.setAttribute('cx', String(x));
    dot.setAttribute('cy', '11');
    dot.setAttribute('r', '1.6');
    dot.setAttribute('fill', 'rgba(0, 0, 0, 0.55)');
    svg.append(dot);
  }
  return svg;
}
