/** Structured JSON logs (pino) to stdout; one child logger per service. */
import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(service: string, level = process.env.LOG_LEVEL ?? 'info', base: object = {}): Logger {
  return pino({ level, base: { service, pid: process.pid, ...base }, timestamp: pino.stdTimeFunctions.isoTime });
}
