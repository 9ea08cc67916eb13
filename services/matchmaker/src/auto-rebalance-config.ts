/** Options of the automatic rebalance leader (auto-rebalance.ts), read from the environment. */
import { defineConfig, int, opt, type ConfigOf } from '@joke/ops';

export const autoRebalanceConfig = defineConfig({
  threshold: opt(
    'AUTO_REBALANCE_THRESHOLD',
    int(0, 1_000_000),
    0,
    'Tables by which the fullest and the emptiest live worker must differ before the leader moves any. 0 = off (the default outside Kubernetes; the Helm chart sets 20); `npm run rebalance` works either way.',
  ),
  intervalMs: opt(
    'AUTO_REBALANCE_INTERVAL_MS',
    int(100, 3_600_000),
    5_000,
    'How often the leader compares the workers; also the lease renewal period.',
  ),
  maxMoves: opt(
    'AUTO_REBALANCE_MAX_MOVES',
    int(1, 100_000),
    50,
    'Tables moved per round at most, so a rollout or a scale-up never causes a migration storm.',
  ),
  settleMs: opt(
    'AUTO_REBALANCE_SETTLE_MS',
    int(0, 3_600_000),
    10_000,
    'A worker first seen less than this long ago is not a target yet (it may still be starting; a rollout may be on).',
  ),
});

export type AutoRebalanceConfig = ConfigOf<typeof autoRebalanceConfig.spec>;
