/**
 * The chart's k6-operator TestRun (templates/k6-testrun.yaml, helm/joke-app/ci/k6-values.yaml):
 * rendered with the bundled script, it is strictly valid against k6-operator's own CRD (v1.6.0,
 * support/crd-schema.ts), takes `parallelism` from values, carries the bundle in its ConfigMap and
 * aims at this release's own gateway and lobby Services, whose limits the same values lift. The
 * default values render no TestRun, and the strict check refuses what the operator would.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { loadAll } from 'js-yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { helm, render, ROOT, type K8sObject } from './support/helm.ts';
import { validateObject } from './support/k8s-schemas.ts';

const CHART = join(ROOT, 'helm/joke-app');
const VALUES = join(CHART, 'ci/k6-values.yaml');
const BUNDLE = join(ROOT, 'load-tests/k6/dist/tables.js');

describe('helm/joke-app with ci/k6-values.yaml: a k6-operator TestRun', () => {
  let docs: K8sObject[];
  const one = (kind: string, name?: string) =>
    docs.filter((d) => d.kind === kind && (!name || d.metadata.name === name));

  beforeAll(() => {
    execFileSync(process.execPath, [join(ROOT, 'load-tests/k6/build.mjs')], { stdio: 'ignore' });
    const out = helm([
      'template',
      'lt',
      CHART,
      '--namespace',
      'games',
      '-f',
      VALUES,
      '--set-file',
      `loadTest.script=${BUNDLE}`,
      '--set',
      'loadTest.parallelism=3',
    ]);
    docs = (loadAll(out) as (K8sObject | null)[]).filter((d): d is K8sObject => d !== null);
  }, 60_000);

  it('renders one TestRun, strictly valid against the CRD, with parallelism from values', async () => {
    const [run] = one('TestRun');
    expect(one('TestRun')).toHaveLength(1);
    expect(run.apiVersion).toBe('k6.io/v1alpha1');
    await validateObject(run);
    expect(run.spec.parallelism).toBe(3);
  });

  it('its script is the bundle, in a ConfigMap of the release', () => {
    const run = one('TestRun')[0];
    const [cm] = one('ConfigMap', run.spec.script.configMap.name);
    const script = cm.data![run.spec.script.configMap.file];
    expect(script).toContain('k6/websockets');
    expect(script.length).toBeGreaterThan(100_000);
  });

  it("aims at the release's own Services and lifts their per-address limits", () => {
    const env = Object.fromEntries(one('TestRun')[0].spec.runner.env.map((e: any) => [e.name, e.value]));
    const svc = (component: string) =>
      one('Service').find((s) => s.metadata.labels?.['app.kubernetes.io/component'] === component)!;
    const port = (s: K8sObject) => s.spec.ports[0].port;
    expect(env.URL).toBe(`ws://${svc('gateway').metadata.name}.games.svc:${port(svc('gateway'))}/ws`);
    expect(env.LOBBY).toBe(`http://${svc('lobby').metadata.name}.games.svc:${port(svc('lobby'))}/trpc`);
    expect(env.TARGET_IS_MINE).toBe('1');
    const envOf = (component: string) =>
      one('Deployment')
        .find((d) => d.metadata.labels?.['app.kubernetes.io/component'] === component)!
        .spec.template.spec.containers[0].env.find((e: any) => e.name.endsWith('_PER_IP'));
    expect(envOf('lobby')).toMatchObject({ name: 'LOBBY_RATE_GUEST_PER_IP', value: '0' });
    expect(envOf('gateway')).toMatchObject({ name: 'GATEWAY_MAX_SOCKETS_PER_IP', value: '0' });
  });

  it('is off by default', () => {
    expect(render(CHART).filter((d) => d.kind === 'TestRun' || d.metadata.name.endsWith('-k6-script'))).toEqual([]);
  });

  it('the strict check refuses an unknown field and a wrong type', async () => {
    const run = one('TestRun')[0];
    await expect(validateObject({ ...run, spec: { ...run.spec, paralelism: 2 } } as K8sObject)).rejects.toThrow(
      /spec\.paralelism: unknown field/,
    );
    await expect(validateObject({ ...run, spec: { ...run.spec, parallelism: '3' } } as K8sObject)).rejects.toThrow(
      /spec\.parallelism: expected integer/,
    );
    await expect(validateObject({ ...run, spec: { parallelism: 1 } } as K8sObject)).rejects.toThrow(
      /spec\.script: required/,
    );
  });
});
