/**
 * Prepares the shared textures (card backs) and hands over to the lobby (or the harness). The lobby
 * scene's first start is `boot`: the DOM lobby is already shown (lobby-shell.ts) and must not be rebuilt.
 */
import Phaser from 'phaser';
import { backTexture } from '../table-kit/textures.ts';
import type { LobbySceneData } from './LobbyScene.ts';

export class BootScene extends Phaser.Scene {
  constructor() {
    super('boot');
  }

  create(): void {
    backTexture(this, 'classic');
    backTexture(this, 'color');
    const first = (this.registry.get('firstScene') as string | undefined) ?? 'lobby';
    this.scene.start(first, first === 'lobby' ? ({ boot: true } satisfies LobbySceneData) : undefined);
  }
}
