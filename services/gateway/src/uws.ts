/**
 * uWebSockets.js comes from an npm mirror that ships prebuilt binaries for a
 * few Node ABIs; on any other Node it silently falls back to a slow pure-JS
 * implementation. `uwsNative` tells which one loaded so start-up can log it.
 */
import { createRequire } from 'node:module';
import type * as UwsTypes from 'uWebSockets.js';

const require = createRequire(import.meta.url);
const uws = require('uWebSockets.js') as typeof UwsTypes;

/** A native addon's functions print as `[native code]`; the JS fallback's do not. */
export const uwsNative: boolean = /\[native code\]/.test(Function.prototype.toString.call(uws.App));
export const uwsBinary = `uws_${process.platform}_${process.arch}_${process.versions.modules}.node`;

/**
 * LIBUS_LISTEN_EXCLUSIVE_PORT: refuse a port another process listens on (the default SO_REUSEPORT would
 * let a second gateway share it silently). The typings declare the enum but the addon does not export it.
 */
export const LISTEN_EXCLUSIVE_PORT: UwsTypes.ListenOptions = 1;

// The one overload the typings lack and the addon takes: listen(host, port, options, cb). Delete when the
// typings gain it.
declare module 'uWebSockets.js' {
  interface TemplatedApp {
    listen(
      host: RecognizedString,
      port: number,
      options: ListenOptions,
      cb: (listenSocket: us_listen_socket | false) => void | Promise<void>,
    ): TemplatedApp;
  }
}

export default uws;
export type {
  HttpResponse,
  HttpRequest,
  TemplatedApp,
  WebSocket,
  us_listen_socket,
  us_socket_context_t,
} from 'uWebSockets.js';
