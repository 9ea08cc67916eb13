/**
 * Pretendard (SIL OFL) is shipped with the app so Korean text looks the same
 * everywhere and canvas text never falls back to missing glyphs: three faces
 * subset to Latin, KS X 1001 Hangul and every character of the UI's sources
 * (src/fonts, made by scripts/subset-fonts.mjs; ≈ 185 KB each). Loaded
 * before Phaser draws any text: a canvas does not redraw when a font arrives.
 * The DOM lobby waits for them only briefly (entry.ts) and swaps when they come.
 * Loaded once: the lobby and the game chunk share one set of faces (index.html
 * preloads the same files, so the FontFace loads hit that download).
 */
import regular from './fonts/Pretendard-Regular.woff2?url';
import semibold from './fonts/Pretendard-SemiBold.woff2?url';
import extrabold from './fonts/Pretendard-ExtraBold.woff2?url';

let loading: Promise<void> | null = null;

/** Resolves when the three faces are in `document.fonts` (or failed), or after `timeoutMs`, whichever first. */
export async function loadFonts(timeoutMs = 8000): Promise<void> {
  if (typeof FontFace === 'undefined') return;
  loading ??= addFaces();
  // A slow network must not keep the game from starting: system fonts then.
  await Promise.race([loading, new Promise((r) => setTimeout(r, timeoutMs))]);
}

async function addFaces(): Promise<void> {
  const faces = [
    new FontFace('Pretendard', `url(${regular}) format('woff2')`, { weight: '400', display: 'block' }),
    new FontFace('Pretendard', `url(${semibold}) format('woff2')`, { weight: '600', display: 'block' }),
    new FontFace('Pretendard', `url(${extrabold}) format('woff2')`, { weight: '800', display: 'block' }),
  ];
  await Promise.all(
    faces.map(async (f) => {
      document.fonts.add(await f.load());
    }),
  ).catch(() => undefined);
}
