/**
 * Drawing at the device's pixel ratio. Phaser 4 has no `resolution` setting,
 * and its RESIZE scale mode sizes the canvas backing store in CSS pixels, so a
 * phone at devicePixelRatio 3 would get a 390×844 bitmap stretched to three
 * times its size (soft cards and letters). Instead the game runs in NONE mode
 * with a backing store of CSS size × ratio and a scale zoom of 1/ratio, and
 * every scene's main camera zooms by the ratio from the top-left corner: the
 * scenes keep laying out in CSS pixels (the world), input maps through the
 * camera, and the GPU fills every device pixel.
 *
 * `?resolution=N` overrides the ratio (1 = the old stretched canvas, which the
 * sharpness test uses as its blurry reference).
 */
import type Phaser from 'phaser';

/** Above 3 the backing store only costs memory; below 1 would be blurrier than CSS. */
const MAX_RATIO = 3;

let ratio = 1;

export function deviceRatio(): number {
  const forced = Number(new URLSearchParams(globalThis.location?.search ?? '').get('resolution'));
  const raw = forced > 0 ? forced : globalThis.devicePixelRatio || 1;
  return Math.min(MAX_RATIO, Math.max(1, raw));
}

/** The ratio the canvas is drawn at now. */
export function resolution(): number {
  return ratio;
}

/** CSS-pixel size of the page area the game fills. */
function parentSize(parent: HTMLElement | null): { w: number; h: number } {
  const r = parent?.getBoundingClientRect();
  const w = r && r.width > 0 ? r.width : globalThis.innerWidth || 390;
  const h = r && r.height > 0 ? r.height : globalThis.innerHeight || 844;
  return { w: Math.max(1, Math.round(w)), h: Math.max(1, Math.round(h)) };
}

/** Game-config `scale` block for the current page (call before `new Phaser.Game`). */
export function scaleConfig(parentId: string): Phaser.Types.Core.ScaleConfig {
  ratio = deviceRatio();
  const { w, h } = parentSize(document.getElementById(parentId));
  return {
    mode: 0 /* Phaser.Scale.NONE */,
    width: Math.round(w * ratio),
    height: Math.round(h * ratio),
    zoom: 1 / ratio,
  };
}

/** Keeps the backing store at CSS size × ratio when the window, the parent or the ratio (browser zoom) changes. */
export function followResolution(game: Phaser.Game, parentId: string): void {
  const parent = document.getElementById(parentId);
  const apply = () => {
    const next = deviceRatio();
    const { w, h } = parentSize(parent);
    const gw = Math.round(w * next);
    const gh = Math.round(h * next);
    if (next === ratio && game.scale.width === gw && game.scale.height === gh) return;
    ratio = next;
    // Resize first, then zoom: Phaser's resize() only writes the canvas CSS size
    // when zoom ≠ 1, and setZoom() writes it from the game size it has then. The
    // other order left the CSS size one step behind (a 390-px backing store shown
    // 1440 px wide after a landscape-and-back turn), so every tap landed on the
    // wrong spot while the test hook still reported the layout's rectangles.
    game.scale.resize(gw, gh);
    game.scale.setZoom(1 / ratio);
  };
  globalThis.addEventListener?.('resize', apply);
  if (parent && typeof ResizeObserver === 'function') new ResizeObserver(apply).observe(parent);
  // A change of devicePixelRatio (browser zoom, moving to another screen) fires no resize on every browser.
  const watchRatio = () => {
    const mq = globalThis.matchMedia?.(`(resolution: ${globalThis.devicePixelRatio || 1}dppx)`);
    mq?.addEventListener?.(
      'change',
      () => {
        apply();
        watchRatio();
      },
      { once: true },
    );
  };
  watchRatio();
}

/**
 * The scene's size in CSS pixels (what layouts use), with its main camera
 * zoomed so one world unit is one CSS pixel. Call on create and on resize.
 */
export function fitView(scene: Phaser.Scene): { width: number; height: number } {
  const cam = scene.cameras.main;
  if (cam.zoom !== ratio || cam.originX !== 0) cam.setOrigin(0, 0).setZoom(ratio);
  return { width: scene.scale.width / ratio, height: scene.scale.height / ratio };
}
