/** Options of the gateway's rolling-update shutdown (shutdown.ts), read from the environment. */
import { defineConfig, int, opt, type ConfigOf } from '@joke/ops';

export const shutdownEnv = defineConfig({
  spreadMs: opt(
    'GATEWAY_SHUTDOWN_SPREAD_MS',
    int(0, 600_000),
    10_000,
    'On SIGTERM: turn not-ready, stop accepting sockets, then close the open ones spread evenly over this window, each with a reconnect hint, so players land on the other gateways without a thundering herd.',
  ),
});

export type ShutdownConfig = ConfigOf<typeof shutdownEnv.spec>;
