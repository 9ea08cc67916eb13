/**
 * Structured JSON logs (pino) to stdout; every line names its service once. A process that runs several
 * services (the platform) gives each its own logger through serviceLogger: pino's child({ service })
 * would append a second `service` key beside the parent's, and log tools then pick either one.
 */
import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(service: string, level = process.env.LOG_LEVEL ?? 'info', base: object = {}): Logger {
  return pino({ level, base: { service, pid: process.pid, ...base }, timestamp: pino.stdTimeFunctions.isoTime });
}

/** The logger of one service inside a process whose logger already names a service (see the header). */
export function serviceLogger(parent: Logger, service: string): Logger {
  const { service: _own, ...rest } = parent.bindings() as { service?: string; pid?: number };
  if (_own === undefined) return parent.child({ service });
  const { pid: _pid, ...extra } = rest;
  return createLogger(service, parent.level, extra);
}
