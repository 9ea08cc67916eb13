/**
 * Rendered chart objects run as local processes, as a kubelet would run them: each pod of a Deployment or
 * StatefulSet, and each hook Job, gets its container's rendered command (mapped from the image's compiled
 * `dist/services/<svc>/<file>.js` to the source `services/<svc>/src/<file>.ts` under tsx) and exactly its
 * rendered env plus PATH. Env is resolved strictly: a value, a key of a Secret the chart rendered, or the
 * pod's own name and index; anything else (a Secret the render does not hold, envFrom, another fieldRef)
 * throws, so a test can never run on a stand-in. The bundled NATS runs from its rendered nats.conf with only
 * the addresses moved to loopback ports (one host cannot give three servers the same ports).
 *
 * State: every process started here is the caller's to stop (Pod.stop, BundledNats.stop), by pid.
 * Failure modes: a pod that exits or is not ready in time rejects with its last output; a Job that exits
 * non-zero rejects with its output.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, type K8sObject } from './helm.ts';
import { freePort, statusOf, until } from './procs.ts';

export interface PodSpec {
  /** app.kubernetes.io/component of the workload. */
  component: string;
  /** The pod's name (StatefulSet: <name>-<ordinal>; Deployment: <name>-<template hash>-<suffix>). */
  name: string;
  /** Arguments of `node` for the container's command, run from source. */
  args: string[];
  env: Record<string, string>;
}

export interface Pod extends PodSpec {
  opsUrl: string;
  /** Its latest warning and error log lines (pino level ≥ 40). */
  warnings(): string[];
  stop(): Promise<void>;
}

const SOURCE = /^dist\/services\/([^/]+)\/(.+)\.js$/;

/** `node dist/services/x/y.js …` → `node --import tsx services/x/src/y.ts …` (the image runs compiled code). */
function sourceArgs(command: string[], args: string[] = []): string[] {
  const [bin, entry, ...rest] = [...command, ...args];
  const m = SOURCE.exec(entry ?? '');
  if (bin !== 'node' || !m) throw new Error(`not a service command: ${JSON.stringify(command)}`);
  return ['--import', 'tsx', `services/${m[1]}/src/${m[2]}.ts`, ...rest];
}

/** The container's env as the pod sees it; throws on anything this render cannot give. */
export function resolveEnv(
  docs: K8sObject[],
  container: { env?: any[]; envFrom?: unknown[] },
  pod: { name: string; index: number },
): Record<string, string> {
  if (container.envFrom?.length) throw new Error('envFrom is not resolved here');
  const secrets = new Map(docs.filter((d) => d.kind === 'Secret').map((d) => [d.metadata.name, d.stringData ?? {}]));
  const env: Record<string, string> = {};
  for (const e of container.env ?? []) {
    if (e.value !== undefined) {
      env[e.name] = String(e.value);
      continue;
    }
    const ref = e.valueFrom?.secretKeyRef;
    const field = e.valueFrom?.fieldRef?.fieldPath;
    if (ref) {
      const v = secrets.get(ref.name)?.[ref.key];
      if (v === undefined) throw new Error(`${e.name}: Secret ${ref.name} key ${ref.key} is not in the render`);
      env[e.name] = v;
    } else if (field === 'metadata.name') env[e.name] = pod.name;
    else if (field === "metadata.labels['apps.kubernetes.io/pod-index']") env[e.name] = String(pod.index);
    else throw new Error(`${e.name}: cannot resolve ${JSON.stringify(e.valueFrom)}`);
  }
  return env;
}

const component = (d: K8sObject) => d.metadata.labels?.['app.kubernetes.io/component'] ?? d.metadata.name;

/** Every pod of every service workload (a container run with `node`), replicas as rendered. */
export function podsOf(docs: K8sObject[]): PodSpec[] {
  return docs
    .filter((d) => d.kind === 'Deployment' || d.kind === 'StatefulSet')
    .filter((d) => d.spec.template.spec.containers[0].command?.[0] === 'node')
    .flatMap((w) => {
      const c = w.spec.template.spec.containers[0];
      const hash = randomBytes(5).toString('hex').slice(0, 9);
      return Array.from({ length: w.spec.replicas ?? 1 }, (_, index) => {
        const name =
          w.kind === 'StatefulSet'
            ? `${w.metadata.name}-${index}`
            : `${w.metadata.name}-${hash}-${randomBytes(3).toString('hex').slice(0, 5)}`;
        return {
          component: component(w),
          name,
          args: sourceArgs(c.command, c.args),
          env: resolveEnv(docs, c, { name, index }),
        };
      });
    });
}

/** Hook Jobs (post-install and friends) in the order helm runs them (by weight, then name). */
export function hookJobs(docs: K8sObject[]): PodSpec[] {
  const weight = (d: K8sObject) => Number(d.metadata.annotations?.['helm.sh/hook-weight'] ?? 0);
  return docs
    .filter((d) => d.kind === 'Job' && d.metadata.annotations?.['helm.sh/hook'])
    .sort((a, b) => weight(a) - weight(b) || a.metadata.name.localeCompare(b.metadata.name))
    .map((j) => {
      const c = j.spec.template.spec.containers[0];
      const name = `${j.metadata.name}-${randomBytes(3).toString('hex').slice(0, 5)}`;
      return {
        component: component(j),
        name,
        args: sourceArgs(c.command, c.args),
        env: resolveEnv(docs, c, { name, index: 0 }),
      };
    });
}

function launch(spec: PodSpec): { child: ChildProcess; out: string[] } {
  const child = spawn(process.execPath, spec.args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...spec.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out: string[] = [];
  const keep = (b: Buffer) => {
    out.push(String(b));
    if (out.length > 400) out.splice(0, 100);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  return { child, out };
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve(child.exitCode)
    : new Promise<number | null>((r) => child.once('exit', (code) => r(code)));

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const done = exited(child);
  process.kill(child.pid!, 'SIGKILL');
  await done;
}

/** Runs a Job's container to its end, as the hook does: exit 0 or a rejection with its output. */
export async function runJob(spec: PodSpec, ms: number): Promise<void> {
  const { child, out } = launch(spec);
  const timer = setTimeout(() => void kill(child), ms);
  const code = await exited(child);
  clearTimeout(timer);
  if (code !== 0) throw new Error(`Job ${spec.name} exited ${code}:\n${out.join('')}`);
}

/** Starts a pod with `overrides` over its rendered env; resolves once its /readyz answers 200. */
export async function startPod(spec: PodSpec, overrides: Record<string, string>, readyMs = 180_000): Promise<Pod> {
  const env = { ...spec.env, ...overrides };
  const { child, out } = launch({ ...spec, env });
  const pod: Pod = {
    ...spec,
    env,
    opsUrl: `http://127.0.0.1:${env.OPS_PORT}`,
    warnings: () =>
      out
        .join('')
        .split('\n')
        .filter((l) => /"level":[4-6]0/.test(l))
        .slice(-30)
        .map((l) => l.slice(0, 400)),
    stop: () => kill(child),
  };
  try {
    await until(
      async () => {
        if (child.exitCode !== null || child.signalCode !== null)
          throw new Error(`${spec.name} exited (${child.exitCode ?? child.signalCode}):\n${out.join('')}`);
        return (await statusOf(`${pod.opsUrl}/readyz`)) === 200;
      },
      readyMs,
      `${spec.name} ready`,
    );
  } catch (err) {
    await pod.stop();
    throw new Error(`${(err as Error).message}\n${out.join('').slice(-4000)}`, { cause: err });
  }
  return pod;
}

export interface BundledNats {
  monitorPorts: number[];
  /** A rendered NATS URL list with each server's in-cluster address replaced by its loopback port. */
  clientUrls(rendered: string): string;
  stop(): Promise<void>;
}

/**
 * The bundled NATS StatefulSet's servers from the rendered ConfigMap and env. Only the addresses change:
 * one host cannot give three servers ports 4222, 6222 and 8222 and the pods' DNS names, nor /data each.
 */
export async function runBundledNats(docs: K8sObject[], dir: string): Promise<BundledNats> {
  const isNats = (d: K8sObject) => component(d) === 'nats';
  const sts = docs.find((d) => d.kind === 'StatefulSet' && isNats(d))!;
  const conf = docs.find((d) => d.kind === 'ConfigMap' && isNats(d))!.data!['nats.conf'];
  const headless = docs.find((d) => d.kind === 'Service' && isNats(d) && d.spec.clusterIP === 'None')!;
  const n: number = sts.spec.replicas;
  const ports = await Promise.all(
    Array.from({ length: n }, async () => ({
      client: await freePort(),
      route: await freePort(),
      http: await freePort(),
    })),
  );
  const host = (i: number) => `${sts.metadata.name}-${i}.${headless.metadata.name}.games.svc`;
  const children: ChildProcess[] = [];
  const outs: string[][] = [];
  for (let i = 0; i < n; i++) {
    let text = conf
      .replace('listen: 0.0.0.0:4222', `listen: 127.0.0.1:${ports[i].client}`)
      .replace('http: 0.0.0.0:8222', `http: 127.0.0.1:${ports[i].http}`)
      .replace('listen: 0.0.0.0:6222', `listen: 127.0.0.1:${ports[i].route}`)
      .replace('store_dir: /data', `store_dir: "${join(dir, `nats-${i}`)}"`);
    for (let j = 0; j < n; j++) text = text.replace(`nats://${host(j)}:6222`, `nats://127.0.0.1:${ports[j].route}`);
    if (/0\.0\.0\.0|\.svc:|\/data\b/.test(text)) throw new Error(`an address of nats.conf was not moved:\n${text}`);
    mkdirSync(join(dir, `nats-${i}`), { recursive: true });
    const file = join(dir, `nats-${i}.conf`);
    writeFileSync(file, text);
    const c = sts.spec.template.spec.containers[0];
    const env = resolveEnv(docs, c, { name: `${sts.metadata.name}-${i}`, index: i });
    const child = spawn('nats-server', ['-c', file], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: string[] = [];
    child.stdout!.on('data', (b) => out.push(String(b)));
    child.stderr!.on('data', (b) => out.push(String(b)));
    children.push(child);
    outs.push(out);
  }
  const stop = async () => {
    await Promise.all(children.map(kill));
  };
  try {
    // Ready as the StatefulSet's readiness probe: /healthz, which answers once JetStream has its leader.
    await until(
      async () =>
        (await Promise.all(ports.map((p) => statusOf(`http://127.0.0.1:${p.http}/healthz`)))).every((s) => s === 200),
      60_000,
      'the bundled NATS servers healthy',
    );
  } catch (err) {
    await stop();
    throw new Error(`${(err as Error).message}\n${outs.map((o) => o.join('').slice(-2000)).join('\n---\n')}`, {
      cause: err,
    });
  }
  return {
    monitorPorts: ports.map((p) => p.http),
    clientUrls: (rendered) => {
      let s = rendered;
      for (let j = 0; j < n; j++) s = s.replace(`${host(j)}:4222`, `127.0.0.1:${ports[j].client}`);
      return s;
    },
    stop,
  };
}
