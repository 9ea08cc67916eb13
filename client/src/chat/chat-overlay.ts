/**
 * The table's chat: a speech-bubble button opening quick phrases, emotes and (in private
 * rooms) a text box; the last lines float over the table; emotes pop up over
 * the sender's seat. Muting a player hides their lines and emotes on this
 * device only (the mute list lives for the tab, across tables). Refusals from
 * the server (too long, control characters, too fast, spectators in a
 * player-only room) are shown as they come, in Korean.
 *
 * DOM over the canvas rather than Phaser objects; the table scenes reserve
 * its places all the same (issue 41 §1): the button and the floating lines go
 * where the table's layout publishes them (chat-place.ts), and the open panel
 * takes a band of the page of its own — `chat-open` on the body shrinks the
 * game (styles.css), so the table lays itself out beside it instead of under it.
 */
import { CHAT_EMOTES, CHAT_PHRASES, chatBodyText, type ChatBody, type ChatMessage, type EmoteId } from '@joke/protocol';
import { el } from '../ui/dom.ts';
import { chatIcon } from '../ui/icons.ts';
import { chatBodyNode, emoteImage } from './emote-art.ts';
import { followChatPlace, type ChatPlace } from './chat-place.ts';

export interface ChatLine {
  from: string;
  name: string;
  kind: ChatBody['kind'];
  text: string;
}

export interface ChatState {
  open: boolean;
  /** Lines shown (muted senders' lines excluded), oldest first. */
  lines: ChatLine[];
  muted: string[];
  /** The last refusal, in Korean. */
  notice: string | null;
  /** Emotes popped over seats so far: sender and emote id. */
  emotes: { from: string; emote: string }[];
  canSend: boolean;
  canSendText: boolean;
}

export interface ChatOverlayOptions {
  send: (body: ChatBody) => void;
  /** The viewer's own user id (their lines get no mute button). */
  me: () => string | null;
  canSend: boolean;
  canSendText: boolean;
  /** Where a bubble from this sender stands: its bottom centre (page px) and its side. */
  anchor: (userId: string) => { x: number; y: number; size?: number };
}

/** Muted senders, for this tab. */
const muted = new Set<string>();
const LOG_MAX = 30;
const FEED_MS = 6000;
const EMOTE_MS = 2500;
/** Screens with no room for the panel's band beside the table (styles.css --chat-band / --chat-side). */
export const MODAL_QUERY =
  '(orientation: portrait) and (max-height: 789px), (orientation: landscape) and (max-width: 1279px)';

export class ChatOverlay {
  private readonly root: HTMLDivElement;
  private readonly panel: HTMLDivElement;
  private readonly log: HTMLUListElement;
  private readonly feed: HTMLUListElement;
  private readonly noticeEl: HTMLParagraphElement;
  private readonly received: ChatMessage[] = [];
  private readonly emotes: { from: string; emote: string }[] = [];
  private notice: string | null = null;
  private readonly toggle: HTMLButtonElement;
  private readonly offPlace: () => void;
  private timers = new Set<ReturnType<typeof setTimeout>>();

  constructor(
    parent: HTMLElement,
    private readonly opts: ChatOverlayOptions,
  ) {
    this.root = el('div', { class: 'chat', 'data-testid': 'chat' });
    const toggle = el('button', { class: 'chat-toggle', 'data-testid': 'chat-toggle', 'aria-label': '채팅' }, [
      chatIcon(),
    ]);
    this.toggle = toggle as HTMLButtonElement;
    toggle.addEventListener('click', () => this.setOpen(this.panel.hidden));
    this.feed = el('ul', { class: 'chat-feed', 'data-testid': 'chat-feed' });
    this.panel = el('div', { class: 'chat-panel', 'data-testid': 'chat-panel' });
    this.panel.hidden = true;
    this.log = el('ul', { class: 'chat-log', 'data-testid': 'chat-log' });
    this.noticeEl = el('p', { class: 'chat-notice', 'data-testid': 'chat-notice', role: 'status' });
    this.noticeEl.hidden = true;
    this.panel.append(this.log, this.noticeEl, ...this.senders());
    this.root.append(this.feed, toggle, this.panel);
    parent.append(this.root);
    this.offPlace = followChatPlace((p) => this.place(p));
  }

  /** Puts the button and the lines where the table reserved them (page px; null: the stylesheet's place). */
  private place(p: ChatPlace | null): void {
    const t = this.toggle.style;
    const f = this.feed.style;
    t.left = p ? `${p.button.x}px` : '';
    t.top = p ? `${p.button.y}px` : '';
    t.width = p ? `${p.button.w}px` : '';
    t.height = p ? `${p.button.h}px` : '';
    f.left = p ? `${p.feed.x}px` : '';
    f.top = p ? `${p.feed.y}px` : '';
    f.width = p ? `${p.feed.w}px` : '';
    f.maxWidth = p ? 'none' : '';
    f.maxHeight = p ? `${p.feed.h}px` : '';
  }

  private senders(): HTMLElement[] {
    if (!this.opts.canSend) return [el('p', { class: 'muted' }, ['관전 중에는 채팅을 볼 수만 있어요'])];
    const phrases = el('div', { class: 'chat-phrases' });
    CHAT_PHRASES.forEach((p, i) => {
      const b = el('button', { class: 'btn secondary small', 'data-testid': `chat-phrase-${i}` }, [p]);
      b.addEventListener('click', () => this.opts.send({ kind: 'phrase', phrase: i }));
      phrases.append(b);
    });
    const emotes = el('div', { class: 'chat-emotes' });
    for (const [id, face] of Object.entries(CHAT_EMOTES)) {
      const b = el('button', { class: 'chat-emote', 'data-testid': `chat-emote-${id}`, 'aria-label': face }, [
        emoteImage(id as EmoteId),
      ]);
      b.addEventListener('click', () => this.opts.send({ kind: 'emote', emote: id as EmoteId }));
      emotes.append(b);
    }
    const out: HTMLElement[] = [emotes, phrases];
    if (this.opts.canSendText) {
      const input = el('input', {
        'data-testid': 'chat-text',
        placeholder: '메시지 (비공개 방)',
        enterkeyhint: 'send',
      });
      const form = el('form', { class: 'chat-form' }, [
        input,
        el('button', { class: 'btn primary small', type: 'submit', 'data-testid': 'chat-send' }, ['보내기']),
      ]);
      form.addEventListener('submit', (ev) => {
        ev.preventDefault();
        // Sent as typed: the server cleans and judges it, and says why when it refuses.
        if (input.value.length === 0) return;
        this.opts.send({ kind: 'text', text: input.value });
        input.value = '';
      });
      out.push(form);
    }
    return out;
  }

  setOpen(open: boolean): void {
    this.panel.hidden = !open;
    // The panel's own band: the game shrinks beside it and the table relayouts (styles.css) — unless
    // the phone has no height to spare, where the panel is a sheet over the dimmed table.
    const modal = open && !!globalThis.matchMedia?.(MODAL_QUERY).matches;
    this.panel.classList.toggle('modal', modal);
    document.body.classList.toggle('chat-open', open && !modal);
  }

  /** Shows a relayed message; false when its sender is muted here. */
  receive(msg: ChatMessage): boolean {
    this.received.push(msg);
    if (this.received.length > LOG_MAX) this.received.shift();
    this.setNotice(null);
    if (muted.has(msg.from)) return false;
    if (msg.body.kind === 'emote') this.popEmote(msg.from, msg.body.emote);
    else this.addFeedLine(msg);
    this.renderLog();
    return true;
  }

  refused(message: string): void {
    this.setNotice(message);
    this.setOpen(true);
  }

  private setNotice(message: string | null): void {
    this.notice = message;
    this.noticeEl.textContent = message ?? '';
    this.noticeEl.hidden = message === null;
  }

  toggleMute(userId: string): void {
    if (muted.has(userId)) muted.delete(userId);
    else muted.add(userId);
    this.renderLog();
  }

  private visible(): ChatMessage[] {
    return this.received.filter((m) => !muted.has(m.from));
  }

  private renderLog(): void {
    this.log.replaceChildren();
    const me = this.opts.me();
    const senders = new Map<string, string>();
    for (const m of this.received) if (m.from !== me) senders.set(m.from, m.name);
    for (const m of this.visible()) this.log.append(el('li', {}, [el('b', {}, [`${m.name}: `]), chatBodyNode(m.body)]));
    // One mute switch per person who spoke here, muted ones included so they can be heard again.
    for (const [id, name] of senders) {
      const b = el('button', { class: 'btn ghost small', 'data-testid': `chat-mute-${id}` }, [
        muted.has(id) ? `${name} 음소거 해제` : `${name} 음소거`,
      ]);
      b.addEventListener('click', () => this.toggleMute(id));
      this.log.append(el('li', { class: 'chat-mute' }, [b]));
    }
  }

  private addFeedLine(m: ChatMessage): void {
    const li = el('li', {}, [el('b', {}, [`${m.name}: `]), chatBodyNode(m.body)]);
    this.feed.append(li);
    while (this.feed.children.length > 3) this.feed.firstElementChild?.remove();
    this.later(() => li.remove(), FEED_MS);
  }

  private popEmote(from: string, emote: EmoteId): void {
    this.emotes.push({ from, emote });
    const at = this.opts.anchor(from);
    const bubble = el('div', { class: 'chat-bubble', 'data-testid': `emote-${from}` }, [emoteImage(emote)]);
    bubble.style.left = `${at.x}px`;
    bubble.style.top = `${at.y}px`;
    const img = bubble.querySelector<HTMLElement>('.emote');
    if (img && at.size) {
      img.style.width = `${at.size}px`;
      img.style.height = `${at.size}px`;
    }
    this.root.append(bubble);
    this.later(() => bubble.remove(), EMOTE_MS);
  }

  private later(fn: () => void, ms: number): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }

  state(): ChatState {
    return {
      open: !this.panel.hidden,
      lines: this.visible().map((m) => ({ from: m.from, name: m.name, kind: m.body.kind, text: chatBodyText(m.body) })),
      muted: [...muted],
      notice: this.notice,
      emotes: this.emotes.filter((e) => !muted.has(e.from)),
      canSend: this.opts.canSend,
      canSendText: this.opts.canSendText,
    };
  }

  destroy(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.offPlace();
    document.body.classList.remove('chat-open');
    this.root.remove();
  }
}
