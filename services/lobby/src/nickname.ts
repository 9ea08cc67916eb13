/**
 * What a nickname may be. Names are shown to other players next to their
 * cards and in chat, so a name must look like what it is: no invisible or
 * control characters (a blank or right-to-left-flipped name), no lone
 * surrogate halves (they break JSON consumers and render as �), no
 * full-width copies of ASCII letters (ＡＤＭＩＮ beside ADMIN), and no
 * bracketed system word ("[시스템]").
 *
 * The character classes live in @joke/protocol (text-policy.ts) because chat
 * applies the same ones to its lines (issue 36); this module keeps the
 * lobby's imports stable. Choices (docs/security.md): full-width ASCII
 * (U+FF01–FF5E) and every kind of space are folded to their plain form,
 * rather than refused, because Korean IMEs produce full-width letters and
 * U+3000 easily; the other half-width/full-width forms (U+FF5F–FFEF) are
 * refused.
 */
export { codePoints, impersonatesSystem, NICKNAME_MAX_UNITS, normalizeNickname } from '@joke/protocol';
