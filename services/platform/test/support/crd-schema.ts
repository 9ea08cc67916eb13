/**
 * Strict validation of a rendered custom resource against its CustomResourceDefinition's
 * openAPIV3Schema, for CRDs that kubernetes-models has no class for (k6-operator's TestRun). "Strict"
 * as `kubectl apply --validate=strict`: a field the schema does not declare is an error unless the
 * schema keeps unknown fields (x-kubernetes-preserve-unknown-fields). Covers the keywords such CRDs
 * use: type, properties, required, items, additionalProperties, anyOf, enum, pattern, minimum,
 * min/maxLength, x-kubernetes-int-or-string. Throws naming the path of the first problem.
 */
import { readFileSync } from 'node:fs';
import yaml from 'js-yaml';

type Schema = Record<string, any>;

interface Crd {
  group: string;
  versions: Map<string, Schema>;
  kind: string;
}

export function loadCrd(path: string): Crd {
  const doc = yaml.load(readFileSync(path, 'utf8')) as any;
  return {
    group: doc.spec.group,
    kind: doc.spec.names.kind,
    versions: new Map(doc.spec.versions.map((v: any) => [v.name, v.schema.openAPIV3Schema])),
  };
}

function typeOf(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function check(v: unknown, s: Schema, path: string): void {
  if (s['x-kubernetes-int-or-string']) {
    if (!['integer', 'string'].includes(typeOf(v))) throw new Error(`${path}: expected integer or string`);
    return;
  }
  if (s.anyOf) {
    const errors: string[] = [];
    for (const alt of s.anyOf as Schema[])
      try {
        check(v, { ...s, anyOf: undefined, ...alt }, path);
        return;
      } catch (err) {
        errors.push((err as Error).message);
      }
    throw new Error(`${path}: matches no alternative (${errors.join('; ')})`);
  }
  const t = typeOf(v);
  if (s.type && !(s.type === t || (s.type === 'number' && t === 'integer')))
    throw new Error(`${path}: expected ${s.type}, got ${t}`);
  if (s.enum && !s.enum.includes(v))
    throw new Error(`${path}: ${JSON.stringify(v)} is not one of ${s.enum.join(', ')}`);
  if (typeof v === 'string') {
    if (s.pattern && !new RegExp(s.pattern).test(v)) throw new Error(`${path}: does not match ${s.pattern}`);
    if (s.maxLength !== undefined && v.length > s.maxLength) throw new Error(`${path}: longer than ${s.maxLength}`);
    if (s.minLength !== undefined && v.length < s.minLength) throw new Error(`${path}: shorter than ${s.minLength}`);
  }
  if (typeof v === 'number' && s.minimum !== undefined && v < s.minimum) throw new Error(`${path}: below ${s.minimum}`);
  if (t === 'array' && s.items) (v as unknown[]).forEach((x, i) => check(x, s.items, `${path}[${i}]`));
  if (t === 'object') {
    const o = v as Record<string, unknown>;
    for (const r of s.required ?? []) if (!(r in o)) throw new Error(`${path}.${r}: required`);
    for (const [k, x] of Object.entries(o)) {
      const p = `${path}.${k}`;
      if (s.properties?.[k]) check(x, s.properties[k], p);
      else if (s.additionalProperties && typeof s.additionalProperties === 'object')
        check(x, s.additionalProperties, p);
      else if (!s['x-kubernetes-preserve-unknown-fields'] && (s.properties || s.additionalProperties === false))
        throw new Error(`${p}: unknown field`);
    }
  }
}

/** Throws unless `obj` is a valid object of `crd` (its apiVersion served by the CRD, its kind the CRD's). */
export function validateCustomResource(obj: { apiVersion: string; kind: string }, crd: Crd): void {
  const [group, version] = obj.apiVersion.split('/');
  if (group !== crd.group || obj.kind !== crd.kind)
    throw new Error(`${obj.apiVersion} ${obj.kind} is not ${crd.group} ${crd.kind}`);
  const schema = crd.versions.get(version);
  if (!schema) throw new Error(`${crd.kind}: version ${version} is not served by the CRD`);
  // metadata is the API server's ObjectMeta, not described by the CRD's schema.
  const { metadata, ...rest } = obj as Record<string, unknown>;
  if (typeof metadata !== 'object' || metadata === null) throw new Error('metadata: required');
  check(rest, { ...schema, properties: { ...schema.properties, metadata: { type: 'object' } } }, crd.kind);
}
