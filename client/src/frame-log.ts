/**
 * The raw view frames a table received, kept for the test hook (`__joke.frames()`: the secrecy
 * checks read what a spectator's socket carried). Only a test build keeps them (`vite build --mode
 * test`, vitest, `vite --mode test`; see testhook.ts): a player's page never pays for the copies. Bounded: a ring of the last FRAME_LOG_SIZE frames, so a
 * long session in a test build holds a few MB at most (the client kept 5,000 frames per socket and
 * every frame of each table before, issue 39 §6).
 *
 * Failure mode: a test that reads frames by index (`frames().slice(seen)`) sees the window shift once
 * more than FRAME_LOG_SIZE frames arrived; whole test games stay well under it.
 */
export const FRAME_LOG_SIZE = 1000;

export class FrameLog {
  private readonly ring: string[] = [];
  /** Where the next frame goes once the ring is full (= the oldest frame kept). */
  private next = 0;

  constructor(
    private readonly size = FRAME_LOG_SIZE,
    private readonly keep = import.meta.env.MODE === 'test',
  ) {}

  /** Keeps one frame; `raw` is a function so a production page does not even build the text. */
  record(raw: string | (() => string)): void {
    if (!this.keep) return;
    const text = typeof raw === 'string' ? raw : raw();
    if (this.ring.length < this.size) this.ring.push(text);
    else {
      this.ring[this.next] = text;
      this.next = (this.next + 1) % this.size;
    }
  }

  /** The frames kept, oldest first (empty outside test builds). */
  list(): string[] {
    return [...this.ring.slice(this.next), ...this.ring.slice(0, this.next)];
  }
}
