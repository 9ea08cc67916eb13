/* global __ENV */
// Shared helpers of the k6 scripts: the loopback rule and the lobby sign-in.
// UNTESTED HERE under k6 itself: k6 cannot be installed on this repo's machines
// (load-tests/README.md); `npm test` type-checks these files against @types/k6.
import http from 'k6/http';
import { guestInput } from './protocol.js';

/** Loopback only, like the Node swarm, unless TARGET_IS_MINE=1: only against infrastructure you own. */
export function checkTarget(url) {
  const mine = __ENV.TARGET_IS_MINE === '1';
  if (!mine && !/^(wss?|https?):\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?\//.test(url))
    throw new Error(`refusing non-loopback target ${url} (set TARGET_IS_MINE=1 only for infrastructure you own)`);
  return url;
}

/**
 * A guest token from the lobby (auth.guest over tRPC's HTTP wire format), as the
 * browser gets one: the scripts never hold the JWT secret. Each VU signs in
 * once and keeps its token across iterations (the lobby limits sign-ups).
 */
let token = null;
export function vuToken(lobby, vu) {
  if (token) return token;
  const res = http.post(`${lobby}/auth.guest`, JSON.stringify(guestInput(vu)), {
    headers: { 'content-type': 'application/json' },
    tags: { name: 'auth.guest' },
  });
  if (res.status !== 200) throw new Error(`guest sign-in failed: ${res.status} ${res.body}`);
  token = res.json('result.data.token');
  return token;
}
