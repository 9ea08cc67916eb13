/**
 * What every service process shares to be operable: its configuration from the environment (each setting
 * described, so docs and the chart come from it), its logs, its metrics, its ops HTTP server (/healthz,
 * /readyz, /metrics), its event-loop liveness and its last-resort handlers.
 */
export {
  defineConfig,
  opt,
  int,
  bool,
  ConfigError,
  exitOnConfigError,
  type ConfigDef,
  type ConfigOf,
  type EnvOption,
} from './config.ts';
export { connectionOptions } from './connection.ts';
export { createLogger, serviceLogger, type Logger } from './log.ts';
export { installLastResort, type LastResort } from './last-resort.ts';
export { processRegistry, aliasMetrics, aliasPrefix, type MetricAlias } from './metrics.ts';
export {
  startOpsServer,
  failingChecks,
  type OpsServer,
  type OpsServerOptions,
  type HttpHandler,
  type ReadinessChecks,
} from './http.ts';
export { startLoopLagMonitor, livenessOptions, type LoopLagMonitor } from './liveness.ts';
