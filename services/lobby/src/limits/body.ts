/**
 * A request body cap in front of the tRPC handler. A declared Content-Length
 * past the cap is answered 413 at once, without reading a byte; a streamed
 * (chunked) body is counted as it arrives and tRPC's own `maxBodySize` stops
 * buffering at the same cap, so memory stays bounded by the cap whatever the
 * client sends. After a 413 the rest of the upload is read and thrown away
 * for at most LINGER_MS, then the connection is cut: closing at once would
 * make the client's kernel reset the connection and lose the 413 it had not
 * read yet (the reason web servers linger before closing).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MSG } from '../messages.ts';

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

const LINGER_MS = 1000;

/** The tRPC error shape (what the client's TRPCClientError parses) for a body that was too large. */
function tooLarge(res: ServerResponse): void {
  const body = JSON.stringify({
    error: {
      message: MSG.bodyTooLarge,
      code: -32600,
      data: { code: 'PAYLOAD_TOO_LARGE', httpStatus: 413, issues: null },
    },
  });
  res.writeHead(413, { 'content-type': 'application/json' }).end(body);
}

/** Once the 413 is out: discard what still arrives, and cut the connection if the client keeps sending. */
function dropRestOf(req: IncomingMessage, res: ServerResponse): void {
  const cut = (): void => {
    const timer = setTimeout(() => req.socket?.destroy(), LINGER_MS);
    timer.unref();
    req.once('end', () => clearTimeout(timer));
    req.resume();
  };
  if (res.writableFinished) cut();
  else res.once('finish', cut);
}

export function limitBody(maxBytes: number, next: NodeHandler): NodeHandler {
  return (req, res) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (!Number.isFinite(declared) || declared > maxBytes) {
      tooLarge(res);
      dropRestOf(req, res);
      return;
    }
    if (req.headers['transfer-encoding'] !== undefined) {
      let seen = 0;
      const count = (chunk: Buffer): void => {
        seen += chunk.length;
        if (seen <= maxBytes) return;
        // tRPC stops buffering and answers 413 at this same byte (its maxBodySize).
        req.off('data', count);
        dropRestOf(req, res);
      };
      req.on('data', count);
    }
    next(req, res);
  };
}
