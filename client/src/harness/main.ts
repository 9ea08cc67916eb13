/**
 * Dev harness: harness.html?mode=classic&players=4&seed=x&viewer=0&bots=600&warmup=10&hand=7
 * renders the real OneCardScene (scene key `table`) over a GameLocalSource (engine in the page).
 * `viewer=spectator` watches; `bots=0` freezes the table after `warmup` moves; `chat=1` adds the chat overlay.
 *
 * `game=poker` / `game=hula` render the 포커 / 훌라 table the same way (`mode=holdem`, `o.<option>=value`, `timeouts=0|others`
 * (no clock expires / only mine never does), `autoplay=1` lets the
 * bot play my seat too, `prepare=rebuy` opens the rebuy prompt, `pause=showdown`
 * stops the bots when a hand ends at a showdown, `names=a,b,…` names the seats).
 */
import Phaser from 'phaser';
import { startGame } from '../main.ts';
import type { OneCardSceneData } from '../games/one-card/OneCardScene.ts';
import { poker, hula, oneCard } from '@joke/engine/client';
import { GameLocalSource } from '../tutorial/game-source.ts';
import { ChatOverlay } from '../chat/chat-overlay.ts';
import { seatAnchor } from '../chat/seat-anchor.ts';
import { ONE_CARD_SCENARIOS } from './one-card-scenarios.ts';
import { PAUSES, PREPARED } from './prepared.ts';

/**
 * `chat=1`: the table's chat overlay as a player has it (button, panel, emote bubbles), sending into
 * the void — what the overlay-layout test measures against the table (issue 41 §1).
 */
function harnessChat(game: Phaser.Game): void {
  // Lives as long as the page: the harness reloads on leaving the table.
  new ChatOverlay(document.getElementById('ui') ?? document.body, {
    send: () => undefined,
    me: () => null,
    canSend: true,
    canSendText: false,
    anchor: (id) => seatAnchor(game, id),
  });
}

class HarnessBoot extends Phaser.Scene {
  constructor() {
    super({ key: 'harness', active: false });
  }

  create(): void {
    const q = new URLSearchParams(location.search);
    const num = (k: string, d: number) => (q.has(k) ? Number(q.get(k)) : d);
    const options: Record<string, unknown> = {};
    for (const [k, v] of q) {
      if (!k.startsWith('o.')) continue;
      options[k.slice(2)] = v === 'true' ? true : v === 'false' ? false : /^-?\d+$/.test(v) ? Number(v) : v;
    }
    const viewerParam = q.get('viewer') ?? '0';
    const viewer = viewerParam === 'spectator' ? null : Number(viewerParam);
    const game = q.get('game');
    if (game === 'poker' || game === 'hula') {
      const def = game === 'poker' ? poker : hula;
      const source = new GameLocalSource({
        game: def,
        players: num('players', 4),
        options: { ...options, mode: q.get('mode') ?? def.modes[0].id },
        seed: q.get('seed') ?? 'harness',
        viewer,
        botDelayMs: num('bots', 400),
        autoplay: q.get('autoplay') === '1',
        prepare: PREPARED[q.get('prepare') ?? ''],
        pauseWhen: PAUSES[q.get('pause') ?? ''],
        names: q.get('names')?.split(','),
        // `timeouts=0`: no turn clock expires; `timeouts=others`: only my own never does (a test that takes
        // its time at my seat on a loaded box, while the bots' clocks and the hands' ends still run).
        timeouts: q.get('timeouts') === 'others' ? 'others' : q.get('timeouts') !== '0',
      });
      this.scene.start(game, { source, title: `${def.name} (로컬)`, onExit: () => location.reload() });
      if (q.get('chat') === '1') harnessChat(this.game);
      return;
    }
    options.mode = q.get('mode') === 'uno-style' ? 'uno-style' : 'classic';
    if (q.has('hand')) options.handSize = num('hand', 7);
    const source = new GameLocalSource({
      game: oneCard,
      players: num('players', 4),
      options,
      seed: q.get('seed') ?? 'harness',
      viewer,
      botDelayMs: num('bots', 700),
      autoplay: q.get('autoplay') === '1',
      warmup: num('warmup', 0),
      prepare: ONE_CARD_SCENARIOS[q.get('scenario') ?? ''],
      offline: (q.get('offline') ?? '').split(',').filter(Boolean).map(Number),
      away: (q.get('away') ?? '').split(',').filter(Boolean).map(Number),
    });
    const data: OneCardSceneData = {
      source,
      title: '원카드 (로컬)',
      onExit: () => location.reload(),
    };
    this.scene.start('table', data);
    if (q.get('chat') === '1') harnessChat(this.game);
  }
}

// The product boot goes to the lobby; the harness goes straight to a table.
void startGame([HarnessBoot], 'harness');
