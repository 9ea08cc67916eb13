/**
 * The process-wide last resort of a running service: an exception nothing
 * caught, or a promise rejection nothing handled, is logged (level `fatal`,
 * with its origin), counted, and the process keeps serving. One request's bug
 * must not end every live table the process holds (issue 36: `GET /%` threw
 * out of the static handler and took `npm start` down with all its tables).
 *
 * Installed only once start-up has finished: a failure while starting (a port
 * in use, a database that refuses) must still stop the process with a non-zero
 * exit, which Node does by itself for a rejected top-level await. A service
 * that needs a stop on such errors keeps its own `process.exit`.
 *
 * With `JOKE_LAST_RESORT_LINE` set (tests), each caught error also prints one
 * `LAST_RESORT <origin>` line on stderr, so a test can fail on it even though
 * the process survived.
 */
import { Counter, type Registry } from 'prom-client';
import type { Logger } from 'pino';

export interface LastResort {
  /** Errors caught so far. */
  count(): number;
  uninstall(): void;
}

export function installLastResort(log: Logger, registry?: Registry): LastResort {
  let caught = 0;
  const counter = registry
    ? new Counter({
        name: 'joke_uncaught_errors_total',
        help: 'Exceptions and promise rejections nothing handled, caught by the last resort (each one is a bug).',
        labelNames: ['origin'],
        registers: [registry],
      })
    : null;
  const report = (err: unknown, origin: string): void => {
    caught++;
    counter?.inc({ origin });
    try {
      log.fatal({ err, origin }, 'uncaught error: kept serving');
    } catch {
      // A logger that cannot write must not turn this into a loop.
    }
    if (process.env.JOKE_LAST_RESORT_LINE) process.stderr.write(`LAST_RESORT ${origin}\n`);
  };
  const onException = (err: Error, origin: string): void => report(err, origin);
  const onRejection = (reason: unknown): void => report(reason, 'unhandledRejection');
  process.on('uncaughtException', onException);
  process.on('unhandledRejection', onRejection);
  return {
    count: () => caught,
    uninstall() {
      process.off('uncaughtException', onException);
      process.off('unhandledRejection', onRejection);
    },
  };
}
