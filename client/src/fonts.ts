/**
 * Pretendard (SIL OFL) is shipped with the app so Korean text looks the same
 * everywhere and canvas text never falls back to missing glyphs: three faces
 * subset to Latin, KS X 1001 Hangul and every character of the UI's sources
 * (src/fonts, made by scripts/subset-fonts.mjs; ≈ 185 KB each). Loaded
 * before Phaser draws any text: a canvas does not redraw when a font arrives.
 */
import regular from './fonts/Pretendard-Regular.woff2?url';
import semibold from './fonts/Pretendard-SemiBold.woff2?url';
import extrabold from './fonts/Pretendard-ExtraBold.woff2?url';

export async function loadFonts(timeoutMs = 8000): Promise<void> {
  if (typeof FontFace === 'undefined') return;
  const faces = [
    new FontFace('Pretendard', `url(${regular}) format('woff2')`, { weight: '400', display: 'block' }),
    new FontFace('Pretendard', `url(${semibold}) format('woff2')`, { weight: '600', display: 'block' }),
    new FontFace('Pretendard', `url(${extrabold}) format('woff2')`, { weight: '800', display: 'block' }),
  ];
  const all = Promise.all(
    faces.map(async (f) => {
      document.fonts.add(await f.load());
    }),
  );
  // A slow network must not keep the game from starting: system fonts then.
  await Promise.race([all.catch(() => undefined), new Promise((r) => setTimeout(r, timeoutMs))]);
}
