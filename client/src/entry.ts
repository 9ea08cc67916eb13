/**
 * Entry of the game page, and all of its first chunk: the DOM lobby (sign-in, quick match, the room
 * list, settings, the tutorial and 복기 entries) paints without Phaser (issue 41 §4: first content
 * within 1 s). Phaser and the scenes are the game chunk (main.ts), loaded after the lobby is up and
 * awaited by whatever opens a table (lobby-shell.ts). A 복기 link (replay/route.ts) opens the 복기
 * first, as before; a room invite link is the lobby's own (ui/invite.ts).
 *
 * Failure modes: the fonts are slow (index.html preloads them): the lobby shows after FONT_WAIT_MS in
 * the system face and swaps when they arrive; the game chunk fails: see lobby-shell.ts.
 */
import './styles.css';
import { loadFonts } from './fonts.ts';
import { preparePage } from './page.ts';
import { installTestHook } from './testhook.ts';
import { replayIdFromUrl } from './replay/route.ts';
import { lobbyRoutes, prefetchGame, showLobby } from './lobby-shell.ts';

/**
 * How long the lobby waits for its faces before painting in the system one: on loopback or a good
 * connection they are there first (preloaded), and the lobby paints once, in Pretendard; on a slow one
 * the player reads the lobby in the fallback face rather than a blank page.
 */
const FONT_WAIT_MS = 500;

preparePage();
if (import.meta.env.MODE === 'test') installTestHook();
const replay = replayIdFromUrl();
if (replay) lobbyRoutes.openReplay(replay);
else
  void loadFonts(FONT_WAIT_MS).then(() => {
    showLobby();
    prefetchGame();
  });
