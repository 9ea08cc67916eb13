/**
 * A table source with life around it: sound and chat attach to the frames
 * and errors the table already receives, so the table scenes stay unaware of
 * both. Wrapping the gateway source is the whole hook (LobbyScene.enterTable):
 *
 * - every frame is turned into sound cues (sound/cues.ts), plus a tick in the
 *   last 5 seconds of the viewer's own turn, and a buzz when that turn starts;
 * - the chat overlay opens with the table and closes with it; chat refusals
 *   (error codes `chat…`) go to the chat, not to the table's banner.
 */
import type Phaser from 'phaser';
import type { ChatMessage } from '@joke/protocol';
import type { GatewayClient } from '../net/gateway.ts';
import { ChatOverlay } from '../chat/chat-overlay.ts';
import { seatAnchor } from '../chat/seat-anchor.ts';
import { cuesFor, warningSecond } from '../sound/cues.ts';
import { sound } from '../sound/player.ts';
import { TurnBuzz } from '../sound/turn-buzz.ts';
import type { TableHandlers, TableSource } from './source.ts';

export interface LivelyOptions {
  gw: GatewayClient;
  game: Phaser.Game;
  /** Private room: free text, and spectators may chat too (the lobby's chat policy). */
  isPrivate: boolean;
  /** Opens the 복기 of this game: a button for it appears once the game's result is in. */
  replay?: () => void;
}

let active: ChatOverlay | null = null;

/** The open table's chat, for the test hook. */
export function currentChat(): ChatOverlay | null {
  return active;
}

export function lively<A, V>(inner: TableSource<A, V>, opts: LivelyOptions): TableSource<A, V> {
  let overlay: ChatOverlay | null = null;
  let offChat: (() => void) | null = null;
  let ticker: ReturnType<typeof setInterval> | null = null;
  let lastView: unknown = null;
  let warned: string | null = null;
  let frames = 0;
  let replayButton: HTMLButtonElement | null = null;

  /** The result screen's way to the 복기: one DOM button under every game's table once its result is in. */
  const offerReplay = (): void => {
    if (replayButton || !opts.replay) return;
    const open = opts.replay;
    replayButton = document.createElement('button');
    replayButton.className = 'btn primary open-replay';
    // A band of its own under the table (the table relayouts above it), so it covers no result and no button.
    document.body.classList.add('replay-offered');
    replayButton.dataset.testid = 'open-replay';
    replayButton.textContent = '복기 보기';
    replayButton.addEventListener('click', () => open());
    document.body.append(replayButton);
  };
  const buzz = new TurnBuzz();

  const onFrame = (view: unknown, events: unknown[]): void => {
    lastView = view;
    const cues = cuesFor({ view, events }, frames++ === 0);
    for (const e of cues.effects) sound.play(e);
    if (cues.say) sound.speak(cues.say);
    buzz.frame(view);
  };

  const tick = (): void => {
    const s = warningSecond(lastView, inner.serverNow());
    if (s === null) return;
    const key = `${(lastView as { deadline: number }).deadline}:${s}`;
    if (key === warned) return;
    warned = key;
    sound.play('warning');
  };

  return {
    roomId: inner.roomId,
    spectate: inner.spectate,
    start(h: TableHandlers<V>): void {
      const canSend = !inner.spectate || opts.isPrivate;
      overlay = new ChatOverlay(document.getElementById('ui') ?? document.body, {
        send: (body) => opts.gw.chat(inner.roomId, body),
        me: () => opts.gw.userId,
        canSend,
        canSendText: canSend && opts.isPrivate,
        anchor: (id) => seatAnchor(opts.game, id),
      });
      active = overlay;
      offChat = opts.gw.on('chat', (m: ChatMessage) => {
        if (m.roomId !== inner.roomId) return;
        if (overlay?.receive(m) && m.from !== opts.gw.userId) sound.play('chat');
      });
      ticker = setInterval(tick, 250);
      inner.start({
        ...h,
        frame: (f) => {
          onFrame(f.view, f.events);
          h.frame(f);
          if (f.result) offerReplay();
        },
        error: (message, fatal, code) => {
          if (code?.startsWith('chat') && !fatal) overlay?.refused(message);
          else h.error(message, fatal, code);
        },
      });
    },
    act: (action) => inner.act(action),
    stop(): void {
      if (ticker) clearInterval(ticker);
      replayButton?.remove();
      replayButton = null;
      document.body.classList.remove('replay-offered');
      offChat?.();
      if (active === overlay) active = null;
      overlay?.destroy();
      overlay = null;
      inner.stop();
    },
    serverNow: () => inner.serverNow(),
    frames: () => inner.frames(),
  };
}
