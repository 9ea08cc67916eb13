/**
 * The operator's fair-play page at /operator (Korean): asks for the operator token, keeps it in this tab's
 * sessionStorage only, and lists what operator.fairplay returns: flagged pairs with their evidence hands,
 * each linked to its 복기 (`/?replay=<gameId>`), and flagged accounts. Static: the page holds no data, so
 * serving it needs no credential; every datum comes from the procedure, which refuses without the token.
 * Names are players' own nicknames: the script only ever sets textContent, never HTML. Script in its own
 * file so the page's Content-Security-Policy can forbid inline script.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

const HTML = `<!doctype html>
<html lang="ko">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>공정 플레이 점검 — 운영자</title>
<style>
body { font-family: system-ui, sans-serif; margin: 1.5rem; color: #222; }
table { border-collapse: collapse; margin: .5rem 0 1.5rem; }
th, td { border: 1px solid #ccc; padding: .3rem .5rem; text-align: left; vertical-align: top; font-size: .9rem; }
th { background: #f3f3f3; }
.muted { color: #777; } .err { color: #b00; } ul { margin: 0; padding-left: 1.1rem; }
</style>
</head>
<body>
<h1>공정 플레이 점검</h1>
<form id="login"><label>운영자 토큰 <input id="token" type="password" autocomplete="off" size="40"></label>
<button type="submit">불러오기</button></form>
<p id="status" class="muted"></p>
<h2>의심 짝 (소프트 플레이 · 칩 몰아주기)</h2>
<table id="pairs"><thead><tr><th>플레이어 A</th><th>플레이어 B</th><th>함께 친 판</th><th>같은 테이블 비율</th><th>A가 B에게서 딴 칩</th><th>서로 레이즈 (기대)</th><th>강한 패 폴드</th><th>p</th><th>증거 판 (복기)</th></tr></thead><tbody></tbody></table>
<h2>의심 계정 (봇 같은 시간 · 승률)</h2>
<table id="accounts"><thead><tr><th>플레이어</th><th>판 수</th><th>평균 생각 시간</th><th>시간 변동계수</th><th>100판당 기본 단위</th><th>z</th></tr></thead><tbody></tbody></table>
<script src="/operator/app.js"></script>
</body>
</html>
`;

const JS = `'use strict';
const $ = (id) => document.getElementById(id);
const cell = (tr, text) => { const td = document.createElement('td'); td.textContent = String(text); tr.appendChild(td); return td; };
const pct = (x) => (x * 100).toFixed(1) + ' %';
const sci = (x) => (x < 0.001 ? x.toExponential(1) : x.toFixed(3));
const who = (p) => p.name + ' (' + p.id + ')';
async function load(token) {
  $('status').textContent = '불러오는 중…';
  $('status').className = 'muted';
  const res = await fetch('/trpc/operator.fairplay', { headers: { authorization: 'Bearer ' + token } });
  const body = await res.json();
  if (!res.ok) throw new Error(body.error && body.error.message ? body.error.message : '불러오지 못했어요');
  return body.result.data;
}
function render(data) {
  const pairs = $('pairs').tBodies[0];
  const accounts = $('accounts').tBodies[0];
  pairs.replaceChildren();
  accounts.replaceChildren();
  for (const p of data.pairs) {
    const tr = document.createElement('tr');
    tr.dataset.pair = p.a.id + '|' + p.b.id;
    cell(tr, who(p.a));
    cell(tr, who(p.b));
    cell(tr, p.hands + '판 / ' + p.games + '게임');
    cell(tr, pct(p.tableOverlap));
    cell(tr, p.chipsAFromB);
    const s = p.flag.softPlay;
    cell(tr, s.raisedEachOther + '/' + s.facedEachOther + ' (' + pct(s.expectedRate) + ') p=' + sci(s.p));
    const d = p.flag.chipDumping;
    cell(tr, d.strongFolds + '/' + d.strongFacing + ' (평소 ' + pct(d.usualRate) + ') p=' + sci(d.p));
    cell(tr, sci(p.flag.p));
    const ul = document.createElement('ul');
    for (const e of p.evidence) {
      const li = document.createElement('li');
      const a = document.createElement('a');
      a.href = e.replayUrl;
      a.textContent = e.gameId + ' #' + e.handNo;
      li.appendChild(a);
      li.appendChild(document.createTextNode(' ' + (e.kind === 'strongFold' ? '강한 패 폴드' : '큰 팟') + ' ' + e.chips + '칩'));
      ul.appendChild(li);
    }
    cell(tr, '').appendChild(ul);
    pairs.appendChild(tr);
  }
  for (const a of data.accounts) {
    const tr = document.createElement('tr');
    cell(tr, a.name + ' (' + a.id + ')');
    cell(tr, a.hands);
    cell(tr, (a.thinkMeanMs / 1000).toFixed(1) + '초');
    cell(tr, a.thinkCv.toFixed(2));
    cell(tr, a.unitsPer100.toFixed(1));
    cell(tr, a.z.toFixed(1));
    accounts.appendChild(tr);
  }
  $('status').textContent = '의심 짝 ' + data.pairs.length + '개, 의심 계정 ' + data.accounts.length + '개';
}
async function run() {
  const token = sessionStorage.getItem('operatorToken');
  if (!token) return;
  try { render(await load(token)); } catch (e) { $('status').textContent = e.message; $('status').className = 'err'; }
}
$('login').addEventListener('submit', (ev) => {
  ev.preventDefault();
  sessionStorage.setItem('operatorToken', $('token').value.trim());
  $('token').value = '';
  void run();
});
void run();
`;

const COMMON = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

/** Handler mounted at /operator: the page, and its script at /operator/app.js. */
export function operatorPage(req: IncomingMessage, res: ServerResponse): void {
  const path = (req.url ?? '/').split('?', 1)[0];
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD' }).end();
    return;
  }
  const [type, body] =
    path === '/operator' || path === '/operator/'
      ? ['text/html; charset=utf-8', HTML]
      : path === '/operator/app.js'
        ? ['text/javascript; charset=utf-8', JS]
        : [null, null];
  if (!type) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found');
    return;
  }
  const bytes = Buffer.from(body, 'utf8');
  res.writeHead(200, {
    ...COMMON,
    'content-type': type,
    'content-length': bytes.length,
    'content-security-policy':
      "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; form-action 'none'; frame-ancestors 'none'",
  });
  res.end(req.method === 'HEAD' ? undefined : bytes);
}
