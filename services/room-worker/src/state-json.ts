/**
 * `JSON.stringify(state)`, byte for byte, without re-encoding what the last
 * transition left alone.
 *
 * Why: the snapshot write encodes the whole engine state after every action
 * (≈ 3.8 KB for one-card, ≈ 25 µs — the largest piece of JS the worker runs per
 * action), yet a transition replaces only a few members: the engines are pure
 * and copy on write (docs/engine.md: `apply` never mutates its input), so every
 * member the action did not touch is the SAME object as in the state encoded
 * before. Its text is kept and reused while that identity holds, down to
 * `depth` levels of plain objects (the state's members and their members, e.g.
 * one-card's `hands.p1` when only `p2` played); anything deeper, and arrays, is
 * encoded whole as before.
 *
 * Sound only because no object reachable from a state is mutated after the
 * state was handed over: the engines never mutate (their purity tests freeze
 * states), and the worker only ever replaces `data.state`. The room-worker test
 * `state-json.test.ts` plays every game on frozen states and compares each text
 * with JSON.stringify.
 *
 * Equivalence with JSON.stringify: members are taken in `Object.keys` order
 * (the order JSON.stringify uses), keys are quoted by JSON.stringify, members
 * whose value encodes to nothing (undefined, functions) are left out as
 * JSON.stringify leaves them out. Only plain objects without `toJSON` are
 * walked; anything else goes to JSON.stringify whole.
 */

interface Memo {
  value: object;
  json: string;
  /** The members' memo, for a plain object walked member by member. */
  members: Map<string, Memo> | null;
}

/** Levels of plain objects whose members are remembered one by one. */
const DEPTH = 2;

const quoted = new Map<string, string>();
function quote(key: string): string {
  let q = quoted.get(key);
  if (q === undefined) {
    q = JSON.stringify(key);
    // Keys are the games' field names and player ids: few, but never let the table grow unbounded.
    if (quoted.size < 4096) quoted.set(key, q);
  }
  return q;
}

function isPlainObject(v: object): v is Record<string, unknown> {
  if (Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return (proto === Object.prototype || proto === null) && typeof (v as { toJSON?: unknown }).toJSON !== 'function';
}

export class StateJson {
  /** The previous state and its text (a write without a transition encodes the same state again). */
  private last: Memo | null = null;

  encode(state: unknown): string {
    if (typeof state !== 'object' || state === null || !isPlainObject(state)) return JSON.stringify(state);
    if (this.last?.value === state) return this.last.json;
    const members = this.last?.members ?? new Map<string, Memo>();
    const json = this.object(state, members, DEPTH);
    this.last = { value: state, json, members };
    return json;
  }

  private object(o: Record<string, unknown>, memo: Map<string, Memo>, depth: number): string {
    let out = '{';
    let sep = '';
    for (const key of Object.keys(o)) {
      const v = o[key];
      let json: string | undefined;
      if (typeof v === 'object' && v !== null) {
        let m = memo.get(key);
        if (m === undefined || m.value !== v) {
          const walk = depth > 1 && isPlainObject(v);
          const members = walk ? (m?.members ?? new Map<string, Memo>()) : null;
          const text = walk ? this.object(v, members!, depth - 1) : JSON.stringify(v);
          m = { value: v, json: text, members };
          memo.set(key, m);
        }
        json = m.json;
      } else json = JSON.stringify(v);
      if (json === undefined) continue;
      out += sep + quote(key) + ':' + json;
      sep = ',';
    }
    return out + '}';
  }
}
