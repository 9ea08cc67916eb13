/**
 * What a nickname may be. Names are shown to other players next to their
 * cards and in chat, so a name must look like what it is: no invisible or
 * control characters (a blank or right-to-left-flipped name), no lone
 * surrogate halves (they break JSON consumers and render as �), and no
 * full-width copies of ASCII letters (ＡＤＭＩＮ beside ADMIN).
 *
 * Choices (docs/security.md): full-width ASCII (U+FF01–FF5E) and every kind
 * of space are folded to their plain form, rather than refused, because
 * Korean IMEs produce full-width letters and U+3000 easily; the other
 * half-width/full-width forms (U+FF5F–FFEF: half-width katakana and Hangul
 * jamo, full-width symbols) are refused. Full NFKC is not used: it would
 * turn compatibility jamo such as ㅋㅋ into conjoining jamo that render as
 * broken syllables.
 */

/** UTF-16 units accepted before any normalisation (a 12-character name of emoji is 48 units). */
export const NICKNAME_MAX_UNITS = 64;

/**
 * Cc control, Cf format (zero-width, bidi overrides), Zl/Zp line breaks,
 * Co private use, Cn unassigned, and Default_Ignorable_Code_Point (Hangul
 * fillers U+115F/U+1160/U+3164/U+FFA0, variation selectors, the combining
 * grapheme joiner, soft hyphen …), plus the braille blank that renders empty.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}\p{Default_Ignorable_Code_Point}\u2800]/u;
/** In a `u` regex a surrogate class only matches a half that has no partner. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const FULL_WIDTH_ASCII = /[\uFF01-\uFF5E]/g;
const OTHER_WIDTH_FORMS = /[\uFF5F-\uFFEF]/u;
const SPACES = /\p{Zs}+/gu;

/** The stored form of a nickname, or null if it has characters a name may not have. */
export function normalizeNickname(raw: string): string | null {
  if (LONE_SURROGATE.test(raw)) return null;
  const s = raw
    .normalize('NFC')
    .replace(FULL_WIDTH_ASCII, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
    .replace(SPACES, ' ')
    .trim();
  if (INVISIBLE.test(s) || OTHER_WIDTH_FORMS.test(s)) return null;
  return s;
}

/** Characters as a person counts them (code points; the input is already bounded). */
export function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}
