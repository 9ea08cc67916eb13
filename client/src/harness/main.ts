/**
 * Dev harness: harness.html?mode=classic&players=4&seed=x&viewer=0&bots=600&warmup=10&hand=7
 * renders the real TableScene over a LocalSource (engine in the page).
 * `viewer=spectator` watches; `bots=0` freezes the table after `warmup` moves.
 */
import Phaser from 'phaser';
import { startGame } from '../main.ts';
import type { TableSceneData } from '../scenes/TableScene.ts';
import { LocalSource } from './local-source.ts';

class HarnessBoot extends Phaser.Scene {
  constructor() {
    super({ key: 'harness', active: false });
  }

  create(): void {
    const q = new URLSearchParams(location.search);
    const num = (k: string, d: number) => (q.has(k) ? Number(q.get(k)) : d);
    const mode = q.get('mode') === 'uno-style' ? 'uno-style' : 'classic';
    const options: Record<string, unknown> = { mode };
    for (const [k, v] of q) {
      if (!k.startsWith('o.')) continue;
      options[k.slice(2)] = v === 'true' ? true : v === 'false' ? false : /^-?\d+$/.test(v) ? Number(v) : v;
    }
    if (q.has('hand')) options.handSize = num('hand', 7);
    const viewerParam = q.get('viewer') ?? '0';
    const source = new LocalSource({
      players: num('players', 4),
      options: options as never,
      seed: q.get('seed') ?? 'harness',
      viewer: viewerParam === 'spectator' ? null : Number(viewerParam),
      botDelayMs: num('bots', 700),
      warmup: num('warmup', 0),
      scenario: q.get('scenario') ?? undefined,
      offline: (q.get('offline') ?? '').split(',').filter(Boolean).map(Number),
      away: (q.get('away') ?? '').split(',').filter(Boolean).map(Number),
    });
    const data: TableSceneData = {
      source,
      title: '원카드 (로컬)',
      onExit: () => location.reload(),
    };
    this.scene.start('table', data);
  }
}

// The product boot goes to the lobby; the harness goes straight to a table.
void startGame([HarnessBoot], 'harness');
