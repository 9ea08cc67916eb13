/**
 * Strict schema validation of rendered objects with kubernetes-models (the Kubernetes OpenAPI schemas) and
 * its prometheus-operator, KEDA and Gateway API companions. The models' validators check types and required
 * fields but accept unknown ones (a typo such as `spec.replica` or `httpGett` passes them), and they ship as
 * compiled code without the schema itself. So unknown fields are found by probing the validator: every key
 * of every object is replaced in turn by a value no schema accepts (a function); a key the schema knows
 * makes the validator report an error at that key's path, an unknown key does not. An object where a fresh
 * key errors too is a map (labels, ConfigMap data): every key is allowed. An object where no key errors is
 * free-form (`x-kubernetes-preserve-unknown-fields`, raw JSON): not probed further. Limit: a typed object
 * whose every key is a typo looks free-form and passes; the broken-chart test checks typos beside good keys.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadCrd, validateCustomResource } from './crd-schema.ts';
import { ROOT } from './helm.ts';

type Model = new (o: unknown) => { validate(): void };
interface AjvError {
  instancePath: string;
  message?: string;
}

const CRD_PACKAGES: Record<string, string> = {
  'monitoring.coreos.com': '@kubernetes-models/prometheus-operator',
  'keda.sh': '@kubernetes-models/keda',
  'gateway.networking.k8s.io': '@kubernetes-models/gateway-api',
};

function modulePath(apiVersion: string): string {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  if (!group) return `kubernetes-models/${version}`;
  return `${CRD_PACKAGES[group] ?? 'kubernetes-models'}/${group}/${version}`;
}

async function modelOf(obj: { apiVersion: string; kind: string }): Promise<Model> {
  const mod = (await import(modulePath(obj.apiVersion))) as Record<string, Model>;
  const Model = mod[obj.kind];
  if (!Model) throw new Error(`no schema for ${obj.apiVersion} ${obj.kind}`);
  return Model;
}

function errorsOf(Model: Model, obj: unknown): AjvError[] {
  try {
    new Model(obj).validate();
    return [];
  } catch (err) {
    return (err as { errors?: AjvError[] }).errors ?? [{ instancePath: '', message: (err as Error).message }];
  }
}

const PROBE = () => undefined;
const pointer = (path: (string | number)[]) =>
  path.map((k) => `/${String(k).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

/**
 * Probe answers by schema location (kind, path with array indices and map keys generalised, key): a
 * location's schema does not depend on the values around it in these models, and memoising turns the
 * thousands of whole-object validations of a chart render into a few hundred.
 */
const probes = new Map<string, boolean>();

/** Paths of the keys of `obj` its schema does not know. */
function unknownFields(Model: Model, obj: any): string[] {
  const unknown: string[] = [];
  const probe = (path: (string | number)[], key: string, where: string): boolean => {
    const id = `${obj.apiVersion} ${obj.kind}${where} ${key}`;
    const seen = probes.get(id);
    if (seen !== undefined) return seen;
    const found = probeOnce(path, key);
    probes.set(id, found);
    return found;
  };
  const probeOnce = (path: (string | number)[], key: string): boolean => {
    const copy = structuredClone(obj);
    let node = copy;
    for (const k of path) node = node[k];
    node[key] = PROBE;
    const at = pointer([...path, key]);
    return errorsOf(Model, copy).some((e) => e.instancePath === at || e.instancePath.startsWith(`${at}/`));
  };
  /** `where`: the schema location of `node`, array indices as [] and map keys as {}. */
  const walk = (node: unknown, path: (string | number)[], where: string): void => {
    if (Array.isArray(node)) return node.forEach((v, i) => walk(v, [...path, i], `${where}/[]`));
    if (node === null || typeof node !== 'object') return;
    const keys = Object.keys(node);
    const map = probe(path, '__joke_probe__', where);
    const known = map ? keys : keys.filter((k) => probe(path, k, where));
    if (known.length === 0) return; // free-form
    for (const k of keys) if (!known.includes(k)) unknown.push(pointer([...path, k]));
    for (const k of known) walk((node as Record<string, unknown>)[k], [...path, k], `${where}/${map ? '{}' : k}`);
  };
  walk(obj, [], '');
  return unknown;
}

/**
 * CRDs kubernetes-models has no classes for, checked against their own CRD files (crd-schema.ts, which
 * refuses unknown fields itself). k6-operator's TestRun: the CRD of k6-operator v1.6.0 in the shared folder
 * beside the repository (../shared/anchors/k6-operator), or K6_OPERATOR_CRD.
 */
const CRD_FILES: Record<string, () => string> = {
  'k6.io': () =>
    process.env.K6_OPERATOR_CRD ?? join(ROOT, '..', 'shared', 'anchors', 'k6-operator', 'k6.io_testruns.yaml'),
};

/** Throws naming the object and every bad or unknown field. */
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
  const Model = await modelOf(obj);
  const name = `${obj.kind}/${obj.metadata.name}`;
  try {
    new Model(obj).validate();
  } catch (err) {
    throw new Error(`${name}: ${(err as Error).message}`);
  }
  const unknown = unknownFields(Model, obj);
  if (unknown.length) throw new Error(`${name}: unknown field(s) ${unknown.join(', ')}`);
}
