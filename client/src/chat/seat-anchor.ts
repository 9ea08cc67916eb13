/**
 * Where an emote bubble pops (issue 41 §1): on the sender's own seat, as big
 * as the seat allows (at most EMOTE_SIZE), so it covers no other seat, card
 * or button — read from the active table scene's snapshot (the rectangles it
 * drew, in canvas pixels) and turned into page pixels. Every table lists
 * opponents with `{ id, rect }` (`opponents` or `seats`); 원카드 has `me`,
 * 포커 and 훌라 name the viewer's own place `selfSeat`. A sender with no seat
 * (a spectator) pops on the chat button, the one place that is the chat's own.
 */
import type Phaser from 'phaser';
import { currentChatPlace } from './chat-place.ts';
import { TableSceneBase } from '../table-kit/table-scene.ts';

type Rect = { x: number; y: number; w: number; h: number };
type Seatish = { id?: unknown; rect?: Rect | null };

const TABLE_SCENES = ['table', 'poker', 'hula'];

/** Side of an emote bubble at most (CSS .chat-bubble .emote). */
export const EMOTE_SIZE = 48;

/** The bubble's bottom centre (page px) and its side. */
export interface EmoteAnchor {
  x: number;
  y: number;
  size: number;
}

function seatRect(game: Phaser.Game, id: string): Rect | null {
  for (const key of TABLE_SCENES) {
    if (!game.scene.isActive(key)) continue;
    const scene = game.scene.getScene(key);
    // Every table scene (원카드, 포커, 훌라) is a TableSceneBase and reports its seats in its snapshot.
    const snap = scene instanceof TableSceneBase ? scene.snapshot() : {};
    const list = [
      ...((snap.opponents as Seatish[] | undefined) ?? []),
      ...((snap.seats as Seatish[] | undefined) ?? []),
      ...(snap.me && typeof snap.me === 'object' ? [snap.me as Seatish] : []),
      ...(snap.selfSeat && typeof snap.selfSeat === 'object' ? [snap.selfSeat as Seatish] : []),
    ];
    const r = list.find((s) => s && s.id === id && s.rect)?.rect;
    if (r) return r;
  }
  return null;
}

export function seatAnchor(game: Phaser.Game, id: string): EmoteAnchor {
  const canvas = game.canvas.getBoundingClientRect();
  // Snapshot rectangles are in world units, which are CSS pixels (display.ts): no backing-store ratio here.
  const scale = 1;
  const r = seatRect(game, id);
  if (r) {
    const size = Math.max(16, Math.min(EMOTE_SIZE, r.w * scale, r.h * scale));
    const cx = canvas.left + (r.x + r.w / 2) * scale;
    const cy = canvas.top + (r.y + r.h / 2) * scale;
    return { x: cx, y: cy + size / 2, size };
  }
  const b = currentChatPlace()?.button;
  if (b) return { x: b.x + b.w / 2, y: b.y + b.h, size: Math.min(EMOTE_SIZE, b.w, b.h) };
  return { x: canvas.left + canvas.width / 2, y: canvas.top + canvas.height * 0.72, size: EMOTE_SIZE };
}

/** The page rectangle an emote bubble from `id` covers: centred on its anchor, standing on it. */
export function emoteRect(game: Phaser.Game, id: string): Rect {
  const a = seatAnchor(game, id);
  return { x: a.x - a.size / 2, y: a.y - a.size, w: a.size, h: a.size };
}
