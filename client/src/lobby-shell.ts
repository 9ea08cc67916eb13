/**
 * The lobby without Phaser (issue 41 §4: first content within 1 s). The DOM lobby (ui/lobby.ts,
 * LobbyApp) is mounted from here by entry.ts; Phaser and the scenes (main.ts, the game chunk: about
 * 1.8 MB of script, ten times the lobby's) come by a dynamic import, prefetched once the lobby is idle
 * (`prefetchGame`) and awaited by the four ways out of the lobby — a table, a quick-match table, the
 * tutorial, a 복기 — which go through `loadGame()` and then the game chunk's routes (LobbyScene.ts).
 *
 * State: the one LobbyApp shown, or none (a table, the tutorial or a 복기 is up); the game chunk's
 * loading, once started. The Phaser lobby scene shows and hides the DOM lobby through showLobby /
 * hideLobby as it starts and stops, so every way back (a table's exit, the tutorial's 로비로, a closed
 * 복기) lands here as it did when the scene built the lobby itself.
 *
 * Failure modes: the game chunk fails to load (offline, or a deploy replaced the hashed files under an
 * open page): the route says so in a toast and the next tap tries again; the lobby keeps working. A
 * route pressed before the chunk arrived waits for it, with a toast when that takes a moment.
 */
import { LobbyApp, type LobbyCallbacks, type LobbyScreen } from './ui/lobby.ts';
import { domToast } from './ui/invite.ts';

let app: LobbyApp | null = null;
let routes: Promise<LobbyCallbacks> | null = null;

/** After this long without the game chunk a tap says it is loading (a prefetched chunk is there at once). */
const SAY_LOADING_AFTER_MS = 400;

/** The game chunk booted behind the lobby (Phaser, the scenes, the lobby's backdrop): loaded once. */
export function loadGame(): Promise<LobbyCallbacks> {
  routes ??= import('./main.ts')
    .then((m) => m.bootBehindLobby())
    .catch((e: unknown) => {
      routes = null;
      throw e;
    });
  return routes;
}

/**
 * Starts loading the game chunk once the lobby has painted and the page is idle, so the first tap on a
 * table finds it there; a player's first seconds go to the lobby, not to parsing Phaser.
 */
export function prefetchGame(): void {
  const idle = (fn: () => void) =>
    typeof requestIdleCallback === 'function' ? requestIdleCallback(fn, { timeout: 3000 }) : setTimeout(fn, 200);
  // The frame after the lobby's first frame: the lobby is on screen by then.
  requestAnimationFrame(() => setTimeout(() => idle(() => void loadGame().catch(() => undefined)), 0));
}

/** Runs a route of the game chunk, loading it first if needed. */
function viaGame(use: (r: LobbyCallbacks) => void): void {
  let ready = false;
  const slow = setTimeout(() => {
    if (!ready) domToast('게임을 불러오는 중이에요…');
  }, SAY_LOADING_AFTER_MS);
  loadGame()
    .then((r) => {
      ready = true;
      clearTimeout(slow);
      use(r);
    })
    .catch((e: unknown) => {
      clearTimeout(slow);
      console.error('game chunk', e);
      domToast('게임을 불러오지 못했어요. 연결을 확인하고 다시 눌러 주세요');
    });
}

/** What the DOM lobby calls: every way out of it goes through the game chunk. */
export const lobbyRoutes: LobbyCallbacks = {
  enterTable: (room, spectate) => viaGame((r) => r.enterTable(room, spectate)),
  enterMatch: (roomId, game, title) => viaGame((r) => r.enterMatch(roomId, game, title)),
  startTutorial: (game) => viaGame((r) => r.startTutorial(game)),
  openReplay: (gameId) => viaGame((r) => r.openReplay(gameId)),
};

/** Shows the DOM lobby at `screen` (or where this tab left it: sign-in, its room, the list), replacing any shown. */
export function showLobby(screen?: LobbyScreen): void {
  app?.destroy();
  app = new LobbyApp(lobbyRoutes, screen);
}

/** Takes the DOM lobby away (a table, the tutorial or a 복기 takes the page). */
export function hideLobby(): void {
  app?.destroy();
  app = null;
}
