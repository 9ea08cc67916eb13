/**
 * How bots get their tokens. By default exactly like the browser client: the
 * lobby's guest sign-in (`auth.guest` over tRPC's HTTP wire format), so the
 * swarm never holds the target's JWT secret. The lobby limits guest sign-ups;
 * the swarm keeps a few sign-ins in flight, waits out "too many requests"
 * answers (Retry-After, else exponential back-off) and can keep its tokens in
 * a file so that the next run resumes the same identities instead of signing
 * up new ones. `jwt-secret` signs tokens locally: only for stacks this
 * repository starts itself (tests, measure-stack.sh).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { signPlayerToken } from '@joke/protocol/auth';

export interface Identity {
  userId: string;
  name: string;
  token: string;
}

export interface SignInHooks {
  /** Time the lobby took to answer a successful sign-in. */
  signedIn(ms: number): void;
  throttled(): void;
  stopping(): boolean;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly retryAfterMs: number | null,
    message: string,
  ) {
    super(message);
  }
}

/** One POST of a tRPC mutation (no transformer: the body is the input, the answer is {result:{data}}). */
function trpcMutation(
  baseUrl: string,
  path: string,
  input: unknown,
  localAddress: string | undefined,
): Promise<unknown> {
  const url = new URL(`${baseUrl.replace(/\/$/, '')}/${path}`);
  const body = JSON.stringify(input);
  const lib = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = lib.request(
      url,
      {
        method: 'POST',
        localAddress,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        timeout: 30_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const status = res.statusCode ?? 0;
          if (status === 200) {
            try {
              return resolve((JSON.parse(text) as { result: { data: unknown } }).result.data);
            } catch {
              return reject(new HttpError(status, null, `unreadable answer from ${url}`));
            }
          }
          const retry = Number(res.headers['retry-after']);
          reject(
            new HttpError(status, Number.isFinite(retry) ? retry * 1000 : null, `${status} ${text.slice(0, 200)}`),
          );
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`sign-in timed out (${url})`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** A small semaphore: at most `limit` sign-ins in flight. */
class Gate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly limit: number) {}
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((r) => this.waiting.push(r));
    this.active++;
    try {
      return await fn();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Authenticator {
  /** A token for bot `key` (stable across runs when a token cache is used). */
  identity(key: string, localAddress?: string): Promise<Identity>;
  /** Writes the token cache, if any. */
  save(): void;
}

/** Guest sign-in through the lobby, as the browser does it. */
export function lobbyAuthenticator(opts: {
  lobbyUrl: string;
  concurrency: number;
  cacheFile: string;
  hooks: SignInHooks;
}): Authenticator {
  const gate = new Gate(opts.concurrency);
  const cache: Record<string, Identity> =
    opts.cacheFile && existsSync(opts.cacheFile)
      ? ((JSON.parse(readFileSync(opts.cacheFile, 'utf8')) as Record<string, Record<string, Identity>>)[
          opts.lobbyUrl
        ] ?? {})
      : {};
  const issued: Record<string, Identity> = {};
  return {
    async identity(key, localAddress) {
      const name = `load${key.replace(/\D/g, '').slice(-8) || '0'}`.slice(0, 12);
      const known = issued[key] ?? cache[key];
      const input = known ? { nickname: known.name, resumeToken: known.token } : { nickname: name };
      for (let attempt = 0; ; attempt++) {
        if (opts.hooks.stopping()) throw new Error('stopping');
        try {
          const started = performance.now();
          const data = (await gate.run(() => trpcMutation(opts.lobbyUrl, 'auth.guest', input, localAddress))) as {
            userId: string;
            nickname: string;
            token: string;
          };
          opts.hooks.signedIn(performance.now() - started);
          return (issued[key] = { userId: data.userId, name: data.nickname, token: data.token });
        } catch (err) {
          if (!(err instanceof HttpError) || (err.status !== 429 && err.status < 500) || attempt >= 30) throw err;
          if (err.status === 429) opts.hooks.throttled();
          await sleep(err.retryAfterMs ?? Math.min(30_000, 250 * 2 ** Math.min(attempt, 7)));
        }
      }
    },
    save() {
      if (!opts.cacheFile) return;
      const all = existsSync(opts.cacheFile)
        ? (JSON.parse(readFileSync(opts.cacheFile, 'utf8')) as Record<string, Record<string, Identity>>)
        : {};
      all[opts.lobbyUrl] = { ...all[opts.lobbyUrl], ...issued };
      writeFileSync(opts.cacheFile, JSON.stringify(all));
    },
  };
}

/** Tokens signed here with the target's secret: only for stacks this repository starts itself. */
export function secretAuthenticator(secret: string, runId: string): Authenticator {
  return {
    async identity(key) {
      const userId = `bot-${runId}-${key}`;
      const name = `봇${key.replace(/\D/g, '').slice(-6)}`;
      return { userId, name, token: await signPlayerToken(secret, { sub: userId, name }, 3600 * 48) };
    },
    save() {},
  };
}
