/**
 * The emotes as pictures (Noto Emoji, emotes/LICENSE.txt) rather than as emoji characters: a character
 * is whatever the device's emoji font draws — nothing but an empty box in a browser without one (a
 * desktop Linux, the headless Chromium of our tests) — while these look the same on every phone.
 * The character stays as the picture's alt text, so copying or a screen reader still gets it.
 */
import { CHAT_EMOTES, chatBodyText, type ChatBody, type EmoteId } from '@joke/protocol';
import angry from './emotes/angry.svg?url';
import clap from './emotes/clap.svg?url';
import cry from './emotes/cry.svg?url';
import smile from './emotes/smile.svg?url';
import thumbs from './emotes/thumbs.svg?url';
import wow from './emotes/wow.svg?url';
import { el } from '../ui/dom.ts';

const ART: Record<EmoteId, string> = { smile, cry, angry, wow, thumbs, clap };

export function emoteImage(emote: EmoteId): HTMLImageElement {
  return el('img', { class: 'emote', src: ART[emote], alt: CHAT_EMOTES[emote], draggable: 'false' });
}

/** A chat line's body as nodes: an emote as its picture, anything else as text. */
export function chatBodyNode(body: ChatBody): Node | string {
  return body.kind === 'emote' ? emoteImage(body.emote) : chatBodyText(body);
}
