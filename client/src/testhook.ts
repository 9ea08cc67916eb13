/**
 * `window.__joke`: a small read-only window into the running client for
 * browser tests. Tests use it to find where things are drawn on the canvas
 * and then click there like a player; nothing here sends actions.
 *
 * Only in test builds: entry.ts and main.ts install it behind `import.meta.env.MODE === 'test'`, true
 * in `vite build --mode test` (the browser tests' build, test/support/build.ts), in vitest and in
 * `vite --mode test` (a dev server with the hook). Vite writes the mode as a literal, so the production
 * build (`vite build`: `npm start`, the release) folds the test to false and drops the hook with its
 * name (test/first-paint-browser.test.ts greps the bundle for it). Written out at each use: an imported
 * constant holding that expression is not folded across modules by the bundler, and the hook stayed
 * in. (Not `import.meta.env.DEV`: it follows NODE_ENV, which a build started from vitest inherits.)
 *
 * Two halves, because the lobby paints before Phaser loads (entry.ts): what the page has from the
 * start (the gateway connection, sound) is installed with the lobby; what needs the game (layout,
 * frames, chat, labels, freeze, frame counts) is attached by testhook-game.ts once the game chunk has
 * booted. Until then `layout()` says `{ scene: 'lobby', game: false }` (or 'boot' with no lobby shown),
 * `frames()` and `labels()` are empty and `renderCounts()` is zero: nothing is drawn without a canvas.
 */
import { currentGateway } from './app.ts';
import type { ChatState } from './chat/chat-overlay.ts';
import { sound, type SoundState } from './sound/player.ts';
import type { ShownLabel } from './table-kit/labels.ts';

/** The half of the hook that needs the Phaser game (testhook-game.ts). */
export interface GameHook {
  layout(): Record<string, unknown>;
  frames(): string[];
  chat(): ChatState | null;
  labels(): ShownLabel[];
  freeze(on: boolean): void;
  renderCounts(): { drawn: number; skipped: number };
}

export interface JokeHook {
  /**
   * Active scene and, on the table, every control's rectangle in page CSS pixels; `overlayCheck` lists the
   * overlays (chat, toasts, emotes, result sheet, rules) and what they must not cover (overlay-report.ts).
   */
  layout(): Record<string, unknown>;
  /** Raw view frames the open table received (for secrecy checks; the last FRAME_LOG_SIZE, frame-log.ts). */
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

let game: GameHook | null = null;

/** The page's half; idempotent (the harness page installs it from main.ts, the game page from entry.ts). */
export function installTestHook(): void {
  if (window.__joke) return;
  window.__joke = {
    layout() {
      if (game) return game.layout();
      const lobbyShown = document.querySelector('[data-testid="lobby"]') !== null;
      return { scene: lobbyShown ? 'lobby' : 'boot', game: false };
    },
    frames: () => game?.frames() ?? [],
    connection() {
      const gw = currentGateway();
      return gw ? { status: gw.status, pending: gw.pendingCount } : null;
    },
    dropConnection() {
      currentGateway()?.dropConnection();
    },
    chat: () => game?.chat() ?? null,
    sound: () => sound.state(),
    labels: () => game?.labels() ?? [],
    freeze: (on) => game?.freeze(on),
    renderCounts: () => game?.renderCounts() ?? { drawn: 0, skipped: 0 },
  };
}

/** The game's half, once Phaser has booted. */
export function attachGameHook(hook: GameHook): void {
  installTestHook();
  game = hook;
}
