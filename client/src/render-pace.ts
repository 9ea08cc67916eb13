/**
 * Drawing a frame only when the picture changed.
 *
 * Why: Phaser redraws the whole canvas on every animation frame, 60 times a second, even when a
 * table sits still waiting for someone to think. On a phone that is battery and heat for nothing; in
 * headless Chromium (software WebGL) a still table page cost 1.63 CPU cores drawn every frame and 0.57
 * drawn on change (`npx tsx client/bench/render-pace.ts`, same run, 2026-12-03). While cards fly every
 * second the saving is small: three whole-game browser test files took 423 CPU-seconds drawn every
 * frame and 399 paced. The game loop still runs every frame — input, tweens, timers and each scene's
 * update() keep their timing — but the render half of Phaser's step runs only when a cheap signature
 * (≈ 0.26 ms) of what would be drawn changed: every active scene's cameras and display list (position,
 * scale, angle, alpha, visibility, depth, origin, texture frame, tint, blend, shape colours, graphics
 * commands, each text redraw), the scenes' status and the canvas size. A frame that draws nothing leaves
 * the last picture on the canvas (WebGL presents only drawn frames). At least one frame in SAFETY_MS is
 * drawn anyway, so a change of a kind the signature does not see shows late, never stays wrong.
 *
 * Resting (issue 41): while the DOM lobby covers the canvas nothing behind it needs to move, so the
 * lobby asks the pace to rest: the next drawn frame is the last, then the game loop sleeps (no
 * animation frame is requested at all — a still lobby was 75–100 % of a core drawn every frame in
 * headless Chromium). Anything that must run the loop wakes it: a scene operation queued by a scene
 * (`this.scene.start`, e.g. opening a table), a window resize (the canvas follows, draws once, sleeps
 * again), the test hook's freeze(false). Resting ends when the lobby shuts down.
 *
 * `?pace=off` draws every frame, as Phaser does by default (a debug switch, like ?renderer=canvas);
 * it never rests either.
 */
import Phaser from 'phaser';

/** The longest a still canvas goes without a drawn frame. */
const SAFETY_MS = 2000;

/** Counts Text redraws (content, style or size): Phaser uploads the new texture there, outside render. */
let textRedraws = 0;
let textHooked = false;
function hookTextRedraws(): void {
  if (textHooked) return;
  textHooked = true;
  const proto = Phaser.GameObjects.Text.prototype as unknown as { updateText: (this: unknown) => unknown };
  const updateText = proto.updateText;
  proto.updateText = function (this: unknown) {
    textRedraws++;
    return updateText.call(this);
  };
}

// FNV-1a style mixing on 32-bit integers; coordinates at 1/256 px, which is below what a screen shows.
let h = 0;
const mix = (n: number): void => {
  h = Math.imul(h ^ n, 0x01000193);
};
const mixFloat = (v: number | undefined): void => mix(v === undefined ? 0x7fff : (v * 256) | 0);

type Shown = Phaser.GameObjects.GameObject & Record<string, unknown>;

/** Tint and shape properties read for the signature (colours are integers, so mixFloat keeps them exact). */
const TINT = ['tintTopLeft', 'tintTopRight', 'tintBottomLeft', 'tintBottomRight', 'tintMode'] as const;
const SHAPE = ['fillColor', 'fillAlpha', 'strokeColor', 'strokeAlpha', 'lineWidth'] as const;

function mixObject(o: Shown): void {
  const visible = o.visible as boolean | undefined;
  mix(visible === false ? 1 : 2);
  if (visible === false) return;
  mixFloat(o.x as number);
  mixFloat(o.y as number);
  mixFloat(o.scaleX as number);
  mixFloat(o.scaleY as number);
  mixFloat(o.rotation as number);
  mixFloat(o.alpha as number);
  mixFloat(o.depth as number);
  mixFloat(o.width as number);
  mixFloat(o.height as number);
  mixFloat(o.originX as number);
  mixFloat(o.originY as number);
  const frame = o.frame as { name?: string | number; texture?: { key: string } } | undefined;
  if (frame) {
    mixString(frame.texture?.key);
    mixString(String(frame.name));
  }
  if (o.flipX) mix(3);
  if (o.flipY) mix(4);
  if (typeof o.tintTopLeft === 'number') for (const k of TINT) mix(o[k] as number);
  if (typeof o.blendMode === 'number') mix(o.blendMode as number);
  if (typeof o.fillColor === 'number') {
    for (const k of SHAPE) mixFloat(o[k] as number);
    mix(o.isFilled ? 5 : 6);
    mix(o.isStroked ? 7 : 8);
  }
  const commands = o.commandBuffer as unknown[] | undefined;
  if (commands) {
    mix(commands.length);
    for (let i = 0; i < commands.length; i++) {
      const c = commands[i];
      if (typeof c === 'number') mixFloat(c);
    }
  }
  if (o.mask) mix(9);
  const list = o.list as Shown[] | undefined;
  if (Array.isArray(list)) {
    mix(list.length);
    for (let i = 0; i < list.length; i++) mixObject(list[i]);
  }
}

function mixString(s: string | undefined): void {
  if (s === undefined) return mix(0);
  for (let i = 0; i < s.length; i++) mix(s.charCodeAt(i));
}

/** The signature of what the next render would draw. */
function signature(game: Phaser.Game): number {
  h = 0x811c9dc5;
  mix(textRedraws);
  mixFloat(game.scale.width);
  mixFloat(game.scale.height);
  const scenes = game.scene.scenes as Phaser.Scene[];
  for (let s = 0; s < scenes.length; s++) {
    const sys = scenes[s].sys;
    mix(sys.settings.status);
    mix(sys.settings.visible ? 1 : 0);
    if (!sys.settings.visible || sys.settings.status !== Phaser.Scenes.RUNNING) continue;
    for (const cam of sys.cameras.cameras) {
      mixFloat(cam.scrollX);
      mixFloat(cam.scrollY);
      mixFloat(cam.zoom);
      mixFloat(cam.x);
      mixFloat(cam.y);
      mixFloat(cam.width);
      mixFloat(cam.height);
      mixFloat(cam.alpha);
      mix(cam.visible ? 1 : 0);
      mix(cam.backgroundColor.color32);
      const running =
        cam.fadeEffect.isRunning || cam.flashEffect.isRunning || cam.shakeEffect.isRunning || cam.panEffect.isRunning;
      if (running) mix(performance.now() | 0);
    }
    const list = sys.displayList.list as Shown[];
    mix(list.length);
    for (let i = 0; i < list.length; i++) mixObject(list[i]);
  }
  return h;
}

export interface RenderPace {
  /** Frames drawn and frames skipped since the game started (the pace test reads them). */
  counts(): { drawn: number; skipped: number };
  /** Draw the next frame whatever the signature says (e.g. after the canvas was resized). */
  invalidate(): void;
  /** Rest (true): draw one more frame, then sleep the game loop until something wakes it; false: run again. */
  rest(on: boolean): void;
}

const paces = new WeakMap<Phaser.Game, RenderPace>();

/** The pace of this game (the lobby asks it to rest), if its rendering is paced. */
export function paceOf(game: Phaser.Game): RenderPace | undefined {
  return paces.get(game);
}

/** Wakes a resting loop whenever a scene operation is queued: it only runs inside a step. */
function wakeOnSceneOps(game: Phaser.Game, wake: () => void): void {
  const queueOp: unknown = Reflect.get(game.scene, 'queueOp');
  if (typeof queueOp !== 'function') return;
  Reflect.set(game.scene, 'queueOp', function (this: unknown, ...args: unknown[]): unknown {
    wake();
    return Reflect.apply(queueOp, this, args);
  });
}

/** Replaces the game's step with one that renders only when the picture changed. */
export function paceRendering(game: Phaser.Game): RenderPace {
  let drawn = 0;
  let skipped = 0;
  let resting = false;
  const off = new URLSearchParams(globalThis.location?.search ?? '').get('pace') === 'off';
  const wake = (): void => {
    if (!game.loop.running) game.loop.wake(true);
  };
  const pace: RenderPace = {
    counts: () => ({ drawn, skipped }),
    invalidate: () => {
      force = true;
    },
    rest: (on) => {
      if (off) return;
      resting = on;
      force = true;
      wake();
    },
  };
  if (off) return pace;
  paces.set(game, pace);
  wakeOnSceneOps(game, wake);
  // The scale manager applies a new window size inside a step: let it, draw the new size, rest again.
  globalThis.addEventListener?.('resize', () => {
    if (resting) pace.rest(true);
  });
  hookTextRedraws();
  let last = NaN;
  let lastDrawnAt = -Infinity;
  let force = true;
  game.scale.on(Phaser.Scale.Events.RESIZE, pace.invalidate);
  game.canvas?.addEventListener('webglcontextrestored', pace.invalidate);
  const events = game.events;
  const C = Phaser.Core.Events;
  // The body of Phaser.Game#step (phaser 4.2), with the render half behind the signature check.
  const internals = game as unknown as { pendingDestroy: boolean; runDestroy(): void };
  game.step = function (time: number, delta: number) {
    if (internals.pendingDestroy) return internals.runDestroy();
    if (game.isPaused) return;
    events.emit(C.PRE_STEP, time, delta);
    events.emit(C.STEP, time, delta);
    game.scene.update(time, delta);
    events.emit(C.POST_STEP, time, delta);
    const sig = signature(game);
    if (!force && sig === last && time - lastDrawnAt < SAFETY_MS) {
      skipped++;
      if (resting) game.loop.sleep();
      return;
    }
    force = false;
    last = sig;
    lastDrawnAt = time;
    drawn++;
    const renderer = game.renderer;
    renderer.preRender();
    events.emit(C.PRE_RENDER, renderer, time, delta);
    game.scene.render(renderer);
    renderer.postRender();
    events.emit(C.POST_RENDER, renderer, time, delta);
    if (resting) game.loop.sleep();
  };
  return pace;
}
