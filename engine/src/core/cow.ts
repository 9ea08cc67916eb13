/**
 * Copy-on-write, the one way the three games keep `apply`'s input state untouched (core/types.ts
 * `apply` is pure) without a deep clone: a transition copies an object the first time it writes to it
 * and writes only to its copies.
 *
 * `Owned` is for a transition that writes in place (원카드's Tx, 포커's Ctx): it remembers which objects
 * this transition made, so the second write to a player or a record does not copy again. `patchAt` is
 * for code written as expressions (훌라): a new array with one element replaced by a patched copy.
 * State: an `Owned` lives for one transition and must not be kept past it (a later transition would
 * then write into a state that is already shared). Failure modes: writing to an object not obtained
 * through `own`/`adopt` mutates the caller's state — nothing here can detect that; the games'
 * purity tests (input frozen or compared after apply) do.
 */
export class Owned {
  private readonly mine = new Set<object>();

  /** `value` itself when this transition made it, else a shallow copy (array or object) that it now owns. */
  own<T extends object>(value: T): T {
    if (this.mine.has(value)) return value;
    const copy = (Array.isArray(value) ? value.slice() : { ...value }) as T;
    this.mine.add(copy);
    return copy;
  }

  /** Marks `value`, built fresh in this transition, as safe to write; returns it. */
  adopt<T extends object>(value: T): T {
    this.mine.add(value);
    return value;
  }
}

/** A copy of `items` whose element `index` is a copy of the old one with `patch` applied. */
export function patchAt<T extends object>(items: readonly T[], index: number, patch: Partial<T>): T[] {
  return items.with(index, { ...items[index], ...patch });
}
