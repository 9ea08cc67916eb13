/**
 * Player tokens: HS256 JWTs signed by the lobby and checked by the gateway.
 * `sub` is the stable user id, `name` the nickname shown at the table.
 */
import { SignJWT, jwtVerify } from 'jose';

type CryptoKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

export interface PlayerClaims {
  sub: string;
  name: string;
}

const ISSUER = 'joke-app';

/**
 * Secret of the embedded single-process platform (`npm start`) and the default
 * of the load-test swarm's `--jwt-secret`, so both sign and check the same
 * tokens out of the box. Development only: production sets JWT_SECRET.
 */
export const DEV_JWT_SECRET = 'joke-app-dev-secret-not-for-production';
const enc = new TextEncoder();

export async function signPlayerToken(
  secret: string,
  claims: PlayerClaims,
  ttlSeconds = 7 * 24 * 3600,
): Promise<string> {
  return new SignJWT({ name: claims.name })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(claims.sub)
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(enc.encode(secret));
}

/**
 * The secret imported as an HMAC key once, not at every check: given the raw bytes, jose imports them
 * anew per token, ≈ 2 % of the gateway's busy samples while the swarm signed in (issue 9). One secret
 * per process in practice; the cache is dropped if it ever holds more.
 */
const keys = new Map<string, Promise<CryptoKey>>();
function verifyKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    if (keys.size >= 4) keys.clear();
    key = crypto.subtle.importKey('raw', enc.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
    keys.set(secret, key);
  }
  return key;
}

/** Throws on a bad signature, wrong issuer, expiry or missing claims. */
export async function verifyPlayerToken(secret: string, token: string): Promise<PlayerClaims> {
  const { payload } = await jwtVerify(token, await verifyKey(secret), { issuer: ISSUER, algorithms: ['HS256'] });
  if (typeof payload.sub !== 'string' || typeof payload.name !== 'string') throw new Error('token lacks sub/name');
  return { sub: payload.sub, name: payload.name };
}
