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

export default uws;
export type {
  HttpResponse,
  HttpRequest,
  TemplatedApp,
  WebSocket,
  us_listen_socket,
  us_socket_context_t,
} from 'uWebSockets.js';
