/** The address a rate limit counts a request against. */
import type { IncomingMessage } from 'node:http';

/**
 * With `trustProxyHops` = 0 the TCP peer, whatever the headers say (a client
 * can write any X-Forwarded-For). Behind n trusted proxies, each appending the
 * address it saw, the n-th entry from the end is the one the outermost proxy saw.
 */
export function clientIp(req: Pick<IncomingMessage, 'headers' | 'socket'>, trustProxyHops: number): string {
  const peer = req.socket?.remoteAddress ?? 'unknown';
  if (trustProxyHops === 0) return peer;
  const header = req.headers['x-forwarded-for'];
  const list = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0 && s.length <= 64);
  return list[list.length - trustProxyHops] ?? peer;
}
