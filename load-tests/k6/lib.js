// Shared helpers for the k6 scripts (k6 runs plain JS: no TypeScript, no npm imports).
// UNTESTED HERE: k6 is not installable on the development machines of this repo.
import crypto from 'k6/crypto';
import encoding from 'k6/encoding';

/** Same HS256 token as @joke/protocol/auth signPlayerToken (issuer joke-app, sub + name claims). */
export function signToken(secret, sub, name) {
  const now = Math.floor(Date.now() / 1000);
  const b64 = (obj) => encoding.b64encode(JSON.stringify(obj), 'rawurl');
  const head = b64({ alg: 'HS256' });
  const body = b64({ name, sub, iss: 'joke-app', iat: now, exp: now + 3600 });
  const sig = crypto.hmac('sha256', secret, `${head}.${body}`, 'base64rawurl');
  return `${head}.${body}.${sig}`;
}

/** Loopback only, like the Node swarm: refuse to load anything else. */
export function checkTarget(url) {
  if (!/^wss?:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\//.test(url))
    throw new Error(`refusing non-loopback target ${url}`);
  return url;
}

export const DEV_JWT_SECRET = 'joke-app-dev-secret-not-for-production';
