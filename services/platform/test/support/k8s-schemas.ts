/**
 * Schema validation of rendered objects with kubernetes-models (the Kubernetes
 * OpenAPI schemas) and its prometheus-operator and KEDA companions: the model
 * class for apiVersion/kind is loaded and `validate()` throws naming the field.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadCrd, validateCustomResource } from './crd-schema.ts';
import { ROOT } from './helm.ts';

const CRD_PACKAGES: Record<string, string> = {
  'monitoring.coreos.com': '@kubernetes-models/prometheus-operator',
  'keda.sh': '@kubernetes-models/keda',
};

function modulePath(apiVersion: string): string {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  if (!group) return `kubernetes-models/${version}`;
  return `${CRD_PACKAGES[group] ?? 'kubernetes-models'}/${group}/${version}`;
}

/**
 * CRDs kubernetes-models has no classes for, checked against their own CRD files (crd-schema.ts).
 * k6-operator's TestRun: the CRD of k6-operator v1.6.0 in the shared folder beside the repository
 * (../shared/anchors/k6-operator), or K6_OPERATOR_CRD.
 */
const CRD_FILES: Record<string, () => string> = {
  'k6.io': () =>
    process.env.K6_OPERATOR_CRD ?? join(ROOT, '..', 'shared', 'anchors', 'k6-operator', 'k6.io_testruns.yaml'),
};

export async function validateObject(obj: { apiVersion: string; kind: string; metadata: { name: string } }) {
  const crdFile = CRD_FILES[obj.apiVersion.split('/')[0]];
  if (crdFile) {
    const file = crdFile();
    if (!existsSync(file)) throw new Error(`no CRD schema for ${obj.apiVersion} at ${file} (set K6_OPERATOR_CRD)`);
    try {
      validateCustomResource(obj, loadCrd(file));
    } catch (err) {
      throw new Error(`${obj.kind}/${obj.metadata.name}: ${(err as Error).message}`);
    }
    return;
  }
  const mod = (await import(modulePath(obj.apiVersion))) as Record<string, new (o: unknown) => { validate(): void }>;
  const Model = mod[obj.kind];
  if (!Model) throw new Error(`no schema for ${obj.apiVersion} ${obj.kind}`);
  try {
    new Model(obj).validate();
  } catch (err) {
    throw new Error(`${obj.kind}/${obj.metadata.name}: ${(err as Error).message}`);
  }
}
