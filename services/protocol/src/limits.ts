/** Limits shared by the gateway, the client and the load tools. */
export const LIMITS = {
  /** Largest client frame the gateway accepts; actions are tiny, views go the other way. */
  maxClientFrameBytes: 4096,
  /** Token bucket per connection: sustained messages per second and burst. */
  ratePerSecond: 20,
  rateBurst: 40,
  /** How long a gateway waits for a room worker before retrying (same actionId). */
  commandTimeoutMs: 2000,
  /**
   * Acknowledged action ids remembered per seated user for idempotent retries (room worker
   * idempotency.ts); nobody else's traffic counts against a user's window.
   */
  rememberedActionIdsPerUser: 64,
  /** Refused action ids remembered per seated user, apart from the acknowledged ones. */
  rememberedRefusalsPerUser: 16,
} as const;
