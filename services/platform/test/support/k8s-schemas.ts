/**
 * Schema validation of rendered objects with kubernetes-models (the Kubernetes
 * OpenAPI schemas) and its prometheus-operator and KEDA companions: the model
 * class for apiVersion/kind is loaded and `validate()` throws naming the field.
 */
const CRD_PACKAGES: Record<string, string> = {
  'monitoring.coreos.com': '@kubernetes-models/prometheus-operator',
  'keda.sh': '@kubernetes-models/keda',
};

function modulePath(apiVersion: string): string {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  if (!group) return `kubernetes-models/${version}`;
  return `${CRD_PACKAGES[group] ?? 'kubernetes-models'}/${group}/${version}`;
}

export async function validateObject(obj: { apiVersion: string; kind: string; metadata: { name: string } }) {
  const mod = (await import(modulePath(obj.apiVersion))) as Record<string, new (o: unknown) => { validate(): void }>;
  const Model = mod[obj.kind];
  if (!Model) throw new Error(`no schema for ${obj.apiVersion} ${obj.kind}`);
  try {
    new Model(obj).validate();
  } catch (err) {
    throw new Error(`${obj.kind}/${obj.metadata.name}: ${(err as Error).message}`);
  }
}
