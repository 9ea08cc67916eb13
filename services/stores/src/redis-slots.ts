/**
 * Redis Cluster hash slots, computed here so the store can group a coalesced
 * write by slot and keep its room index in the slot of the rooms it lists.
 *
 * A Lua script on a cluster may only touch keys of one slot. A room's keys
 * share the slot of its `{roomId}` hash tag; the index of the rooms of that
 * slot must live there too, so its key carries a hash tag chosen to land in
 * the same slot (`slotTag`): `N:rooms:{<tag>}`.
 */

const SLOTS = 16384;

const CRC16_TABLE = (() => {
  const t = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i << 8;
    for (let b = 0; b < 8; b++) c = c & 0x8000 ? ((c << 1) ^ 0x1021) & 0xffff : (c << 1) & 0xffff;
    t[i] = c;
  }
  return t;
})();

/** CRC16-XMODEM of the UTF-8 bytes, as Redis Cluster uses it. */
function crc16(s: string): number {
  let crc = 0;
  for (const byte of Buffer.from(s, 'utf8')) crc = ((crc << 8) & 0xffff) ^ CRC16_TABLE[((crc >> 8) ^ byte) & 0xff];
  return crc;
}

/** The slot Redis Cluster serves `key` from (hash tag rules: the first `{…}` with something inside). */
export function keySlot(key: string): number {
  const open = key.indexOf('{');
  if (open !== -1) {
    const close = key.indexOf('}', open + 1);
    if (close > open + 1) return crc16(key.slice(open + 1, close)) % SLOTS;
  }
  return crc16(key) % SLOTS;
}

let tags: string[] | null = null;

/** A short hash tag whose slot is `slot` (the first base-36 number that lands there; built once on first use, ≈ 0.1 s). */
export function slotTag(slot: number): string {
  if (!tags) {
    const found: string[] = new Array<string>(SLOTS);
    let left = SLOTS;
    for (let n = 0; left > 0; n++) {
      const tag = n.toString(36);
      const s = crc16(tag) % SLOTS;
      if (found[s] === undefined) {
        found[s] = tag;
        left--;
      }
    }
    tags = found;
  }
  return tags[slot];
}

/**
 * `items` in chunks of at most `max`, each of one slot on a cluster (a script may touch one slot only); on a
 * single Redis any mix goes together, so the chunks are as big as `max` allows.
 */
export function bySlot<T>(cluster: boolean, items: T[], keyOf: (t: T) => string, max: number): T[][] {
  const groups = new Map<number, T[]>();
  for (const t of items) {
    const slot = cluster ? keySlot(keyOf(t)) : 0;
    const g = groups.get(slot);
    if (g) g.push(t);
    else groups.set(slot, [t]);
  }
  const out: T[][] = [];
  for (const g of groups.values()) for (let i = 0; i < g.length; i += max) out.push(g.slice(i, i + max));
  return out;
}
