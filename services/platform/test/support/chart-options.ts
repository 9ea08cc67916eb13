/**
 * Every environment option of the services the chart deploys, in one registry: the option tables each
 * service exports (`<service>OptionTables`), the variables the bus reads straight from the environment, and
 * how the chart sets each one (a structured value, the pod itself, or the service's `config` map). The
 * chart's every-option test, its values schema (`config` maps) and its README are all derived from here, so
 * an option added to a table reaches all three; `npm run chart-readme` rewrites the generated parts, and the
 * test fails while they are stale. Pure: no I/O besides what the caller passes in.
 */
import { gatewayOptionTables } from '@joke/gateway';
import { matchmakerOptionTables } from '@joke/matchmaker';
import { workerOptionTables } from '@joke/room-worker';
import { lobbyOptionTables } from '@joke/lobby/config';
import { load } from 'js-yaml';

export interface Option {
  env: string;
  default: unknown;
  doc: string;
  /** Allowed values of an enum option. */
  choices?: readonly string[];
  /** Whether the service would take this raw value (its own zod schema). */
  accepts(raw: string): boolean;
}

type Table = {
  spec: Record<
    string,
    { env: string; default: unknown; doc: string; schema: { safeParse(v: unknown): { success: boolean } } }
  >;
};

const fromTables = (tables: Table[]): Option[] =>
  tables.flatMap((t) =>
    Object.values(t.spec).map((o) => {
      let def: unknown;
      try {
        def = typeof o.default === 'function' ? '(computed)' : o.default;
      } catch {
        def = '(computed)';
      }
      const choices = (o.schema as { options?: unknown }).options;
      return {
        env: o.env,
        default: def,
        doc: o.doc,
        choices: Array.isArray(choices) ? choices : undefined,
        accepts: (raw: string) => o.schema.safeParse(raw).success,
      };
    }),
  );

const wholeNumber = (raw: string) => /^\d+$/.test(raw);

/** Read by the bus (services/bus/src/nats.ts) from the raw environment, in every service that connects to NATS. */
export const BUS_RAW: Option[] = [
  {
    env: 'JETSTREAM_REPLICAS',
    default: 1,
    doc: 'Replicas of the durable JetStream streams (game results); 3 on a 3-node JetStream cluster. The chart sets nats.jetstreamReplicas.',
    accepts: wholeNumber,
  },
  {
    env: 'NATS_COALESCE_WRITES',
    default: '1',
    doc: 'One socket write to NATS per event-loop turn (0 = one write per message).',
    accepts: (raw) => raw === '0' || raw === '1',
  },
  {
    env: 'NATS_WRITE_GAP_MS',
    default: 1,
    doc: 'At most one socket write to NATS per this many ms (0 = every event-loop turn).',
    accepts: wholeNumber,
  },
];

export const SERVICES = {
  gateway: { values: 'gateway', tables: gatewayOptionTables as unknown as Table[] },
  lobby: { values: 'lobby', tables: lobbyOptionTables as unknown as Table[] },
  matchmaker: { values: 'matchmaker', tables: matchmakerOptionTables as unknown as Table[] },
  'room-worker': { values: 'roomWorker', tables: workerOptionTables as unknown as Table[] },
} as const;
export type Service = keyof typeof SERVICES;

/** Unique per pod, from the pod's own name or ordinal: never a value (two pods would share an id). */
export const POD_DERIVED: Record<string, string> = {
  GATEWAY_ID: 'the pod name',
  MATCHMAKER_ID: 'the pod name',
  WORKER_ID: 'the pod name',
  SHARD: 'the StatefulSet ordinal (label apps.kubernetes.io/pod-index)',
};

/** Set from a structured value (`<svc>` is the service's values key), because other objects depend on it. */
export const CHART_SET: Record<string, string> = {
  HOST: 'listenHost',
  OPS_HOST: 'listenHost',
  PORT: '<svc>.port',
  OPS_PORT: '<svc>.opsPort',
  JWT_SECRET: 'jwt.value / jwt.existingSecret',
  OPERATOR_TOKEN: 'operator.value / operator.existingSecret',
  NATS_URL: 'nats.url / nats.existingSecret / bundled.nats',
  REDIS_URL: 'redis.url / redis.existingSecret / bundled.redis',
  REDIS_CLUSTER_URLS: 'redis.clusterUrls / redis.existingSecretClusterUrlsKey',
  DATABASE_URL: 'postgresql.url / postgresql.existingSecret / bundled.postgresql',
  JOKE_NAMESPACE: 'keyNamespace',
  LOG_LEVEL: 'logLevel',
  DRAIN_TIMEOUT_MS: 'roomWorker.drainTimeoutMs',
  GATEWAY_SHUTDOWN_SPREAD_MS: 'gateway.shutdownSpreadMs',
  PUBLIC_GATEWAY_URL: 'lobby.publicGatewayUrl',
  SERVE_CLIENT: 'lobby.serveClient',
  CLIENT_DIR: 'lobby.clientDir',
};

/** Computed by the chart from other values; the service's `config` map may still override them. */
export const DERIVED: Record<string, string> = {
  JETSTREAM_REPLICAS: 'nats.jetstreamReplicas (3 with bundled.nats.cluster, else 1)',
  SNAPSHOT_REPLICAS: 'redis.snapshotReplicas',
  GATEWAY_TRUST_PROXY_HOPS: 'trustedProxyHops (1 behind ingress/httpRoute)',
  LOBBY_TRUST_PROXY_HOPS: 'trustedProxyHops (1 behind ingress/httpRoute)',
  OTEL_EXPORTER_OTLP_ENDPOINT: 'tracing.otlpEndpoint (gateway, room worker)',
  OTEL_TRACES_SAMPLER_ARG: 'tracing.sampleRatio, when tracing.otlpEndpoint is set',
};

/** Every option a service reads: its tables and the bus's raw reads, each once. */
export function serviceOptions(service: Service): Option[] {
  const seen = new Map<string, Option>();
  for (const o of [...fromTables(SERVICES[service].tables), ...BUS_RAW]) if (!seen.has(o.env)) seen.set(o.env, o);
  return [...seen.values()];
}

/** The options a service's `config` map takes: all but those set from structured values or the pod. */
export const configOptions = (service: Service): Option[] =>
  serviceOptions(service).filter((o) => !(o.env in CHART_SET) && !(o.env in POD_DERIVED));

/** JSON schema of `<svc>.config`: only known options; a null drops the variable (the code's default). */
export function configSchema(service: Service): object {
  const properties: Record<string, object> = {};
  for (const o of configOptions(service)) {
    const type =
      typeof o.default === 'number'
        ? ['number', 'string', 'null']
        : typeof o.default === 'boolean'
          ? ['boolean', 'string', 'null']
          : ['string', 'null'];
    properties[o.env] = o.choices
      ? { type: ['string', 'null'], enum: [...o.choices, null], description: o.doc }
      : { type, description: o.doc };
  }
  return { type: 'object', additionalProperties: false, properties };
}

/** values.schema.json with every service's `config` schema regenerated (the rest kept as written). */
export function withConfigSchemas(schema: any): any {
  const out = structuredClone(schema);
  for (const s of Object.keys(SERVICES) as Service[])
    out.properties[SERVICES[s].values].properties.config = configSchema(s);
  return out;
}

interface ValueRow {
  key: string;
  value: string;
  doc: string;
}

/**
 * The keys of values.yaml with their defaults and `# --` comments (continued by plain `#` lines), in file
 * order. Leaves only: scalars, flow collections and empty ones. Keys under a service's `config` are left to
 * the option tables.
 */
export function valueRows(valuesYaml: string): ValueRow[] {
  const rows: ValueRow[] = [];
  const path: { indent: number; key: string }[] = [];
  let doc: string[] = [];
  let inDoc = false;
  for (const line of valuesYaml.split('\n')) {
    const comment = /^\s*# ?(.*)$/.exec(line);
    if (comment) {
      if (comment[1].startsWith('-- ')) {
        doc = [comment[1].slice(3)];
        inDoc = true;
      } else if (inDoc) doc.push(comment[1]);
      continue;
    }
    const m = /^(\s*)([A-Za-z0-9_.-]+|'[^']*'):(?:\s+(.*))?$/.exec(line);
    if (!m) {
      if (line.trim() === '') inDoc = false;
      continue;
    }
    const indent = m[1].length;
    while (path.length && path.at(-1)!.indent >= indent) path.pop();
    const key = [...path.map((p) => p.key), m[2]].join('.');
    const value = (m[3] ?? '').replace(/\s+#.*$/, '');
    if (value === '') path.push({ indent, key: m[2] });
    else if (!/\.config\.[A-Z]/.test(key)) rows.push({ key, value, doc: doc.join(' ') });
    doc = [];
    inDoc = false;
  }
  return rows;
}

const cell = (s: unknown) => String(s).replace(/\|/g, '\\|').replace(/\n/g, ' ');
const shown = (v: unknown) => (v === '' ? '(empty)' : v === undefined ? '(unset)' : String(v));

/** helm/joke-app/README.md, from values.yaml and the option tables. */
export function chartReadme(valuesYaml: string): string {
  const values = load(valuesYaml) as Record<string, any>;
  const out = [
    "<!-- Generated by `npm run chart-readme` from values.yaml and the services' option tables. Do not edit. -->",
    '# joke-app chart',
    '',
    'Gateways, room workers, matchmakers and the lobby of joke-app on NATS (JetStream), Redis and PostgreSQL.',
    'Install, cluster mode, secrets and GitOps: [docs/operations.md](../../docs/operations.md).',
    '',
    '## Values',
    '',
    '| key | default | meaning |',
    '|---|---|---|',
    ...valueRows(valuesYaml).map((r) => `| \`${r.key}\` | \`${cell(r.value)}\` | ${cell(r.doc)} |`),
    '',
    '## Service options',
    '',
    "Every option a service reads is settable. Most go in the service's `config` map (`gateway.config`,",
    '`lobby.config`, `matchmaker.config`, `roomWorker.config`): a key there becomes the variable; a null drops it',
    "(the code's default applies); a name in `extraEnv` wins over both. Values the chart sets itself:",
    '',
    '| variable | set from |',
    '|---|---|',
    ...Object.entries(CHART_SET).map(([e, p]) => `| \`${e}\` | \`${p}\` |`),
    ...Object.entries(POD_DERIVED).map(([e, p]) => `| \`${e}\` | ${p} |`),
    ...Object.entries(DERIVED).map(([e, p]) => `| \`${e}\` | \`${p}\`, unless the service's \`config\` sets it |`),
  ];
  for (const s of Object.keys(SERVICES) as Service[]) {
    const key = SERVICES[s].values;
    const set = values[key]?.config ?? {};
    out.push(
      '',
      `### \`${key}.config\` (${s})`,
      '',
      '| variable | code default | chart default | meaning |',
      '|---|---|---|---|',
      ...configOptions(s).map(
        (o) =>
          `| \`${o.env}\` | ${cell(shown(o.default))} | ${o.env in set ? `\`${cell(shown(set[o.env]))}\`` : ''} | ${cell(o.doc)}${o.choices ? ` (${o.choices.join(', ')})` : ''} |`,
      ),
    );
  }
  return out.join('\n') + '\n';
}
