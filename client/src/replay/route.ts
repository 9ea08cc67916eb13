/**
 * The shareable 복기 address: `/#/replay/<gameId>` (also `?replay=<gameId>`). The link carries no token:
 * a public game opens for anyone, a private one after signing in (the address stays until then).
 */
const HASH = /^#\/replay\/([A-Za-z0-9_-]{1,64})$/;

export function replayIdFromUrl(loc: Pick<Location, 'hash' | 'search'> = location): string | null {
  const m = HASH.exec(loc.hash);
  if (m) return m[1];
  const q = new URLSearchParams(loc.search).get('replay');
  return q && /^[A-Za-z0-9_-]{1,64}$/.test(q) ? q : null;
}

export function replayLink(gameId: string): string {
  return `${location.origin}${location.pathname}#/replay/${gameId}`;
}

/** Puts the game in the address bar (a reload or a copied address reopens it) without a navigation. */
export function showReplayInUrl(gameId: string): void {
  const q = new URLSearchParams(location.search);
  q.delete('replay');
  const search = q.toString();
  history.replaceState(null, '', `${location.pathname}${search ? `?${search}` : ''}#/replay/${gameId}`);
}

export function clearReplayFromUrl(): void {
  const q = new URLSearchParams(location.search);
  q.delete('replay');
  const search = q.toString();
  history.replaceState(null, '', `${location.pathname}${search ? `?${search}` : ''}`);
}
