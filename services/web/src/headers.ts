/**
 * Security headers of every response the client's static handler writes
 * (serve.ts), and where /config.json sends the browser: both built from
 * configuration, never from what a request claims to be.
 *
 * The Content-Security-Policy is what the Phaser client needs and nothing
 * more: its module scripts and stylesheet from the page's own origin, images
 * from the origin plus data:/blob: (Phaser makes its default textures from
 * data: URIs and may hand loaded images over as blob: URLs), fonts from the
 * origin, fetches to the origin (/trpc, /config.json) and the WebSocket to the
 * one configured gateway. No inline script, no eval, no plugins, no frames:
 * an injected `<script>` or a foreign WebSocket is refused by the browser.
 * `frame-ancestors 'none'` (with X-Frame-Options for old browsers) stops
 * another site from framing the table to steal clicks.
 *
 * The gateway URL: a fixed `gatewayUrl` (PUBLIC_GATEWAY_URL) wins. Without
 * one, the page's host name is used only when it names this machine (loopback,
 * one of its interface addresses, its host name or `<hostname>.local`), so a
 * phone on the LAN that opened http://192.168.0.7:8080/ is sent to
 * ws://192.168.0.7:8081/ws; any other Host header (a forged one, a DNS name
 * the machine does not know about) gets the fallback host, never an echo.
 */
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { hostname, networkInterfaces } from 'node:os';

/** Headers every response carries, whatever its type. */
export const BASE_SECURITY_HEADERS: Readonly<OutgoingHttpHeaders> = Object.freeze({
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  // Non-HTML answers (JSON, text, images) never run anything; this also covers an SVG opened directly.
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
});

/** The page's policy; `gatewayOrigin` is the one WebSocket origin the client may open (ws://host:port). */
export function pagePolicy(gatewayOrigin: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self' ${gatewayOrigin}`,
    "manifest-src 'self'",
    "media-src 'self' blob:",
    "worker-src 'none'",
    "object-src 'none'",
    "frame-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** ws://host:port of a gateway URL (what connect-src names). */
export function originOf(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}`;
}

export interface GatewayTarget {
  /** Fixed gateway URL (e.g. wss://play.example.com/ws); wins when set. */
  gatewayUrl?: string;
  /** Otherwise: this port on the page's host when that host names this machine (default 8081). */
  gatewayPort?: number;
  /** Host for any other page host (default 127.0.0.1). */
  fallbackHost?: string;
}

/** The page's host name as the Host header gives it, without its port; IPv6 keeps its brackets. */
function hostOf(req: IncomingMessage): string | null {
  const host = req.headers.host;
  if (typeof host !== 'string' || host.length === 0 || host.length > 255) return null;
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0];
  return name.toLowerCase();
}

/** Names under which this machine may be reached: loopback, every interface address, its host name. */
export function machineNames(): Set<string> {
  const names = new Set(['localhost', '127.0.0.1', '[::1]']);
  const own = hostname().toLowerCase();
  if (own) names.add(own).add(`${own}.local`);
  for (const list of Object.values(networkInterfaces()))
    for (const a of list ?? []) names.add(a.family === 'IPv6' ? `[${a.address.split('%')[0]}]` : a.address);
  return names;
}

export function gatewayUrlFor(req: IncomingMessage, target: GatewayTarget): string {
  if (target.gatewayUrl) return target.gatewayUrl;
  const asked = hostOf(req);
  const host = asked && machineNames().has(asked) ? asked : (target.fallbackHost ?? '127.0.0.1');
  return `ws://${host}:${target.gatewayPort ?? 8081}/ws`;
}
