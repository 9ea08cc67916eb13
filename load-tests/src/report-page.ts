/**
 * The HTML report page: a header with the verdict and the thresholds, figure
 * cards, for an offered-load curve its section (curve-svg.ts), five time charts (action→view percentiles, actions/s, sockets and
 * tables, connect p95, errors by kind), the per-stage table and the totals per
 * metric. The script below runs in the browser on the embedded figures; it
 * leaves `window.__charts` (title and plotted point count of each chart) for
 * the test that opens the report in Chromium.
 */

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 0; background: #f6f7f9; color: #1d2330; }
header { background: #1d2330; color: #fff; padding: 16px 24px; }
header h1 { margin: 0 0 4px; font-size: 20px; }
header .verdict { display: inline-block; padding: 2px 10px; border-radius: 10px; font-weight: 600; margin-left: 8px; }
.ok { background: #1f9d55; color: #fff; } .fail { background: #d64545; color: #fff; }
main { padding: 16px 24px; max-width: 1280px; }
.cards { display: flex; flex-wrap: wrap; gap: 10px; margin: 8px 0 16px; }
.card { background: #fff; border-radius: 8px; padding: 10px 14px; min-width: 120px; box-shadow: 0 1px 2px #0002; }
.card b { display: block; font-size: 20px; }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(600px, 1fr)); gap: 14px; }
.chart { background: #fff; border-radius: 8px; padding: 8px; box-shadow: 0 1px 2px #0002; }
.chart h3 { margin: 4px 8px; font-size: 14px; }
table { border-collapse: collapse; background: #fff; margin: 8px 0 18px; box-shadow: 0 1px 2px #0002; }
th, td { padding: 5px 10px; border-bottom: 1px solid #e3e6eb; text-align: right; }
th:first-child, td:first-child, td.l { text-align: left; }
th { background: #eef0f4; }
.pass { color: #1f9d55; font-weight: 600; } .failed { color: #d64545; font-weight: 600; }
code { background: #eef0f4; padding: 1px 4px; border-radius: 3px; }
.chart svg { display: block; font-family: system-ui, sans-serif; fill: #1d2330; }
.chart .legend { margin: 4px 8px; font-size: 12px; }
`;

const SCRIPT = `
(function () {
  var R = JSON.parse(document.getElementById('report-data').textContent);
  var S = R.series;
  var el = function (tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  };
  var T = R.totals;
  document.getElementById('verdict').className = 'verdict ' + (R.ok ? 'ok' : 'fail');
  document.getElementById('verdict').textContent = R.ok ? 'PASS' : 'FAIL';
  document.getElementById('subtitle').textContent =
    R.generatedAt + ' · ' + R.stages.length + ' stages · ' + R.workers + ' worker(s) · target ' + R.options.url;
  var cards = [
    ['actions', T.actions], ['actions/s', T.actionsPerSecond], ['action→view p50', T.action.p50 + ' ms'],
    ['p95', T.action.p95 + ' ms'], ['p99', T.action.p99 + ' ms'], ['max', T.action.max + ' ms'],
    ['errors', T.errors], ['peak sockets', T.peakSockets], ['games finished', T.finished],
    ['connect p95', T.connect.p95 + ' ms'], ['sign-in p95', T.signin.p95 + ' ms'],
  ];
  var cardsEl = document.getElementById('cards');
  cards.forEach(function (c) { var d = el('div', { class: 'card' }, c[0]); d.appendChild(el('b', {}, String(c[1]))); cardsEl.appendChild(d); });

  var th = document.getElementById('thresholds');
  if (R.thresholds.length === 0) th.appendChild(el('p', {}, 'No thresholds given.'));
  else {
    var tt = el('table');
    tt.appendChild(el('tr')).innerHTML = '<th>threshold</th><th>measured</th><th>result</th>';
    R.thresholds.forEach(function (r) {
      var tr = el('tr');
      tr.appendChild(el('td', {}, r.threshold)); tr.appendChild(el('td', {}, String(r.actual)));
      tr.appendChild(el('td', { class: r.ok ? 'pass' : 'failed' }, r.ok ? 'pass' : 'FAIL'));
      tt.appendChild(tr);
    });
    th.appendChild(tt);
  }

  window.__charts = [];
  var palette = ['#2b6cb0', '#dd6b20', '#c53030', '#6b46c1', '#2f855a', '#b7791f', '#319795', '#97266d'];
  function chart(title, unit, names, columns, sparse) {
    var box = el('div', { class: 'chart' });
    box.appendChild(el('h3', {}, title));
    document.getElementById('charts').appendChild(box);
    var series = [{}].concat(names.map(function (n, i) {
      // Sparse series (connects happen in bursts) are drawn as points: a line across empty intervals would invent data.
      return { label: n, stroke: palette[i % palette.length], width: 2, spanGaps: !sparse, points: { show: !!sparse, size: 6 }, value: function (u, v) { return v == null ? '—' : (Math.round(v * 10) / 10) + ' ' + unit; } };
    }));
    var u = new uPlot({ width: 600, height: 260, series: series, axes: [{}, { label: unit }], scales: { x: { time: false } } }, [S.t].concat(columns), box);
    var points = columns.reduce(function (a, c) { return a + c.filter(function (v) { return v !== null && v !== undefined; }).length; }, 0);
    window.__charts.push({ title: title, series: names.length, points: points, canvas: !!box.querySelector('canvas') });
    return u;
  }
  chart('Action → view latency per interval', 'ms', ['p50', 'p95', 'p99', 'max'], [S.p50, S.p95, S.p99, S.max]);
  chart('Actions per second', 'actions/s', ['actions/s'], [S.actionsPerSecond]);
  chart('Open sockets and tables', 'count', ['sockets', 'tables (target)'], [S.sockets, S.tables]);
  chart('Connect and reconnect p95', 'ms', ['connect p95', 'reconnect p95 (storms)'], [S.connectP95, S.reconnectP95], true);
  var kinds = Object.keys(S.errors);
  chart('Errors per second by kind', 'errors/s', kinds.length ? kinds : ['none'], kinds.length ? kinds.map(function (k) { return S.errors[k]; }) : [S.t.map(function () { return 0; })]);

  var st = el('table');
  st.appendChild(el('tr')).innerHTML = '<th>stage</th><th>start</th><th>length</th><th>tables</th><th>actions</th><th>actions/s</th><th>p50</th><th>p95</th><th>p99</th><th>max</th><th>connect p95</th><th>errors</th>';
  R.stages.forEach(function (s) {
    var tr = el('tr');
    [ (s.index + 1) + '. ' + s.label, s.startS + ' s', s.durationS + ' s', s.kind === 'ramp' ? s.fromTables + '→' + s.toTables : String(s.toTables),
      s.actions, s.actionsPerSecond, s.action.p50 + ' ms', s.action.p95 + ' ms', s.action.p99 + ' ms', s.action.max + ' ms', s.connect.p95 + ' ms', s.errors,
    ].forEach(function (v, i) { tr.appendChild(el('td', i === 0 ? { class: 'l' } : {}, String(v))); });
    st.appendChild(tr);
  });
  document.getElementById('stages').appendChild(st);

  var mt = el('table');
  mt.appendChild(el('tr')).innerHTML = '<th>metric</th><th>count</th><th>p50</th><th>p90</th><th>p95</th><th>p99</th><th>max</th><th>mean</th>';
  ['action', 'connect', 'signin', 'reconnect'].forEach(function (m) {
    var s = T[m]; var tr = el('tr');
    [m, s.count, s.p50, s.p90, s.p95, s.p99, s.max, s.mean].forEach(function (v, i) { tr.appendChild(el('td', i === 0 ? { class: 'l' } : {}, String(v))); });
    mt.appendChild(tr);
  });
  document.getElementById('metrics').appendChild(mt);
  var ek = Object.keys(T.errorKinds);
  document.getElementById('errors').textContent = ek.length
    ? ek.map(function (k) { return k + ': ' + T.errorKinds[k]; }).join(' · ')
    : 'No errors. Raced (refused because another player moved first, not an error): ' + T.raced + '.';
  document.getElementById('options').textContent = JSON.stringify(R.options, null, 1);
})();
`;

/** `curveHtml`: the offered-load section (curve-svg.ts), server-drawn SVG; empty for a run without a curve. */
export function reportPage(p: { uplotJs: string; uplotCss: string; data: string; curveHtml?: string }): string {
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<title>joke-app load report</title>',
    `<style>${p.uplotCss}</style><style>${STYLE}</style></head><body>`,
    '<header><h1>joke-app load report <span id="verdict"></span></h1><div id="subtitle"></div></header>',
    '<main><section class="cards" id="cards"></section>',
    '<h2>Thresholds</h2><div id="thresholds"></div>',
    p.curveHtml ?? '',
    '<h2>Over time</h2><section class="charts" id="charts"></section>',
    '<h2>Stages</h2><div id="stages"></div>',
    '<h2>Totals per metric (ms, after the warm-up)</h2><div id="metrics"></div>',
    '<h2>Errors</h2><p id="errors"></p>',
    '<h2>Options</h2><details><summary>options of this run</summary><pre id="options"></pre></details></main>',
    `<script id="report-data" type="application/json">${p.data}</script>`,
    `<script>${p.uplotJs}</script>`,
    `<script>${SCRIPT}</script>`,
    '</body></html>',
  ].join('\n');
}
