/**
 * A lean node-http path for tRPC calls: the same wire format as tRPC 11's
 * standalone adapter (httpLink and httpBatchLink, `?batch=1`, GET for queries,
 * POST with a JSON body for mutations, the same error shapes through the
 * router's errorFormatter, the same HTTP statuses incl. 207 for mixed
 * batches), without its fetch adaptation. tRPC 11's node-http adapter turns
 * every IncomingMessage into a fetch Request (URL, Headers, abort signals, a
 * body stream) and the Response back, chunk by chunk: in the lobby's profile
 * that was the largest single cost per call. Here the procedure is called
 * directly (its middlewares and input parser run as under tRPC), and the JSON
 * is written once, with its length, so headers and body leave in one write.
 *
 * Anything this path does not handle the same way goes to tRPC's own handler
 * untouched, before a byte of the body is read: other methods, a streaming
 * accept header, other content types, chunked uploads, connection params,
 * unknown procedures, a procedure called with the wrong method, subscriptions
 * and batches over the cap (tRPC answers each of those with its own error).
 * A path with a malformed %-escape (400) and a method tRPC's handler cannot
 * take (TRACE, CONNECT…: 405) are answered here; tRPC's handler answered
 * both 500.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { TRPCError, type AnyRouter } from '@trpc/server';
import {
  getErrorShape,
  getHTTPStatusCode,
  getTRPCErrorFromUnknown,
  transformTRPCResponse,
} from '@trpc/server/unstable-core-do-not-import';

type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;
type Procedure = (opts: {
  path: string;
  getRawInput: () => Promise<unknown>;
  ctx: unknown;
  type: 'query' | 'mutation';
  signal: AbortSignal | undefined;
  batchIndex: number;
}) => Promise<unknown>;

export interface LeanTrpcOptions<Ctx> {
  router: AnyRouter;
  /** Path prefix of the API, with its trailing slash (`/trpc/`). */
  basePath: string;
  maxBatchSize: number;
  createContext: (req: IncomingMessage) => Promise<Ctx>;
  /** tRPC's own handler, for every request this path passes on. */
  fallback: NodeHandler;
}

/**
 * Outputs a procedure hands out again unchanged (frozen), with their JSON once made: the room list
 * answers most calls with the same page until something changes, and its JSON was the largest
 * single piece of work of such a call.
 */
const reusedJson = new WeakMap<object, string | null>();

/** Marks `value` (which must never change) as an output whose JSON may be kept and reused. */
export function reusedOutput<T extends object>(value: T): T {
  if (!reusedJson.has(value)) reusedJson.set(value, null);
  return value;
}

function jsonOf(data: unknown): string | null {
  if (typeof data !== 'object' || data === null) return null;
  const kept = reusedJson.get(data);
  if (kept === undefined) return null;
  if (kept !== null) return kept;
  const made = JSON.stringify(data);
  reusedJson.set(data, made);
  return made;
}

const HEADERS_BASE = { 'content-type': 'application/json', vary: 'trpc-accept, accept' };

/** Methods tRPC's own handler can take (anything else is refused here with 405). */
const TRPC_METHODS = new Set(['GET', 'POST', 'HEAD', 'OPTIONS']);
const METHOD_REFUSED = {
  error: {
    message: '지원하지 않는 요청 방식이에요',
    code: -32600,
    data: { code: 'METHOD_NOT_SUPPORTED', httpStatus: 405 },
  },
};

/** tRPC's error shape for a path that cannot be decoded (JSON-RPC -32600: invalid request). */
const MALFORMED_PATH = {
  error: { message: '요청 주소를 읽을 수 없어요', code: -32600, data: { code: 'BAD_REQUEST', httpStatus: 400 } },
};

function isJson(req: IncomingMessage): boolean {
  const ct = req.headers['content-type'];
  return typeof ct === 'string' && ct.split(';', 1)[0].trim().toLowerCase() === 'application/json';
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.once('end', () =>
      resolve(chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8')),
    );
    req.once('error', reject);
    // A client gone mid-upload: fail the call instead of leaving it waiting for an end that never comes.
    req.once('close', () => {
      if (!req.complete) reject(new Error('request aborted'));
    });
  });
}

/** As tRPC's input reader: anything but a TRPCError (a JSON syntax error) is the caller's BAD_REQUEST. */
function asBadRequest(cause: unknown): never {
  if (cause instanceof TRPCError) throw cause;
  throw new TRPCError({
    code: 'BAD_REQUEST',
    message: cause instanceof Error ? cause.message : 'Invalid input',
    cause,
  });
}

export function leanTrpcHandler<Ctx>(opts: LeanTrpcOptions<Ctx>): NodeHandler {
  const config = opts.router._def._config;
  const procedures = opts.router._def.procedures as Record<string, Procedure & { _def: { type: string } }>;
  const deserialize = (v: unknown): unknown => config.transformer.input.deserialize(v);
  // tRPC's default transformer returns what it is given: then the response needs no copy for it.
  const probe = {};
  const identity = config.transformer.output.serialize(probe) === probe;

  /** The procedures named by the URL, or null when tRPC's handler should answer. */
  function plan(req: IncomingMessage, path: string, batch: boolean): (Procedure & { _def: { type: string } })[] | null {
    const want = req.method === 'GET' ? 'query' : 'mutation';
    const paths = batch ? path.split(',') : [path];
    if (batch && paths.length > opts.maxBatchSize) return null;
    const procs = [];
    for (const p of paths) {
      const proc = Object.hasOwn(procedures, p) ? procedures[p] : undefined;
      if (!proc || proc._def.type !== want) return null;
      procs.push(proc);
    }
    return procs;
  }

  async function serve(
    req: IncomingMessage,
    res: ServerResponse,
    paths: string[],
    procs: Procedure[],
    batch: boolean,
    query: URLSearchParams | null,
  ): Promise<void> {
    const type = req.method === 'GET' ? 'query' : 'mutation';
    const bodyText = type === 'mutation' ? readBody(req) : null;
    const ctx = await opts.createContext(req);
    // Parsed once, on the first call's demand, as tRPC does: a malformed input fails inside the procedure.
    let inputs: Promise<Record<number, unknown>> | null = null;
    const parse = async (): Promise<Record<number, unknown>> => {
      const text = bodyText ? await bodyText : query?.get('input');
      const raw: unknown = text ? JSON.parse(text) : undefined;
      if (raw === undefined) return {};
      if (!batch) return { 0: deserialize(raw) };
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
        throw new TRPCError({ code: 'BAD_REQUEST', message: '"input" needs to be an object when doing a batch call' });
      const acc: Record<number, unknown> = {};
      for (let i = 0; i < paths.length; i++) {
        const v = (raw as Record<string, unknown>)[i];
        if (v !== undefined) acc[i] = deserialize(v);
      }
      return acc;
    };
    // What tRPC's error shape gets as `input`: the parsed inputs, once something asked for them.
    let parsed: Record<number, unknown> | undefined;
    const rawInput = async (i: number): Promise<unknown> => {
      inputs ??= parse().then((v) => (parsed = v), asBadRequest);
      return (await inputs)[i];
    };
    type Settled = { ok: true; data: unknown } | { ok: false; error: TRPCError };
    const call = async (i: number): Promise<Settled> => {
      try {
        const data = await procs[i]({
          path: paths[i],
          getRawInput: () => rawInput(i),
          ctx,
          type,
          signal: undefined,
          batchIndex: i,
        });
        return { ok: true, data };
      } catch (cause) {
        return { ok: false, error: getTRPCErrorFromUnknown(cause) };
      }
    };
    // One call (the usual request) without the array of promises a batch needs.
    const settled = procs.length === 1 ? [await call(0)] : await Promise.all(procs.map((_, i) => call(i)));
    const json = settled.map((r, i) =>
      r.ok
        ? { result: { data: r.data } }
        : { error: getErrorShape({ config, ctx, error: r.error, input: parsed?.[i], path: paths[i], type }) },
    );
    const errors = settled.map((r) => (r.ok ? null : r.error));
    const untransformed = batch ? json : json[0];
    const status = getHTTPStatusCode(untransformed as never, errors as never);
    const one = !batch && identity && settled[0].ok ? jsonOf(settled[0].data) : null;
    const text =
      one !== null
        ? `{"result":{"data":${one}}}`
        : JSON.stringify(identity ? untransformed : transformTRPCResponse(config, untransformed as never));
    const body = Buffer.from(text, 'utf8');
    res.writeHead(status, { ...HEADERS_BASE, 'content-length': body.length });
    res.end(body);
  }

  const refuse = (res: ServerResponse, status: number, shape: object, extra: Record<string, string> = {}): void => {
    const body = Buffer.from(JSON.stringify(shape), 'utf8');
    res.writeHead(status, { ...HEADERS_BASE, ...extra, 'content-length': body.length });
    res.end(body);
  };

  return (req, res) => {
    // tRPC's handler builds a fetch Request, which throws on TRACE, TRACK and CONNECT (it answered them 500).
    if (!TRPC_METHODS.has(req.method ?? '')) return refuse(res, 405, METHOD_REFUSED, { allow: 'GET, POST' });
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const search = q >= 0 ? new URLSearchParams(url.slice(q + 1)) : null;
    const batch = search?.get('batch') === '1';
    const simple =
      (req.method === 'GET' ||
        (req.method === 'POST' && isJson(req) && req.headers['transfer-encoding'] === undefined)) &&
      req.headers['trpc-accept'] === undefined &&
      !search?.has('connectionParams') &&
      config.pathSeparator === '.';
    let path: string;
    try {
      path = decodeURIComponent(url.slice(opts.basePath.length, q >= 0 ? q : undefined));
    } catch {
      // A malformed %-escape names no procedure: the caller's 400 (tRPC's handler answered it 500).
      return refuse(res, 400, MALFORMED_PATH);
    }
    const procs = simple ? plan(req, path, batch) : null;
    if (!procs) {
      opts.fallback(req, res);
      return;
    }
    const paths = batch ? path.split(',') : [path];
    serve(req, res, paths, procs, batch, search).catch((err: unknown) => {
      // Only a broken connection gets here (procedure errors are answered above).
      if (!res.headersSent) res.writeHead(500, HEADERS_BASE);
      res.end();
      req.socket?.destroy(err instanceof Error ? err : undefined);
    });
  };
}
