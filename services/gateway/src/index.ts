export { startGateway, type Gateway, type GatewayDeps } from './gateway.ts';
export { GatewayConfig, gatewayEnv, gatewayOptionTables, configFromEnv, type GatewayConfigInput } from './config.ts';
export { uwsNative, uwsBinary } from './uws.ts';
export type { GatewayMetrics } from './metrics.ts';
export { shutdownEnv, type ShutdownConfig } from './shutdown-config.ts';
