/**
 * The report's offered-load section (issue 37 item 5): throughput, latency, refusals and errors plotted
 * against the offered tables of each level, as inline SVG in the report page's card style, plus a table of
 * the levels. Drawn here, not by uPlot: uPlot's x values must rise, and a curve comes back down (its last
 * level returns to 0.5× the knee to show recovery), so the points are joined in the order they were run and
 * the way back is drawn dashed.
 *
 * State: none. Failure modes: a level without acknowledged actions has no latency (plotted as a gap); all
 * text is escaped.
 */
import type { CurvePoint } from './offered-curve.ts';

const W = 600;
const H = 260;
const PAD = { l: 58, r: 16, t: 14, b: 40 };
const PALETTE = ['#2b6cb0', '#dd6b20', '#c53030', '#6b46c1', '#2f855a', '#b7791f'];

const esc = (s: string): string =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
const round = (v: number): number => Math.round(v * 10) / 10;

/** Tick values for 0..max: at most six round steps (1, 2 or 5 × a power of ten). */
export function ticks(max: number): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / 6;
  const p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw)!;
  const out: number[] = [];
  for (let v = 0; v <= max + step * 0.001; v += step) out.push(round(v));
  if (out[out.length - 1]! < max) out.push(round(out[out.length - 1]! + step));
  return out;
}

export interface CurveLine {
  name: string;
  /** One value per level (null = nothing measured). */
  values: (number | null)[];
}

/** One SVG plot: each line's values against the levels' offered tables, joined in run order. */
export function curvePlot(title: string, unit: string, offered: number[], lines: CurveLine[]): string {
  const xs = ticks(Math.max(...offered));
  const ys = ticks(Math.max(0, ...lines.flatMap((l) => l.values.filter((v): v is number => v !== null))));
  const xMax = xs[xs.length - 1]!;
  const yMax = ys[ys.length - 1]!;
  const px = (x: number) => round(PAD.l + (x / xMax) * (W - PAD.l - PAD.r));
  const py = (y: number) => round(H - PAD.b - (y / yMax) * (H - PAD.t - PAD.b));
  const parts: string[] = [];
  for (const y of ys)
    parts.push(
      `<line x1="${PAD.l}" x2="${W - PAD.r}" y1="${py(y)}" y2="${py(y)}" stroke="#e3e6eb"/>`,
      `<text x="${PAD.l - 6}" y="${py(y) + 4}" text-anchor="end" font-size="11">${y}</text>`,
    );
  for (const x of xs)
    parts.push(`<text x="${px(x)}" y="${H - PAD.b + 16}" text-anchor="middle" font-size="11">${x}</text>`);
  parts.push(
    `<line x1="${PAD.l}" x2="${W - PAD.r}" y1="${H - PAD.b}" y2="${H - PAD.b}" stroke="#1d2330"/>`,
    `<text x="${(PAD.l + W - PAD.r) / 2}" y="${H - 6}" text-anchor="middle" font-size="12">offered tables</text>`,
    `<text x="14" y="${(PAD.t + H - PAD.b) / 2}" text-anchor="middle" font-size="12" transform="rotate(-90 14 ${(PAD.t + H - PAD.b) / 2})">${esc(unit)}</text>`,
  );
  // The way up is solid; once the offered load falls again (recovery) the segments are dashed.
  lines.forEach((line, li) => {
    const color = PALETTE[li % PALETTE.length];
    for (let i = 1; i < offered.length; i++) {
      const a = line.values[i - 1];
      const b = line.values[i];
      if (a === null || a === undefined || b === null || b === undefined) continue;
      const back = offered[i]! < offered[i - 1]!;
      parts.push(
        `<line class="seg" x1="${px(offered[i - 1]!)}" y1="${py(a)}" x2="${px(offered[i]!)}" y2="${py(b)}" stroke="${color}" stroke-width="2"${back ? ' stroke-dasharray="5 4"' : ''}/>`,
      );
    }
    line.values.forEach((v, i) => {
      if (v === null || v === undefined) return;
      parts.push(
        `<circle class="pt" cx="${px(offered[i]!)}" cy="${py(v)}" r="4" fill="${color}"><title>${esc(`level ${i + 1}: ${offered[i]} offered, ${line.name} ${round(v)} ${unit}`)}</title></circle>`,
      );
    });
  });
  const legend = lines
    .map((l, i) => `<span style="color:${PALETTE[i % PALETTE.length]}">■</span> ${esc(l.name)}`)
    .join(' &nbsp; ');
  return (
    `<div class="chart curve"><h3>${esc(title)}</h3>` +
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(title)}">${parts.join('')}</svg>` +
    `<div class="legend">${legend}</div></div>`
  );
}

/** The report's "Against offered load" section: four plots and the table of levels. */
export function curveSection(curve: CurvePoint[]): string {
  if (curve.length === 0) return '';
  const offered = curve.map((p) => p.offered);
  const codes = [...new Set(curve.flatMap((p) => Object.keys(p.refusedKinds)))].sort();
  const kinds = [...new Set(curve.flatMap((p) => Object.keys(p.errorKinds)))].sort();
  const plots = [
    curvePlot('Throughput against offered load', 'actions/s', offered, [
      { name: 'actions/s', values: curve.map((p) => p.actionsPerSecond) },
    ]),
    curvePlot('Action → view latency against offered load', 'ms', offered, [
      { name: 'p50', values: curve.map((p) => p.p50) },
      { name: 'p99', values: curve.map((p) => p.p99) },
    ]),
    curvePlot('Refusals (by code) against offered load', 'refused', offered, [
      { name: 'refused (all)', values: curve.map((p) => p.refused) },
      ...codes.map((c) => ({ name: c, values: curve.map((p) => p.refusedKinds[c] ?? 0) })),
    ]),
    curvePlot('Errors against offered load', 'errors', offered, [
      { name: 'errors (all)', values: curve.map((p) => p.errors) },
      ...kinds.map((k) => ({ name: k, values: curve.map((p) => p.errorKinds[k] ?? 0) })),
    ]),
  ];
  const rows = curve
    .map((p) => {
      const refused = Object.entries(p.refusedKinds)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, n]) => `${k} ${n}`)
        .join(', ');
      const cells = [
        `${p.level + 1}`,
        `${p.offered}`,
        `${p.seated}`,
        `${p.refused}${refused ? ` (${refused})` : ''}`,
        `${p.errors}`,
        `${p.actionsPerSecond}`,
        p.p50 === null ? '—' : `${p.p50} ms`,
        p.p99 === null ? '—' : `${p.p99} ms`,
      ];
      const verdict = p.ok ? '<td class="pass">pass</td>' : `<td class="failed">FAIL: ${esc(p.why.join('; '))}</td>`;
      return `<tr>${cells.map((c, i) => `<td${i === 3 ? ' class="l"' : ''}>${esc(c)}</td>`).join('')}${verdict}</tr>`;
    })
    .join('');
  return (
    '<h2>Against offered load</h2><section class="charts" id="curve">' +
    plots.join('') +
    '</section><table id="curve-levels"><tr><th>level</th><th>offered</th><th>seated</th><th>refused</th>' +
    '<th>errors</th><th>actions/s</th><th>p50</th><th>p99</th><th>verdict</th></tr>' +
    rows +
    '</table>'
  );
}
