/**
 * Every setting reachable from the chart (helm/joke-app): each option a deployed service reads (its option
 * tables plus the bus's raw environment reads, support/chart-options.ts) is set to a marker through values
 * and must arrive, as that marker, in the env of that service's container (Secrets resolved); options that
 * must differ per pod come from the pod. The services' sources are scanned so that an option outside every
 * exported table, or a new raw `process.env` read, fails here too. The generated README and the schema's
 * `config` maps must be current, and the pod-level extras (extraEnv, volumes, labels, spread, priority,
 * ServiceAccount) must reach every Deployment and StatefulSet.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { render, ROOT, type K8sObject } from './support/helm.ts';
import {
  CHART_SET,
  POD_DERIVED,
  SERVICES,
  chartReadme,
  configOptions,
  serviceOptions,
  withConfigSchemas,
  type Option,
  type Service,
} from './support/chart-options.ts';

const CHART = join(ROOT, 'helm/joke-app');
const ALL = Object.keys(SERVICES) as Service[];

function valuesFile(values: object): string {
  const f = join(mkdtempSync(join(tmpdir(), 'helm-values-')), 'values.yaml');
  writeFileSync(f, JSON.stringify(values)); // JSON is YAML
  return f;
}

/** Each chart-set variable: the values path that sets it and the marker put there. */
const MARKED: Record<string, { path: (svc: string) => string; marker: unknown }> = {
  HOST: { path: () => 'listenHost', marker: '::' },
  OPS_HOST: { path: () => 'listenHost', marker: '::' },
  PORT: { path: (s) => `${s}.port`, marker: 18_080 },
  OPS_PORT: { path: (s) => `${s}.opsPort`, marker: 19_100 },
  JWT_SECRET: { path: () => 'jwt.value', marker: 'marker-jwt-secret-0123456789abcdef0123456789' },
  OPERATOR_TOKEN: { path: () => 'operator.value', marker: 'marker-operator-token-0123456789' },
  NATS_URL: { path: () => 'nats.url', marker: 'nats://u:p@marker-nats-0:4222,nats://u:p@marker-nats-1:4222' },
  REDIS_URL: { path: () => 'redis.url', marker: 'redis://:p@marker-redis:6379' },
  REDIS_CLUSTER_URLS: { path: () => 'redis.clusterUrls', marker: 'redis://:p@marker-a:6379,redis://:p@marker-b:6379' },
  DATABASE_URL: { path: () => 'postgresql.url', marker: 'postgresql://u:p@marker-db:5432/joke' },
  JOKE_NAMESPACE: { path: () => 'keyNamespace', marker: 'markerns' },
  LOG_LEVEL: { path: () => 'logLevel', marker: 'warn' },
  DRAIN_TIMEOUT_MS: { path: () => 'roomWorker.drainTimeoutMs', marker: 31_000 },
  GATEWAY_SHUTDOWN_SPREAD_MS: { path: () => 'gateway.shutdownSpreadMs', marker: 9_000 },
  PUBLIC_GATEWAY_URL: { path: () => 'lobby.publicGatewayUrl', marker: 'wss://marker.example/ws' },
  SERVE_CLIENT: { path: () => 'lobby.serveClient', marker: false },
  CLIENT_DIR: { path: () => 'lobby.clientDir', marker: '/marker/client' },
};

function setPath(values: any, path: string, v: unknown): void {
  const keys = path.split('.');
  let o = values;
  for (const k of keys.slice(0, -1)) o = o[k] ??= {};
  o[keys.at(-1)!] = v;
}

/** A raw value the service accepts that differs from what the default render gives it. */
function markerFor(o: Option, renderedDefault: string | undefined): string {
  const d = typeof o.default === 'number' ? o.default : NaN;
  const candidates = [
    ...(o.choices ?? []),
    ...(Number.isFinite(d) ? [d + 1, d - 1, d * 2, 1, 2, 0].map(String) : []),
    ...(typeof o.default === 'boolean' ? ['false', 'true'] : ['0', '1']),
    'marker',
    '/marker',
    'wss://marker.example/ws',
    'http://marker.example:4318',
    'postgresql://u:p@marker-db/joke',
  ];
  const m = candidates.find((c) => c !== renderedDefault && c !== String(o.default) && o.accepts(c));
  if (m === undefined) throw new Error(`no marker value for ${o.env}`);
  return m;
}

const component = (svc: Service) => (w: K8sObject) => w.metadata.labels?.['app.kubernetes.io/component'] === svc;

/** Each env entry of a container as the pod would see it: Secrets rendered by the chart are read. */
function envOf(docs: K8sObject[], svc: Service): Map<string, any> {
  const secrets = new Map(docs.filter((d) => d.kind === 'Secret').map((d) => [d.metadata.name, d.stringData ?? {}]));
  const w = docs.filter((d) => d.kind === 'Deployment' || d.kind === 'StatefulSet').find(component(svc))!;
  const out = new Map<string, any>();
  for (const e of w.spec.template.spec.containers[0].env) {
    const ref = e.valueFrom?.secretKeyRef;
    out.set(e.name, ref ? secrets.get(ref.name)?.[ref.key] : (e.value ?? e.valueFrom));
  }
  return out;
}

describe('every option a service reads is settable from the chart', () => {
  const defaults = render(CHART, []);

  it('sets each option through values and finds the marker in the right container', () => {
    const values: any = {
      bundled: { nats: { enabled: false }, redis: { enabled: false }, postgresql: { enabled: false } },
    };
    const expected = new Map<Service, Map<string, unknown>>();
    for (const svc of ALL) {
      const key = SERVICES[svc].values;
      const want = new Map<string, unknown>();
      const before = envOf(defaults, svc);
      for (const o of serviceOptions(svc)) {
        if (o.env in POD_DERIVED) continue;
        const set = MARKED[o.env];
        if (o.env in CHART_SET) {
          expect(set, `${o.env} is set by the chart but this test has no marker for it`).toBeDefined();
          const port = o.env.endsWith('PORT') ? (set.marker as number) + ALL.indexOf(svc) : set.marker;
          setPath(values, set.path(key), port);
          want.set(o.env, String(port));
          continue;
        }
        const m = markerFor(o, before.get(o.env));
        setPath(values, `${key}.config.${o.env}`, m);
        want.set(o.env, m);
      }
      expected.set(svc, want);
    }
    const docs = render(CHART, [valuesFile(values)]);
    let checked = 0;
    for (const svc of ALL) {
      const env = envOf(docs, svc);
      for (const [name, marker] of expected.get(svc)!) {
        expect(env.get(name), `${svc} ${name}`).toBe(marker);
        checked++;
      }
      for (const o of serviceOptions(svc).filter((x) => x.env in POD_DERIVED))
        expect(env.get(o.env)?.fieldRef?.fieldPath, `${svc} ${o.env} from the pod`).toMatch(/^metadata\./);
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('every option declared or read in the services’ sources is in a table the registry walks', () => {
    const known = new Set(ALL.flatMap((s) => serviceOptions(s).map((o) => o.env)));
    // NODE_ENV: the chart sets production (helm-chart.test.ts checks it). JOKE_READY_LINE and
    // JOKE_LAST_RESORT_LINE: lines on stdout/stderr for the test harness only.
    // REDIS_PORTS, NATS_PORTS: scripts/cluster.sh's output read by bus/src/local-cluster.ts (tests, tools).
    const outside = new Set(['NODE_ENV', 'JOKE_READY_LINE', 'JOKE_LAST_RESORT_LINE', 'REDIS_PORTS', 'NATS_PORTS']);
    const files = ['bus', 'protocol', ...ALL].flatMap((s) => tsFiles(join(ROOT, 'services', s, 'src')));
    const found = new Map<string, string>();
    for (const f of files) {
      const src = readFileSync(f, 'utf8');
      for (const re of [
        /\bopt\(\s*'([A-Z][A-Z0-9_]+)'/g,
        /process\.env\.([A-Z][A-Z0-9_]+)/g,
        /\benv\.([A-Z][A-Z0-9_]+)/g,
      ])
        for (const m of src.matchAll(re)) if (!outside.has(m[1])) found.set(m[1], f.slice(ROOT.length));
    }
    expect(found.size).toBeGreaterThan(80);
    const missing = [...found].filter(([n]) => !known.has(n)).map(([n, f]) => `${n} (${f})`);
    expect(missing).toEqual([]);
  });

  it('the README and the schema’s config maps are generated from the current values and tables', () => {
    const readme = readFileSync(join(CHART, 'README.md'), 'utf8');
    expect(readme, 'run `npm run chart-readme`').toBe(chartReadme(readFileSync(join(CHART, 'values.yaml'), 'utf8')));
    const schema = JSON.parse(readFileSync(join(CHART, 'values.schema.json'), 'utf8'));
    expect(schema, 'run `npm run chart-readme`').toEqual(withConfigSchemas(schema));
    for (const svc of ALL) for (const o of configOptions(svc)) expect(readme).toContain(`| \`${o.env}\` |`);
  });

  it('a config option no service reads is refused at install time', () => {
    expect(() => render(CHART, [valuesFile({ lobby: { config: { GATEWAY_RATE_BURST: 3 } } })])).toThrow(
      /Additional property GATEWAY_RATE_BURST/,
    );
  });
});

describe('pod-level extras reach every Deployment and StatefulSet', () => {
  const extras = (name: string) => ({
    podLabels: { 'extra-label': name },
    podAnnotations: { 'extra/annotation': name },
    priorityClassName: `prio-${name}`,
    topologySpreadConstraints: [
      { maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway' },
    ],
    affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [] } },
    extraEnv: [
      { name: 'EXTRA_MARK', value: name },
      { name: 'LIVENESS_MAX_LAG_MS', value: '7000' },
    ],
    extraVolumes: [{ name: 'extra', emptyDir: {} }],
    extraVolumeMounts: [{ name: 'extra', mountPath: '/extra' }],
  });
  const values: any = { serviceAccount: { create: true, name: 'joke-sa' }, bundled: {} };
  for (const svc of ALL)
    values[SERVICES[svc].values] = {
      ...extras(svc),
      extraEnvFrom: [{ configMapRef: { name: svc } }],
      config: { LIVENESS_MAX_LAG_MS: 6000 },
    };
  for (const b of ['nats', 'redis', 'postgresql']) values.bundled[b] = extras(b);
  values.lobby.serviceAccountName = 'lobby-own';
  const docs = render(CHART, [valuesFile(values)]);
  const workloads = docs.filter((d) => d.kind === 'Deployment' || d.kind === 'StatefulSet');

  it('labels, annotations, priority, spread, affinity, env, volumes and ServiceAccount on all seven', () => {
    expect(workloads.length).toBe(7);
    expect(docs.find((d) => d.kind === 'ServiceAccount')?.metadata.name).toBe('joke-sa');
    for (const w of workloads) {
      const name = w.metadata.labels!['app.kubernetes.io/component'];
      const pod = w.spec.template;
      const c = pod.spec.containers[0];
      expect(pod.metadata.labels['extra-label'], w.metadata.name).toBe(name);
      expect(pod.metadata.annotations['extra/annotation']).toBe(name);
      expect(pod.metadata.annotations['checksum/secrets']).toMatch(/^[0-9a-f]{16}$/);
      expect(pod.spec.priorityClassName).toBe(`prio-${name}`);
      expect(pod.spec.topologySpreadConstraints).toHaveLength(1);
      expect(pod.spec.affinity.nodeAffinity).toBeDefined();
      expect(pod.spec.serviceAccountName).toBe(name === 'lobby' ? 'lobby-own' : 'joke-sa');
      expect(c.env.find((e: any) => e.name === 'EXTRA_MARK')?.value).toBe(name);
      if ((ALL as string[]).includes(name))
        expect(c.env.filter((e: any) => e.name === 'LIVENESS_MAX_LAG_MS')).toEqual([
          { name: 'LIVENESS_MAX_LAG_MS', value: '7000' },
        ]);
      expect(pod.spec.volumes.map((v: any) => v.name)).toContain('extra');
      expect(c.volumeMounts.map((v: any) => v.mountPath)).toContain('/extra');
      if ((ALL as string[]).includes(name)) expect(c.envFrom).toEqual([{ configMapRef: { name } }]);
      const names = c.env.map((e: any) => e.name);
      expect(names, 'one entry per name').toEqual([...new Set(names)]);
      // selectors never take the extra labels (they are immutable on a live Deployment/StatefulSet)
      expect(w.spec.selector.matchLabels['extra-label']).toBeUndefined();
    }
  });
});

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) return n === 'generated' ? [] : tsFiles(p);
    return n.endsWith('.ts') && !n.endsWith('.test.ts') ? [p] : [];
  });
}
