/**
 * Containers for the short-lived entries of request paths (a request waiting for its reply, an attempt in
 * flight), in plain arrays of slots instead of a `Map` or `Set`.
 *
 * Why not a Map or Set: V8 rehashes one whose entries come and go into a NEW table every few dozen deletions,
 * and the obsolete table keeps both its entries and a pointer to its successor (for iterators still walking
 * it). Once one such table has reached the old generation, the scavenger takes that pointer as a root: every
 * later table, every value in them and everything those reach (a request's promise, its async frames, its
 * decoded reply) survive their scavenges and are promoted, until the next mark-compact frees the chain — and
 * if the table current at that mark-compact is old itself, the next chain starts from it. Keyed by reply
 * token in the NATS reply inbox, that was ≈ 1.6 KB promoted per gateway request, 90 % of what its benchmark
 * promoted (`services/gateway/bench/action.ts` under `--trace-gc-nvp`, 2026-12-06). An array slot is cleared
 * when its value leaves, and nothing old points at what comes next.
 */

/**
 * Values waiting under short-lived string tokens (requests waiting for their replies), in slots whose index is
 * part of the token.
 *
 * A token is `<slot>_<serial>` in base 36: the slot to look in, and a serial that tells a reused slot's
 * new value from a late or forged token of its old one.
 */
export class TokenSlots<T> {
  private readonly values: (T | undefined)[] = [];
  private readonly tokens: (string | undefined)[] = [];
  private readonly free: number[] = [];
  private issued = 0;
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Stores `value` under a new token, and returns the token. */
  add(value: T): string {
    const slot = this.free.length > 0 ? this.free.pop()! : this.values.length;
    const token = `${slot.toString(36)}_${(++this.issued).toString(36)}`;
    this.values[slot] = value;
    this.tokens[slot] = token;
    this.count++;
    return token;
  }

  /** Removes and returns the value under `token` (undefined: none, or no longer). */
  take(token: string): T | undefined {
    const slot = this.slotOf(token);
    if (slot < 0) return undefined;
    const value = this.values[slot];
    this.values[slot] = undefined;
    this.tokens[slot] = undefined;
    this.free.push(slot);
    this.count--;
    return value;
  }

  /** Every value held, in slot order. */
  all(): T[] {
    const out: T[] = [];
    for (let i = 0; i < this.values.length; i++) if (this.tokens[i] !== undefined) out.push(this.values[i]!);
    return out;
  }

  clear(): void {
    this.values.length = 0;
    this.tokens.length = 0;
    this.free.length = 0;
    this.count = 0;
  }

  /** The slot `token` names while it is that slot's current token; -1 otherwise. */
  private slotOf(token: string): number {
    const slot = parseInt(token, 36);
    return slot >= 0 && slot < this.tokens.length && this.tokens[slot] === token ? slot : -1;
  }
}

/**
 * A set of objects that each carry their own slot index (`slot`, -1 while out of every set): add, delete
 * and iteration as a Set's, without a hash table to rehash. One set per object at a time.
 */
export class SlotSet<T extends { slot: number }> {
  private readonly items: (T | undefined)[] = [];
  private readonly free: number[] = [];
  private count = 0;

  get size(): number {
    return this.count;
  }

  add(x: T): void {
    if (x.slot >= 0 && this.items[x.slot] === x) return;
    const slot = this.free.length > 0 ? this.free.pop()! : this.items.length;
    this.items[slot] = x;
    x.slot = slot;
    this.count++;
  }

  has(x: T): boolean {
    return x.slot >= 0 && this.items[x.slot] === x;
  }

  delete(x: T): boolean {
    if (!this.has(x)) return false;
    this.items[x.slot] = undefined;
    this.free.push(x.slot);
    x.slot = -1;
    this.count--;
    return true;
  }

  /** The members at the moment of the call (deleting while walking the copy is safe). */
  members(): T[] {
    const out: T[] = [];
    for (const x of this.items) if (x !== undefined) out.push(x);
    return out;
  }
}
