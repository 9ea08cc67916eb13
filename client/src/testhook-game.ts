/**
 * The half of the test hook (testhook.ts) that reads the Phaser game: the active scene and the open
 * table's layout, its received frames, chat and labels, freezing the loop, frames drawn. Lives in the
 * game chunk (main.ts attaches it after booting, test builds only), so the lobby's chunk stays free of
 * Phaser and of the table modules this reads.
 */
import type Phaser from 'phaser';
import { currentChat } from './table-kit/lively-source.ts';
import { shownLabels } from './table-kit/labels.ts';
import type { RenderPace } from './render-pace.ts';
import { overlayReport, type ScenePlaces } from './table-kit/overlay-report.ts';
import { attachGameHook } from './testhook.ts';
import { TableSceneBase } from './table-kit/table-scene.ts';

export function hookGame(game: Phaser.Game, pace: RenderPace): void {
  const tableScene = (): Phaser.Scene | null => {
    for (const key of ['table', 'poker', 'hula']) if (game.scene.isActive(key)) return game.scene.getScene(key);
    return null;
  };
  // Every table scene (원카드, 포커, 훌라) is a TableSceneBase: its snapshot and received frames are the hook's.
  const table = () => {
    const s = tableScene();
    return s instanceof TableSceneBase ? s : null;
  };
  attachGameHook({
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
    chat() {
      return currentChat()?.state() ?? null;
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
  });
}
