/** Limits shared by the gateway, the client and the load tools. */
export const LIMITS = {
  /** Largest client frame the gateway accepts; actions are tiny, views go the other way. */
  maxClientFrameBytes: 4096,
  /** Token bucket per connection: sustained messages per second and burst. */
  ratePerSecond: 20,
  rateBurst: 40,
  /** How long a gateway waits for a room worker before retrying (same actionId). */
  commandTimeoutMs: 2000,
  /** Action ids remembered per room for idempotent retries. */
  rememberedActionIds: 512,
} as const;
