/**
 * Leak detection that works from the set of cards hidden from a viewer, not
 * from field names: every object anywhere in a payload is asked "are you a
 * card, and which face?", and every string is compared with hidden card ids.
 */
import type { GameStateBase, PlayerId } from '../core/types.ts';
import type { SimAdapter } from './adapter.ts';

export interface HiddenSet {
  ids: Set<string>;
  faces: Set<string>;
}

export function hiddenSet<S extends GameStateBase>(
  adapter: SimAdapter<S>,
  state: S,
  viewer: PlayerId | null,
): HiddenSet {
  const hidden = adapter.hiddenFrom(state, viewer);
  const hiddenIds = new Set(hidden.map((c) => String(adapter.cardId(c))));
  const faces = new Set<string>();
  for (const c of hidden) {
    const f = adapter.faceOf(c);
    if (f) faces.add(f);
  }
  // A face also held by a card the viewer may see (two decks) cannot be told apart: not a leak.
  for (const c of adapter.allCards(state)) {
    if (hiddenIds.has(String(adapter.cardId(c)))) continue;
    const f = adapter.faceOf(c);
    if (f) faces.delete(f);
  }
  return { ids: adapter.idsAreTokens ? hiddenIds : new Set(), faces };
}

/** Returns a description of each leak found in `payload` (a view or an event). */
export function findLeaks<S extends GameStateBase>(
  adapter: SimAdapter<S>,
  hidden: HiddenSet,
  payload: unknown,
): string[] {
  const leaks: string[] = [];
  const walk = (node: unknown, path: string): void => {
    if (typeof node === 'string') {
      if (hidden.ids.has(node)) leaks.push(`${path}: hidden card id ${node}`);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) walk(node[i], `${path}[${i}]`);
      return;
    }
    const face = adapter.faceOf(node);
    if (face !== null && hidden.faces.has(face)) leaks.push(`${path}: hidden card face ${face}`);
    for (const [k, v] of Object.entries(node)) walk(v, `${path}.${k}`);
  };
  walk(payload, '$');
  return leaks;
}

/** Words that must never appear in a payload sent to a client. */
export function findStateLeaks(payload: unknown, secretSeed: string, rngState: number[]): string[] {
  const json = JSON.stringify(payload);
  const out: string[] = [];
  if (secretSeed && json.includes(secretSeed)) out.push('secret seed');
  if (json.includes(JSON.stringify(rngState))) out.push('rng state');
  return out;
}
