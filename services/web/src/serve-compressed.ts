/**
 * Compressed static files for `serve.ts`: text assets (the Phaser chunk is
 * 1.37 MB raw, ≈ 0.36 MB gzipped) go out as brotli or gzip, whichever the
 * browser accepts, compressed once per file version and kept in memory. The
 * compression runs on libuv's thread pool, so the first request for a big
 * chunk never blocks the event loop; concurrent first requests share it.
 */
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

export type Encoding = 'br' | 'gzip';

/** Worth compressing: text formats above a small size (fonts and images are compressed already). */
const COMPRESSIBLE = new Set(['.js', '.css', '.html', '.json', '.svg', '.map', '.txt']);
const MIN_BYTES = 1024;

export function compressible(ext: string, size: number): boolean {
  return COMPRESSIBLE.has(ext) && size >= MIN_BYTES;
}

/** The encoding to answer with for an Accept-Encoding header: brotli first, then gzip; `q=0` refuses. */
export function pickEncoding(accept: string | string[] | undefined): Encoding | null {
  const header = Array.isArray(accept) ? accept.join(',') : (accept ?? '');
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qp = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    q.set(name, qp ? Number(qp.slice(2)) || 0 : 1);
  }
  const accepted = (e: string) => (q.get(e) ?? q.get('*') ?? 0) > 0;
  if (accepted('br')) return 'br';
  if (accepted('gzip')) return 'gzip';
  return null;
}

export class CompressedCache {
  private readonly entries = new Map<string, Promise<Buffer>>();

  /** The compressed bytes of `file` as of `mtimeMs`; an edited file (dev rebuild) gets a new entry. */
  get(file: string, mtimeMs: number, encoding: Encoding): Promise<Buffer> {
    const key = `${encoding}\u0000${mtimeMs}\u0000${file}`;
    let entry = this.entries.get(key);
    if (!entry) {
      entry = readFile(file).then((raw) =>
        encoding === 'br'
          ? brotli(raw, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: 9,
                [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
              },
            })
          : gz(raw, { level: 9 }),
      );
      // A failed read is not cached: the next request tries again.
      entry.catch(() => this.entries.delete(key));
      this.entries.set(key, entry);
    }
    return entry;
  }
}
