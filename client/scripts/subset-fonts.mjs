/**
 * Makes the three Pretendard faces the client ships (client/src/fonts/*.woff2)
 * instead of installing the 98 MB `pretendard` package: fetches the package
 * tarball once with `npm pack` into a temporary folder, subsets each face with
 * harfbuzz (subset-font) to what the UI can show, and writes woff2 files plus
 * the font's licence (SIL OFL 1.1, which allows subsetting and bundling).
 * Run from the repository root: `node client/scripts/subset-fonts.mjs`.
 *
 * Kept: printable ASCII and Latin-1, general punctuation, arrows, geometric
 * shapes and card suits, CJK punctuation, Hangul compatibility jamo, the 2,350
 * Hangul syllables of KS X 1001 (what EUC-KR encodes: nearly all Korean text),
 * and every other character found in the client's and engine's sources (the
 * UI's own words). All 11,172 syllables would make each face 620 KB instead
 * of ≈ 300 KB; a rare syllable in a nickname is drawn by the browser's
 * fallback font instead.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import subsetFont from 'subset-font';

const VERSION = '1.3.9';
// The npm package has no licence file of its own; its package.json says OFL-1.1.
const NOTICE = `Pretendard ${VERSION} by Kil Hyung-jin (github.com/orioncactus/pretendard), licensed under
the SIL Open Font License, Version 1.1 (https://openfontlicense.org/open-font-license-official-text/).
The .woff2 files beside this notice are subsets of the npm package pretendard@${VERSION}, made by
client/scripts/subset-fonts.mjs; they may be used, bundled and redistributed under that licence,
whose full text (the package's own dist/LICENSE.txt, with the copyright notice) follows: the OFL
asks every copy of the fonts to carry it.

`;
const FACES = ['Regular', 'SemiBold', 'ExtraBold'];
const RANGES = [
  [0x20, 0x7e],
  [0xa0, 0xff],
  [0x2010, 0x2027],
  [0x2030, 0x203a],
  [0x2190, 0x2193],
  [0x25a0, 0x25ff],
  [0x2660, 0x2667],
  [0x3000, 0x303f],
  [0x3131, 0x318e],
];
const root = fileURLToPath(new URL('../../', import.meta.url));
const out = fileURLToPath(new URL('../src/fonts/', import.meta.url));

/** The Hangul syllables of KS X 1001: every two-byte EUC-KR code in rows 0xB0–0xC8. */
function ksx1001Syllables() {
  const dec = new TextDecoder('euc-kr');
  let s = '';
  for (let hi = 0xb0; hi <= 0xc8; hi++) for (let lo = 0xa1; lo <= 0xfe; lo++) s += dec.decode(new Uint8Array([hi, lo]));
  return [...s].filter((c) => c >= '\uac00' && c <= '\ud7a3').join('');
}

/** Every non-ASCII character of the UI's sources (Korean labels, symbols). */
function sourceChars() {
  const files = execFileSync('git', ['ls-files', 'client/src', 'client/index.html', 'engine/src'], {
    cwd: root,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((f) => /\.(ts|css|html)$/.test(f));
  const chars = new Set();
  for (const f of files) for (const c of readFileSync(join(root, f), 'utf8')) if (c.codePointAt(0) > 0x7f) chars.add(c);
  return [...chars].join('');
}

const text =
  RANGES.flatMap(([a, b]) => Array.from({ length: b - a + 1 }, (_, i) => String.fromCodePoint(a + i))).join('') +
  ksx1001Syllables() +
  sourceChars();
console.log(`${[...new Set(text)].length} characters`);
const tmp = mkdtempSync(join(tmpdir(), 'pretendard-'));
try {
  const tgz = execFileSync('npm', ['pack', `pretendard@${VERSION}`, '--silent', '--pack-destination', tmp], {
    encoding: 'utf8',
  }).trim();
  execFileSync('tar', ['xzf', join(tmp, tgz), '-C', tmp]);
  for (const face of FACES) {
    const src = readFileSync(join(tmp, 'package/dist/web/static/woff2', `Pretendard-${face}.woff2`));
    const woff2 = await subsetFont(src, text, { targetFormat: 'woff2' });
    writeFileSync(join(out, `Pretendard-${face}.woff2`), woff2);
    console.log(`Pretendard-${face}.woff2: ${src.length} → ${woff2.length} bytes`);
  }
  writeFileSync(join(out, 'LICENSE.txt'), NOTICE + readFileSync(join(tmp, 'package/dist/LICENSE.txt'), 'utf8'));
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
