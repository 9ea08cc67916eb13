/**
 * A request body cap in front of the tRPC handler. A declared Content-Length
 * past the cap is answered 413 at once, without reading a byte; a streamed
 * (chunked) body is counted as it arrives and tRPC's own `maxBodySize` stops
 * buffering at the same cap, so memory stays bounded by the cap whatever the
 * client sends. Either way the connection is closed after the 413, so the
 * rest of the upload is not read at all.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MSG } from '../messages.ts';

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** The tRPC error shape (what the client's TRPCClientError parses) for a body that was too large. */
function tooLarge(res: ServerResponse): void {
  const body = JSON.stringify({
    error: {
      message: MSG.bodyTooLarge,
      code: -32600,
      data: { code: 'PAYLOAD_TOO_LARGE', httpStatus: 413, issues: null },
    },
  });
  res.writeHead(413, { 'content-type': 'application/json', connection: 'close' }).end(body);
}

export function limitBody(maxBytes: number, next: NodeHandler): NodeHandler {
  return (req, res) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (!Number.isFinite(declared) || declared > maxBytes) {
      tooLarge(res);
      // Nothing more is read from this request: the socket goes once the answer is out.
      req.pause();
      return;
    }
    if (req.headers['transfer-encoding'] !== undefined) {
      let seen = 0;
      const count = (chunk: Buffer): void => {
        seen += chunk.length;
        if (seen <= maxBytes) return;
        req.off('data', count);
        // tRPC answers 413 at this same byte (maxBodySize); make that answer close the connection.
        if (!res.headersSent) res.setHeader('connection', 'close');
      };
      req.on('data', count);
    }
    next(req, res);
  };
}
