/**
 * Where a seat is on screen, for an emote bubble: read from the active table
 * scene's own snapshot (the rectangles it drew, in canvas pixels) and turned
 * into page pixels. Every table lists opponents with `{ id, rect }`
 * (`opponents` or `seats`); 원카드 also has `me`. Unknown seats — your own
 * seat at the poker and 훌라 tables — float above the middle of your hand.
 */
import type Phaser from 'phaser';

type Rect = { x: number; y: number; w: number; h: number };
type Seatish = { id?: unknown; rect?: Rect | null };

const TABLE_SCENES = ['table', 'poker', 'hula'];

export function seatAnchor(game: Phaser.Game, id: string): { x: number; y: number } {
  const canvas = game.canvas.getBoundingClientRect();
  const scale = game.canvas.width > 0 ? canvas.width / game.canvas.width : 1;
  for (const key of TABLE_SCENES) {
    if (!game.scene.isActive(key)) continue;
    const scene = game.scene.getScene(key) as unknown as { snapshot?: () => Record<string, unknown> };
    const snap = scene.snapshot?.() ?? {};
    const list = [
      ...((snap.opponents as Seatish[] | undefined) ?? []),
      ...((snap.seats as Seatish[] | undefined) ?? []),
      ...(snap.me && typeof snap.me === 'object' ? [snap.me as Seatish] : []),
    ];
    const r = list.find((s) => s && s.id === id && s.rect)?.rect;
    if (r) return { x: canvas.left + (r.x + r.w / 2) * scale, y: canvas.top + r.y * scale };
  }
  return { x: canvas.left + canvas.width / 2, y: canvas.top + canvas.height * 0.72 };
}

/** Side of an emote bubble (CSS .chat-bubble .emote). */
export const EMOTE_SIZE = 48;

/** The page rectangle an emote bubble from `id` covers: centred on its anchor, standing on it. */
export function emoteRect(game: Phaser.Game, id: string): { x: number; y: number; w: number; h: number } {
  const a = seatAnchor(game, id);
  return { x: a.x - EMOTE_SIZE / 2, y: a.y - EMOTE_SIZE, w: EMOTE_SIZE, h: EMOTE_SIZE };
}
