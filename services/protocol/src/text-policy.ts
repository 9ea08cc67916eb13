/**
 * What text people show each other may contain: one set of character classes
 * for nicknames (the lobby) and chat lines (gateway and room worker), so a
 * trick refused in a name is not relayed in chat. Pure functions, no state;
 * a refusal is a value, never an exception.
 *
 * The classes, and what each use does with them (docs/security.md):
 * - controls (C0/C1 but tab/newline, DEL), bidi controls and isolates,
 *   zero-width characters, line/paragraph separators, BOM, lone surrogate
 *   halves: a name or a chat line holding one is refused — a reversed or
 *   split line is deception, never an accident.
 * - invisible fillers: tag characters (U+E0000 block, used to smuggle hidden
 *   text), Hangul fillers (U+115F, U+1160, U+3164, U+FFA0), the braille
 *   blank (U+2800), variation selectors, the rest of
 *   Default_Ignorable_Code_Point, private use and unassigned code points.
 *   A name holding one is refused (a blank or look-alike name); chat strips
 *   them and refuses a line left with nothing visible. An emoji's own
 *   presentation selector (U+FE0F after a visible character) stays in chat:
 *   phones send ❤️ that way.
 * - combining marks: chat keeps at most MAX_MARKS_PER_BASE per base
 *   character (zalgo stacks dozens); Korean syllables are precomposed (NFC),
 *   so no Korean text loses anything.
 * - full-width ASCII and every kind of space fold to their plain form
 *   (Korean IMEs produce them), then a bracketed system word anywhere
 *   ("[시스템]", "【공지】", "[GM]"…) is refused: only the platform speaks
 *   as the system.
 * Full NFKC is not used: it would turn compatibility jamo such as ㅋㅋ into
 * conjoining jamo that render as broken syllables.
 */

/** Refused in names and chat: controls, bidi, zero-width, separators, BOM (whitespace controls are handled first). */
export const CONTROL_CHARS = /[\p{Cc}\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/u;
/** In a `u` regex a surrogate class only matches a half that has no partner. */
export const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
/**
 * Cf format, Zl/Zp, Co private use, Cn unassigned, Default_Ignorable_Code_Point (Hangul fillers
 * U+115F/U+1160/U+3164/U+FFA0, variation selectors, tag characters, CGJ, soft hyphen …), braille blank.
 */
export const INVISIBLE = /[\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}\p{Default_Ignorable_Code_Point}\u2800]/u;
const FULL_WIDTH_ASCII = /[\uFF01-\uFF5E]/g;
/** Half-width katakana and jamo, full-width symbols: refused in names (look-alikes), kept in chat. */
const OTHER_WIDTH_FORMS = /[\uFF5F-\uFFEF]/u;
const SPACES = /\p{Zs}+/gu;
/** Most combining marks chat keeps on one base character; the rest of a stack is dropped. */
export const MAX_MARKS_PER_BASE = 3;
const MARK = /\p{M}/u;
const VS16 = '\uFE0F';

/** Words only the platform itself may put in brackets (after folding; compared in lower case). */
const SYSTEM_WORDS = [
  '시스템',
  '공지',
  '공지사항',
  '운영자',
  '운영팀',
  '관리자',
  '알림',
  '서버',
  '경고',
  'gm',
  'system',
  'admin',
  'notice',
  'server',
  'mod',
];
const OPEN = '\\[\\(<{【〔〖「『《〈';
const CLOSE = '\\]\\)>}】〕〗」』》〉';
const SYSTEM_PREFIX = new RegExp(`[${OPEN}]\\s*(?:${SYSTEM_WORDS.join('|')})\\s*[${CLOSE}]`, 'iu');

/** Full-width ASCII to ASCII, every space to U+0020, NFC. */
export function foldWidthAndSpaces(s: string): string {
  return s
    .normalize('NFC')
    .replace(FULL_WIDTH_ASCII, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
    .replace(SPACES, ' ');
}

/** True when the text names the system in brackets ("[시스템]", "【공지】", "( GM )"…), after folding. */
export function impersonatesSystem(folded: string): boolean {
  return SYSTEM_PREFIX.test(folded);
}

/** UTF-16 units accepted before any normalisation (a 12-character name of emoji is 48 units). */
export const NICKNAME_MAX_UNITS = 64;

/**
 * The stored form of a nickname, or null if it has characters a name may not have. A bracketed system
 * word is checked apart (`impersonatesSystem` on the result), so the lobby can say which rule it broke.
 */
export function normalizeNickname(raw: string): string | null {
  if (LONE_SURROGATE.test(raw)) return null;
  const s = foldWidthAndSpaces(raw).trim();
  if (CONTROL_CHARS.test(s) || INVISIBLE.test(s) || OTHER_WIDTH_FORMS.test(s)) return null;
  return s;
}

/** Characters as a person counts them (code points; the input is already bounded). */
export function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

export type TextVerdict = { ok: true; text: string } | { ok: false; why: 'control' | 'invisible' | 'impersonation' };

/**
 * A chat line after the policy: controls refused; invisible fillers stripped (a line with nothing
 * visible left is refused); combining-mark stacks cut to MAX_MARKS_PER_BASE; widths and spaces folded;
 * system impersonation refused. Whitespace controls (tab, newline…) must already be spaces.
 */
export function applyChatPolicy(spaced: string): TextVerdict {
  if (LONE_SURROGATE.test(spaced) || CONTROL_CHARS.test(spaced)) return { ok: false, why: 'control' };
  const folded = foldWidthAndSpaces(spaced);
  const hadText = folded.trim().length > 0;
  const out: string[] = [];
  let marks = 0;
  for (const ch of folded) {
    if (ch === VS16) {
      // An emoji's presentation selector right after a visible character stays; any other is padding.
      const prev = out.at(-1);
      if (prev !== undefined && prev !== VS16 && prev !== ' ' && marks === 0) out.push(ch);
      continue;
    }
    if (INVISIBLE.test(ch)) continue;
    if (MARK.test(ch)) {
      if (out.length > 0 && marks < MAX_MARKS_PER_BASE) out.push(ch);
      marks++;
      continue;
    }
    marks = 0;
    out.push(ch);
  }
  const stripped = out.join('');
  const visible = stripped.replace(/[\s\uFE0F\p{M}]/gu, '');
  if (visible.length === 0) return hadText ? { ok: false, why: 'invisible' } : { ok: true, text: '' };
  if (impersonatesSystem(stripped)) return { ok: false, why: 'impersonation' };
  return { ok: true, text: stripped };
}
