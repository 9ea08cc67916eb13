/** Prepares the shared textures (card backs) and hands over to the lobby (or the harness). */
import Phaser from 'phaser';
import { backTexture } from '../table-kit/textures.ts';

export class BootScene extends Phaser.Scene {
  constructor() {
    super('boot');
  }

  create(): void {
    backTexture(this, 'classic');
    backTexture(this, 'color');
    this.scene.start((this.registry.get('firstScene') as string | undefined) ?? 'lobby');
  }
}
