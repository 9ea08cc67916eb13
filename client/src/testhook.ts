/**
 * `window.__joke`: a small read-only window into the running client for
 * browser tests. Tests use it to find where things are drawn on the canvas
 * and then click there like a player; nothing here sends actions.
 */
import type Phaser from 'phaser';
import { currentGateway } from './app.ts';
import { currentChat } from './table-kit/lively-source.ts';
import type { ChatState } from './chat/chat-overlay.ts';
import { sound, type SoundState } from './sound/player.ts';
import { shownLabels, type ShownLabel } from './table-kit/labels.ts';
import type { RenderPace } from './render-pace.ts';
import { overlayReport, type ScenePlaces } from './table-kit/overlay-report.ts';
/** What a table scene (원카드, 포커 or 훌라) offers the hook. */
interface HookedTable {
  snapshot(): Record<string, unknown>;
  receivedFrames(): string[];
}

export interface JokeHook {
  /**
   * Active scene and, on the table, every control's rectangle in page CSS pixels; `overlayCheck` lists the
   * overlays (chat, toasts, emotes, result sheet, rules) and what they must not cover (overlay-report.ts).
   */
  layout(): Record<string, unknown>;
  /** Raw view frames the open table received (for secrecy checks). */
  frames(): string[];
  connection(): { status: string; pending: number } | null;
  /** Simulates a network drop; the client must reconnect and resume by itself. */
  dropConnection(): void;
  /** The open table's chat (lines shown, muted senders, last refusal), or null away from a table. */
  chat(): ChatState | null;
  /** Audio: the AudioContext's state ('none' before it exists) and the effects played. */
  sound(): SoundState;
  /** Every text the open table shows, with its rectangle in page CSS pixels (empty away from a table). */
  labels(): ShownLabel[];
  /** Holds the game loop still (true) or lets it run again (false): a screenshot of a tween mid-way. */
  freeze(on: boolean): void;
  /** Frames drawn and frames skipped because the picture had not changed (render-pace.ts). */
  renderCounts(): { drawn: number; skipped: number };
}

declare global {
  interface Window {
    __joke?: JokeHook;
  }
}

export function installTestHook(game: Phaser.Game, pace: RenderPace): void {
  const tableScene = (): Phaser.Scene | null => {
    for (const key of ['table', 'poker', 'hula']) if (game.scene.isActive(key)) return game.scene.getScene(key);
    return null;
  };
  const table = (): HookedTable | null => tableScene() as unknown as HookedTable | null;
  window.__joke = {
    layout() {
      const canvas = game.canvas.getBoundingClientRect();
      const t = table();
      const base = { canvas: { left: canvas.left, top: canvas.top, width: canvas.width, height: canvas.height } };
      if (!t) return { ...base, scene: game.scene.isActive('lobby') ? 'lobby' : 'boot' };
      const snap = t.snapshot();
      // Issue 41 §1: every overlay's rectangle and what it must not cover (overlay-report.ts).
      return { ...base, ...snap, overlayCheck: overlayReport(game, snap.places as ScenePlaces | undefined) };
    },
    frames() {
      return table()?.receivedFrames() ?? [];
    },
    connection() {
      const gw = currentGateway();
      return gw ? { status: gw.status, pending: gw.pendingCount } : null;
    },
    dropConnection() {
      currentGateway()?.dropConnection();
    },
    chat() {
      return currentChat()?.state() ?? null;
    },
    sound() {
      return sound.state();
    },
    labels() {
      const s = tableScene();
      return s ? shownLabels(s) : [];
    },
    freeze(on) {
      if (on) game.loop.sleep();
      else game.loop.wake();
    },
    renderCounts() {
      return pace.counts();
    },
  };
}
