/** Entry of the game page: fonts first, then Phaser with the lobby and the table scenes. */
import './styles.css';
import Phaser from 'phaser';
import { loadFonts } from './fonts.ts';
import { BootScene } from './scenes/BootScene.ts';
import { LobbyScene } from './scenes/LobbyScene.ts';
import { OneCardScene } from './games/one-card/OneCardScene.ts';
import { PokerScene } from './games/poker/PokerScene.ts';
import { HulaScene } from './games/hula/HulaScene.ts';
import { installTestHook } from './testhook.ts';
import { sound } from './sound/player.ts';
import { followResolution, scaleConfig } from './display.ts';
import { paceRendering } from './render-pace.ts';
import { getSettings, onSettings } from './settings.ts';

export async function startGame(
  extraScenes: Phaser.Types.Scenes.SceneType[] = [],
  first = 'lobby',
): Promise<Phaser.Game> {
  await loadFonts();
  // §9 큰 글씨: the DOM lobby and sheets grow by CSS zoom (styles.css, .large-text), the canvas by textScale().
  const markLargeText = () => document.documentElement.classList.toggle('large-text', getSettings().largeText);
  markLargeText();
  onSettings(markLargeText);
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
  installTestHook(game, paceRendering(game));
  // Audio starts on the first tap anywhere (lobby included), as mobile browsers require.
  sound.install();
  return game;
}
