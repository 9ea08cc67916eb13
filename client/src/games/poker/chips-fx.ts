/**
 * Chips that fly (issue 16 §4): from a seat to the pot when its bet grows,
 * from the pot to each winner when a hand ends (one stack per award, so a
 * split pot visibly splits). Derived from two consecutive views; with motion
 * reduced or the animation setting off nothing moves, but every move is
 * still recorded so the test hook can show where chips went.
 */
import type Phaser from 'phaser';
import { motionMs } from '../../settings.ts';
import type { Rect } from '../../table-kit/rect.ts';
import { glide, MotionLog } from '../../table-kit/motion.ts';
import { textStyle } from '../../table-kit/theme.ts';
import type { PokerView } from './model.ts';

export interface ChipMove {
  kind: 'bet' | 'win';
  seat: string;
  amount: number;
  from: { x: number; y: number };
  to: { x: number; y: number };
  /** False when motion is reduced (the move is instant). */
  animated: boolean;
  /** Hand number, so a test can tell hands apart. */
  hand: number;
}

const centre = (r: Rect) => ({ x: r.x + r.w / 2, y: r.y + r.h / 2 });

/** The chip moves between `prev` and `next` (pure; the scene animates them). */
export function chipMoves(
  prev: PokerView | null,
  next: PokerView,
  seatRect: (id: string) => Rect | null,
  pot: Rect,
): Omit<ChipMove, 'animated'>[] {
  const h = next.hand;
  const ph = prev?.hand;
  if (!h) return [];
  const out: Omit<ChipMove, 'animated'>[] = [];
  const potAt = centre(pot);
  const sameHand = ph && ph.handNo === h.handNo;
  for (const p of h.players) {
    const before = sameHand ? (ph.players.find((x) => x.id === p.id)?.committedTotal ?? 0) : 0;
    const grew = p.committedTotal - before;
    const r = seatRect(p.id);
    if (grew > 0 && r) out.push({ kind: 'bet', seat: p.id, amount: grew, from: centre(r), to: potAt, hand: h.handNo });
  }
  const justEnded = h.phase === 'handEnd' && h.awards && !(sameHand && ph.phase === 'handEnd');
  if (justEnded)
    h.awards!.forEach((a, i) => {
      const r = seatRect(a.to);
      if (!r || a.amount <= 0) return;
      // Stacks of one pot leave side by side, so a split is two stacks.
      const from = { x: potAt.x + (i - (h.awards!.length - 1) / 2) * 18, y: potAt.y };
      out.push({ kind: 'win', seat: a.to, amount: a.amount, from, to: centre(r), hand: h.handNo });
    });
  return out;
}

export class ChipFx {
  private readonly moves = new MotionLog<Omit<ChipMove, 'animated'>>();

  constructor(private readonly scene: Phaser.Scene) {}

  /** Every chip move so far (for the test hook). */
  get log(): ChipMove[] {
    return this.moves.entries;
  }

  play(moves: Omit<ChipMove, 'animated'>[]): void {
    const ms = motionMs(420);
    moves.forEach((m, i) => {
      this.moves.record(m, ms);
      if (ms <= 0) return;
      const chip = this.stack(m);
      glide(this.scene, chip, m.to, ms, {
        delay: m.kind === 'win' ? 250 + i * 60 : 0,
        ease: 'Cubic.easeInOut',
        done: () => chip.destroy(),
      });
    });
  }

  /** A small stack of three chips with the amount on it. */
  private stack(m: Omit<ChipMove, 'animated'>): Phaser.GameObjects.Container {
    const g = this.scene.add.graphics();
    const colors = m.kind === 'win' ? [0xf2c14e, 0xe0a82e, 0xf2c14e] : [0xe5483f, 0xffffff, 0x2f80ed];
    colors.forEach((c, i) => {
      g.fillStyle(0x000000, 0.35).fillCircle(1, 2 - i * 4, 11);
      g.fillStyle(c, 1).fillCircle(0, -i * 4, 10);
      g.lineStyle(2, 0xffffff, 0.8).strokeCircle(0, -i * 4, 7);
    });
    const t = this.scene.add
      .text(0, 10, m.amount.toLocaleString('ko-KR'), textStyle(11, '#ffffff', 800, { backgroundColor: '#000000aa' }))
      .setOrigin(0.5, 0);
    return this.scene.add.container(m.from.x, m.from.y, [g, t]).setDepth(60);
  }
}
