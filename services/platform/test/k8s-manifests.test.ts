/**
 * The Kubernetes manifests (infra/k8s) against the code they deploy: every
 * variable a workload sets is one its service reads, and the values pass that
 * service's own validation; probes hit /healthz and /readyz on the port the
 * service really listens on, bound to 0.0.0.0; room workers get a stable id,
 * their ordinal as shard, and a grace period that covers a drain; Services and
 * the Ingress point at ports that exist. No cluster is needed for these checks.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAll } from 'js-yaml';
import { gatewayEnv, configFromEnv } from '@joke/gateway';
import { matchmakerConfig } from '@joke/matchmaker';
import { workerConfig } from '@joke/room-worker';
import { lobbyConfigFromEnv, lobbyEnv } from '@joke/lobby/config';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const dir = join(root, 'infra/k8s');

type Doc = { kind: string; metadata: { name: string }; spec?: any; data?: Record<string, string> };
const files = readdirSync(dir).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml');
const docs: Doc[] = files.flatMap((f) => loadAll(readFileSync(join(dir, f), 'utf8')) as Doc[]);
const byKind = (kind: string) => docs.filter((d) => d.kind === kind);
const config = byKind('ConfigMap').find((d) => d.metadata.name === 'joke-config')!.data!;

const envNames = (spec: { spec: Record<string, { env: string }> }) =>
  new Set(Object.values(spec.spec).map((o) => o.env));
const services: Record<
  string,
  { names: Set<string>; port: string; host: string; validate(env: NodeJS.ProcessEnv): unknown }
> = {
  gateway: { names: envNames(gatewayEnv), port: 'PORT', host: 'HOST', validate: (env) => configFromEnv(env) },
  matchmaker: {
    names: envNames(matchmakerConfig),
    port: 'OPS_PORT',
    host: 'OPS_HOST',
    validate: (env) => matchmakerConfig.fromEnv(env),
  },
  'room-worker': {
    names: envNames(workerConfig),
    port: 'OPS_PORT',
    host: 'OPS_HOST',
    validate: (env) => workerConfig.fromEnv(env),
  },
  lobby: { names: envNames(lobbyEnv), port: 'PORT', host: 'HOST', validate: (env) => lobbyConfigFromEnv(env) },
};
/** Read by Node or a library rather than a service's table. */
const PLATFORM_VARS = new Set(['NODE_ENV']);

/** The value a variable will have in the pod (secrets and downward-API fields get realistic stand-ins). */
function resolve(e: any, podName: string): string {
  if (e.value !== undefined) return String(e.value);
  const from = e.valueFrom;
  if (from.configMapKeyRef) return config[from.configMapKeyRef.key];
  if (from.secretKeyRef)
    return from.secretKeyRef.key === 'DATABASE_URL' ? 'postgresql://joke@db:5432/joke' : 'x'.repeat(40);
  if (from.fieldRef?.fieldPath === 'metadata.name') return podName;
  if (from.fieldRef?.fieldPath === "metadata.labels['apps.kubernetes.io/pod-index']") return '2';
  throw new Error(`unexpected valueFrom ${JSON.stringify(from)}`);
}

const workloads = [...byKind('Deployment'), ...byKind('StatefulSet')].filter((w) =>
  w.spec.template.spec.containers.some((c: any) => c.image === 'joke-app'),
);

describe('infra/k8s manifests', () => {
  it('kustomization lists every manifest in the folder, and each parses', () => {
    const k = loadAll(readFileSync(join(dir, 'kustomization.yaml'), 'utf8'))[0] as { resources: string[] };
    expect([...k.resources].sort()).toEqual([...files].sort());
    expect(docs.every((d) => d.kind && d.metadata?.name)).toBe(true);
  });

  it('runs every service of the cluster layout from the one image, each from an entry point that exists', () => {
    const entries = workloads.map((w) => w.spec.template.spec.containers[0].command.at(-1));
    expect(entries.sort()).toEqual(
      Object.keys(services)
        .map((s) => `services/${s}/src/main.ts`)
        .sort(),
    );
    for (const e of entries) expect(existsSync(join(root, e))).toBe(true);
  });

  for (const w of workloads) {
    const c = w.spec.template.spec.containers[0];
    const service = c.command.at(-1).split('/')[1] as string;
    it(`${service}: sets only variables it reads, with values its own validation accepts`, () => {
      const s = services[service];
      const unknown = c.env.map((e: any) => e.name).filter((n: string) => !s.names.has(n) && !PLATFORM_VARS.has(n));
      expect(unknown).toEqual([]);
      const env = Object.fromEntries(c.env.map((e: any) => [e.name, resolve(e, `${w.metadata.name}-0`)]));
      expect(() => s.validate(env)).not.toThrow();
    });

    it(`${service}: probes /healthz and /readyz on its listening port, bound to 0.0.0.0`, () => {
      const s = services[service];
      const env = Object.fromEntries(c.env.map((e: any) => [e.name, e.value]));
      expect(env[s.host]).toBe('0.0.0.0');
      const port = c.ports.find((p: any) => p.containerPort === Number(env[s.port]));
      expect(port).toBeDefined();
      expect(c.livenessProbe.httpGet).toEqual({ path: '/healthz', port: port.name });
      expect(c.readinessProbe.httpGet).toEqual({ path: '/readyz', port: port.name });
      const ann = w.spec.template.metadata.annotations;
      expect(ann['prometheus.io/port']).toBe(String(port.containerPort));
    });
  }

  it('room workers: stable id from the pod name, shard from its ordinal, grace period covering a drain', () => {
    const sts = byKind('StatefulSet').find((d) => d.metadata.name === 'room-worker')!;
    const pod = sts.spec.template.spec;
    const env = new Map(pod.containers[0].env.map((e: any) => [e.name, e]));
    expect((env.get('WORKER_ID') as any).valueFrom.fieldRef.fieldPath).toBe('metadata.name');
    expect((env.get('SHARD') as any).valueFrom.fieldRef.fieldPath).toBe(
      "metadata.labels['apps.kubernetes.io/pod-index']",
    );
    const drainMs = workerConfig.fromEnv({
      DRAIN_TIMEOUT_MS: (env.get('DRAIN_TIMEOUT_MS') as any)?.value,
    }).drainTimeoutMs;
    expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThanOrEqual(drainMs + 10_000);
  });

  it('every Service selects pods and targets a named port they expose; the Ingress routes / and /ws', () => {
    const pods = [...byKind('Deployment'), ...byKind('StatefulSet')].map((w) => w.spec.template);
    for (const svc of byKind('Service')) {
      const target = pods.find((p) => Object.entries(svc.spec.selector).every(([k, v]) => p.metadata.labels[k] === v));
      expect(target, svc.metadata.name).toBeDefined();
      const names = target!.spec.containers.flatMap((c: any) => c.ports.map((p: any) => p.name));
      for (const p of svc.spec.ports) expect(names).toContain(p.targetPort);
    }
    const paths = byKind('Ingress')[0].spec.rules[0].http.paths;
    const route = (p: string) => paths.find((x: any) => x.path === p).backend.service;
    expect(route('/ws')).toEqual({ name: 'gateway', port: { name: 'ws' } });
    expect(route('/')).toEqual({ name: 'lobby', port: { name: 'http' } });
    expect(config.PUBLIC_GATEWAY_URL).toBe(`wss://${byKind('Ingress')[0].spec.rules[0].host}/ws`);
  });
});
