/**
 * The loopback rule of every load tool here: a k6 script refuses a target that is not on this
 * machine unless TARGET_IS_MINE=1 (only for infrastructure you own), as the Node swarm does without
 * --target-is-mine. Throws while the script loads, so nothing is sent.
 */
export type Env = Record<string, string | undefined>;

const LOOPBACK = /^(wss?|https?):\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?\//;

/** Loopback only, like the Node swarm, unless TARGET_IS_MINE=1: only against infrastructure you own. */
export function checkTarget(url: string, env: Env): string {
  if (env.TARGET_IS_MINE !== '1' && !LOOPBACK.test(url))
    throw new Error(`refusing non-loopback target ${url} (set TARGET_IS_MINE=1 only for infrastructure you own)`);
  return url;
}
