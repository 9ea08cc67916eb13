/**
 * JSON.stringify of an object, reusing the JSON of top-level members that were
 * already encoded. Exactly JSON.stringify's output (same key order, same
 * omission of undefined members); checked against it for every game in
 * test/shared-json.test.ts.
 *
 * Why: per action the worker encodes one view per viewer and one snapshot of
 * the engine state. The views of one transition share most of their members
 * with each other (the engine returns the state's own objects for public
 * parts: options, players, seats, status…), and consecutive states share
 * every member a move did not touch (the engine is copy-on-write and never
 * mutates a state it was given, engine/src/core/types.ts). Reusing those
 * members' JSON is what makes "encode only what changed" possible without
 * the engine knowing about encodings.
 */

/** `"key":` per member name; member names come from the games' shapes, so this stays small. */
const keyParts = new Map<string, string>();
const MAX_KEY_PARTS = 4096;

function keyPart(k: string): string {
  let p = keyParts.get(k);
  if (p === undefined) {
    p = JSON.stringify(k) + ':';
    if (keyParts.size < MAX_KEY_PARTS) keyParts.set(k, p);
  }
  return p;
}

/** A member as JSON.stringify writes it inside an object; undefined = omitted. */
function primitivePart(v: unknown): string | undefined {
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'number':
      return Number.isFinite(v) ? String(v) : 'null';
    case 'boolean':
      return v ? 'true' : 'false';
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    default:
      return JSON.stringify(v); // bigint throws as JSON.stringify would
  }
}

/** Objects this walk may take apart: plain objects without toJSON (what the engine produces). */
function walkable(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  return typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

/**
 * Views of one transition: member objects shared between viewers are encoded
 * once. `clear()` between transitions (a new state brings new objects; the map
 * would otherwise keep old states alive).
 */
export class SharedMembers {
  private readonly seen = new Map<object, string>();

  clear(): void {
    this.seen.clear();
  }

  stringify(value: unknown): string {
    if (!walkable(value)) return JSON.stringify(value);
    let out = '{';
    for (const k of Object.keys(value)) {
      const v = value[k];
      let json: string | undefined;
      if (v !== null && typeof v === 'object') {
        json = this.seen.get(v);
        if (json === undefined) {
          json = JSON.stringify(v);
          this.seen.set(v, json);
        }
      } else {
        json = primitivePart(v);
        if (json === undefined) continue;
      }
      out += (out.length === 1 ? '' : ',') + keyPart(k) + json;
    }
    return out + '}';
  }

  /** An array (a transition's events as one viewer sees them) whose object elements other viewers share. */
  stringifyList(list: readonly unknown[]): string {
    let out = '[';
    for (let i = 0; i < list.length; i++) {
      const v = list[i];
      let json: string | undefined;
      if (v !== null && typeof v === 'object') {
        json = this.seen.get(v);
        if (json === undefined) {
          json = JSON.stringify(v);
          this.seen.set(v, json);
        }
      } else json = primitivePart(v) ?? 'null';
      out += (i === 0 ? '' : ',') + json;
    }
    return out + ']';
  }
}

/**
 * Successive states of one room: a member object that is the same object as in
 * the previous state keeps its JSON; only the members the transition replaced
 * are encoded again. A replaced member that is itself a plain object (a record
 * of hands by player, say) is walked one level further the same way, so the
 * hands nobody touched keep their JSON too.
 */
export class ChangedMembers {
  private prev: Record<string, unknown> | null = null;
  private readonly parts = new Map<string, string>();
  private readonly inner: Map<string, ChangedMembers> | null;

  constructor(depth = 2) {
    this.inner = depth > 1 ? new Map() : null;
  }

  stringify(value: unknown): string {
    if (!walkable(value)) {
      this.prev = null;
      return JSON.stringify(value);
    }
    const prev = this.prev;
    let out = '{';
    for (const k of Object.keys(value)) {
      const v = value[k];
      let json: string | undefined;
      if (v !== null && typeof v === 'object') {
        if (prev !== null && prev[k] === v) json = this.parts.get(k);
        if (json === undefined) {
          json = this.member(k, v);
          this.parts.set(k, json);
        }
      } else {
        json = primitivePart(v);
        if (json === undefined) continue;
      }
      out += (out.length === 1 ? '' : ',') + keyPart(k) + json;
    }
    this.prev = value;
    return out + '}';
  }

  private member(k: string, v: object): string {
    if (this.inner === null || !walkable(v)) return JSON.stringify(v);
    let enc = this.inner.get(k);
    if (enc === undefined) {
      if (this.inner.size >= MAX_KEY_PARTS) return JSON.stringify(v);
      this.inner.set(k, (enc = new ChangedMembers(1)));
    }
    return enc.stringify(v);
  }
}
