/**
 * The game chunk: fonts first, then Phaser with the lobby's backdrop and the table scenes. The game
 * page loads it with a dynamic import once the DOM lobby is up (lobby-shell.ts, `bootBehindLobby`),
 * so the first paint never waits for Phaser; the dev harness starts it directly (harness/main.ts).
 * In test builds (testhook.ts) the game's half of the test hook is attached here (testhook-game.ts).
 */
import './styles.css';
import Phaser from 'phaser';
import { loadFonts } from './fonts.ts';
import { BootScene } from './scenes/BootScene.ts';
import { LOBBY_UP, LobbyScene, lobbyRoutesFor } from './scenes/LobbyScene.ts';
import { OneCardScene } from './games/one-card/OneCardScene.ts';
import { PokerScene } from './games/poker/PokerScene.ts';
import { HulaScene } from './games/hula/HulaScene.ts';
import { hookGame } from './testhook-game.ts';
import { followResolution, scaleConfig } from './display.ts';
import { paceRendering } from './render-pace.ts';
import { preparePage } from './page.ts';
import type { LobbyCallbacks } from './ui/lobby.ts';

export async function startGame(
  extraScenes: Phaser.Types.Scenes.SceneType[] = [],
  first = 'lobby',
): Promise<Phaser.Game> {
  // Canvas text is drawn once: the faces must be there before Phaser draws any (fonts.ts).
  await loadFonts();
  preparePage();
  // Phaser 4.2's multi-texture batch samples the wrong texture for rotated
  // quads (phaserjs/phaser#7372: exact float compare on an interpolated
  // texture index) — exactly our fanned hand and shaking button. One texture
  // unit per batch avoids it at the cost of a few more draw calls.
  // Debug switches: ?renderer=canvas, ?maxTextures=N.
  const q = new URLSearchParams(location.search);
  const maxTextures = Number(q.get('maxTextures') ?? 1);
  const game = new Phaser.Game({
    type: q.get('renderer') === 'canvas' ? Phaser.CANVAS : Phaser.AUTO,
    render: { maxTextures },
    parent: 'game',
    backgroundColor: '#175c3c',
    // Backing store at devicePixelRatio (display.ts): crisp cards and text on phones.
    scale: scaleConfig('game'),
    scene: [BootScene, LobbyScene, OneCardScene, PokerScene, HulaScene, ...extraScenes],
    input: { activePointers: 2 },
    banner: false,
    callbacks: { preBoot: (g) => g.registry.set('firstScene', first) },
  });
  followResolution(game, 'game');
  // Frames are drawn only when the picture changed (render-pace.ts): a still table costs next to nothing.
  const pace = paceRendering(game);
  if (import.meta.env.MODE === 'test') hookGame(game, pace);
  return game;
}

/**
 * Boots the game behind the DOM lobby that entry.ts showed (the lobby scene's first start leaves the DOM
 * alone) and resolves, once the lobby scene is up, with the routes that open tables over it.
 */
export async function bootBehindLobby(): Promise<LobbyCallbacks> {
  const game = await startGame();
  await new Promise<void>((resolve) => {
    if (game.scene.isActive('lobby')) resolve();
    else game.events.once(LOBBY_UP, () => resolve());
  });
  return lobbyRoutesFor(game);
}
