/**
 * Guest sign-in for the k6 scripts, as the browser signs in: the lobby's `auth.guest` over tRPC's
 * HTTP wire format, so a script never holds the target's JWT secret.
 *
 * The lobby limits guest sign-ins per client address (LOBBY_RATE_GUEST_PER_IP, 60 a minute by
 * default). A refused sign-in (429) is counted (`signin_refused`) and waited out with jittered
 * exponential back-off (2 s, 6 s, 18 s × 0.5–1.5); a seat that has waited `patienceMs` without a
 * token aborts the whole run (`exec.test.abort`, exit 108) with a message naming the setting, so a
 * run that cannot seat its tables ends early instead of hammering the lobby. A wait that would pass
 * the end of the seat's stage gives up instead (no token, no abort). 429 is declared an
 * expected status, so `http_req_failed` counts only real failures; any other status is a failed
 * check and a thrown error (the VU's iteration ends; it is not started again: one iteration per VU).
 */
import http from 'k6/http';
import { check, sleep } from 'k6';
import exec from 'k6/execution';
import { metrics } from './metrics.ts';

http.setResponseCallback(http.expectedStatuses(200, 429));

/** The lobby accepts 2–12 character nicknames. */
export const nicknameOf = (index: number): string => `k6${index}`.slice(0, 12);

/**
 * A token, or null when the stage ends (`deadline`, epoch ms) before the lobby let this seat in: such a
 * seat is simply never seated, and the `tables_seated` threshold says so.
 */
export function signIn(lobby: string, index: number, patienceMs: number, deadline: number): string | null {
  let waited = 0;
  for (let attempt = 0; ; attempt++) {
    const res = http.post(`${lobby}/auth.guest`, JSON.stringify({ nickname: nicknameOf(index) }), {
      headers: { 'content-type': 'application/json' },
      tags: { name: 'auth.guest' },
    });
    if (res.status === 429) {
      metrics.signinRefused.add(1);
      const wait = 2000 * 3 ** attempt * (0.5 + Math.random());
      if (Date.now() + wait >= deadline) return null;
      if (waited + wait > patienceMs) {
        exec.test.abort(
          `the lobby kept refusing guest sign-ins (429) for ${Math.round(waited / 1000)} s: this run cannot seat its tables. ` +
            'Lift its limit for the test (LOBBY_RATE_GUEST_PER_IP=0 on a lobby you own), ' +
            'or spread the VUs over more source addresses.',
        );
        throw new Error('aborted');
      }
      waited += wait;
      sleep(wait / 1000);
      continue;
    }
    const token = res.status === 200 ? (res.json('result.data.token') as string | null) : null;
    check(res, { 'guest sign-in gives a token': () => typeof token === 'string' && token.length > 0 });
    if (typeof token !== 'string')
      throw new Error(`guest sign-in failed: ${res.status} ${String(res.body).slice(0, 200)}`);
    return token;
  }
}
