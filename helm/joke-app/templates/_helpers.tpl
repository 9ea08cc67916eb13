{{/* Names, labels and the shared pieces of every workload. */}}

{{- define "joke.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Release-scoped prefix of every object: <release>-joke-app unless the release name already says it. */}}
{{- define "joke.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* Name of one component's objects: joke.component (dict "root" $ "component" "gateway"). */}}
{{- define "joke.component" -}}
{{- printf "%s-%s" (include "joke.fullname" .root) .component | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "joke.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Selector labels: stable across upgrades (never add the version here). */}}
{{- define "joke.selectorLabels" -}}
app.kubernetes.io/name: {{ include "joke.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "joke.labels" -}}
helm.sh/chart: {{ include "joke.chart" .root }}
{{ include "joke.selectorLabels" . }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/part-of: joke-app
{{- end -}}

{{- define "joke.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{/* Secret names: the user's existing Secret, or the one this chart makes. */}}
{{- define "joke.secretName" -}}
{{- include "joke.component" (dict "root" . "component" "secrets") -}}
{{- end -}}

{{- define "joke.jwtSecretRef" -}}
name: {{ .Values.jwt.existingSecret | default (include "joke.secretName" .) }}
key: {{ ternary .Values.jwt.existingSecretKey "JWT_SECRET" (ne .Values.jwt.existingSecret "") }}
{{- end -}}

{{- define "joke.operatorSecretRef" -}}
name: {{ .Values.operator.existingSecret | default (include "joke.secretName" .) }}
key: {{ ternary .Values.operator.existingSecretKey "OPERATOR_TOKEN" (ne .Values.operator.existingSecret "") }}
{{- end -}}

{{/*
The Secret holding a store's URL: joke.storeSecret (dict "root" $ "store" "redis"). The operator's
<store>.existingSecret, else with the bundled store the operator's bundled.<store>.existingSecret (same keys as
the chart's Secret), else the chart's Secret.
*/}}
{{- define "joke.storeSecret" -}}
{{- $s := index .root.Values .store -}}
{{- $b := index .root.Values.bundled .store -}}
{{- if $s.existingSecret -}}{{- $s.existingSecret -}}
{{- else if and $b.enabled $b.existingSecret -}}{{- $b.existingSecret -}}
{{- else -}}{{- include "joke.secretName" .root -}}
{{- end -}}
{{- end -}}

{{/* secretKeyRef of NATS_URL / REDIS_URL / DATABASE_URL: joke.urlRef (dict "root" $ "store" "nats" "key" "NATS_URL"). */}}
{{- define "joke.urlRef" -}}
{{- $s := index .root.Values .store -}}
name: {{ include "joke.storeSecret" . }}
key: {{ ternary $s.existingSecretKey .key (ne $s.existingSecret "") }}
{{- end -}}

{{/* The env every service gets: ids from the pod, connections from Secrets, shared settings. */}}
{{/* joke.commonEnv (dict "root" $ "natsUser" "gateway"): natsUser picks the NATS user of the bundled NATS. */}}
{{- define "joke.commonEnv" -}}
{{- $v := .root.Values -}}
- name: JOKE_NAMESPACE
  value: {{ $v.keyNamespace | quote }}
- name: LOG_LEVEL
  value: {{ $v.logLevel | quote }}
- name: NODE_ENV
  value: production
- name: NATS_URL
  valueFrom:
    secretKeyRef:
      name: {{ include "joke.storeSecret" (dict "root" .root "store" "nats") }}
      {{- if $v.nats.existingSecret }}
      key: {{ $v.nats.existingSecretKey }}
      {{- else }}
      key: {{ ternary (printf "NATS_URL_%s" (upper .natsUser)) "NATS_URL" (and $v.bundled.nats.enabled $v.bundled.nats.auth) }}
      {{- end }}
{{- if and $v.bundled.nats.enabled $v.bundled.nats.auth (not $v.nats.existingSecret) }}
{{- /* The service users may not create streams: the joke-streams hook Job does (templates/nats-streams-job.yaml). */}}
- name: JETSTREAM_CREATE_STREAMS
  value: "0"
{{- end }}
{{- end -}}

{{/* A stored password, or a new random one: joke.keepOrGenerate (dict "live" $liveData "key" "K" "len" 32). */}}
{{- define "joke.keepOrGenerate" -}}
{{- $v := index .live .key -}}
{{- if $v -}}{{- $v | b64dec -}}{{- else -}}{{- randAlphaNum (int .len) -}}{{- end -}}
{{- end -}}

{{/*
Redis of a service: joke.redisEnv (dict "root" $ "cluster" true). REDIS_URL when there is a single Redis (bundled,
redis.url, or redis.existingSecret with existingSecretKey); REDIS_CLUSTER_URLS, for services that take a
cluster, when redis.clusterUrls or redis.existingSecretClusterUrlsKey is set.
*/}}
{{- define "joke.redisEnv" -}}
{{- $v := .root.Values -}}
{{- $r := $v.redis -}}
{{- if or $v.bundled.redis.enabled $r.url (and $r.existingSecret $r.existingSecretKey) }}
- name: REDIS_URL
  valueFrom:
    secretKeyRef:
      {{- include "joke.urlRef" (dict "root" .root "store" "redis" "key" "REDIS_URL") | nindent 6 }}
{{- end }}
{{- if and .cluster (or $r.clusterUrls (and $r.existingSecret $r.existingSecretClusterUrlsKey)) }}
- name: REDIS_CLUSTER_URLS
  valueFrom:
    secretKeyRef:
      name: {{ $r.existingSecret | default (include "joke.secretName" .root) }}
      key: {{ ternary $r.existingSecretClusterUrlsKey "REDIS_CLUSTER_URLS" (ne $r.existingSecret "") }}
{{- end }}
{{- end -}}

{{/* Probes of a service on its named port: liveness is /healthz (event loop answers), readiness /readyz. */}}
{{- define "joke.probes" -}}
readinessProbe:
  httpGet: { path: /readyz, port: {{ .port }} }
  periodSeconds: 5
  failureThreshold: 2
livenessProbe:
  httpGet: { path: /healthz, port: {{ .port }} }
  periodSeconds: 10
  timeoutSeconds: 3
  failureThreshold: 3
startupProbe:
  httpGet: { path: /healthz, port: {{ .port }} }
  periodSeconds: 2
  failureThreshold: 60
{{- end -}}

{{/* An env value as the service will parse it: whole numbers without an exponent (YAML numbers reach templates
as float64, and toString would turn 86400000 into "8.64e+07"). */}}
{{- define "joke.envValue" -}}
{{- if and (kindIs "float64" .) (eq . (floor .)) -}}{{- printf "%.0f" . -}}{{- else -}}{{- toString . -}}{{- end -}}
{{- end -}}

{{/*
A service's settings as env entries: joke.configEnv (dict "derived" $d "config" $c.config "extraEnv" $c.extraEnv).
`derived` are what the chart computes from structured values (trusted proxy hops, JetStream replicas, …); the
service's own `config` map wins over them, and a null in it drops the variable (the code's default applies).
A name the operator's extraEnv sets is left to it (one entry per name: server-side apply refuses two).
*/}}
{{/*
Tracing (values `tracing`) into a traced service's derived variables: only when an endpoint is set, so a
release without a collector renders no tracing variable at all. The service's `config` may still override.
*/}}
{{- define "joke.tracingEnv" -}}
{{- with .root.Values.tracing -}}
{{- if .otlpEndpoint -}}
{{- $_ := set $.derived "OTEL_EXPORTER_OTLP_ENDPOINT" .otlpEndpoint -}}
{{- $_ := set $.derived "OTEL_TRACES_SAMPLER_ARG" .sampleRatio -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "joke.configEnv" -}}
{{- $env := dict -}}
{{- range $k, $v := .derived }}{{- $_ := set $env $k $v -}}{{- end -}}
{{- range $k, $v := .config }}{{- $_ := set $env $k $v -}}{{- end -}}
{{- $extra := list -}}
{{- range .extraEnv }}{{- $extra = append $extra .name -}}{{- end -}}
{{- range $k, $v := $env }}
{{- if not (or (kindIs "invalid" $v) (has $k $extra)) }}
- name: {{ $k }}
  value: {{ include "joke.envValue" $v | quote }}
{{- end }}
{{- end }}
{{- end -}}

{{/* The operator's own variables for a container (extraEnv, a list of EnvVar) and sources (extraEnvFrom). */}}
{{- define "joke.extraEnv" -}}
{{- with .extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/*
Trusted proxy hops in front of the gateway and the lobby: the value when set, else 1 when the chart routes
players through an Ingress or a Gateway API route (the controller appends the client to X-Forwarded-For),
else 0 (clients reach the pods directly and could write the header themselves).
*/}}
{{- define "joke.proxyHops" -}}
{{- if kindIs "invalid" .Values.trustedProxyHops -}}
{{- ternary 1 0 (or .Values.ingress.enabled .Values.httpRoute.enabled) -}}
{{- else -}}
{{- .Values.trustedProxyHops | int -}}
{{- end -}}
{{- end -}}

{{/*
Pod metadata of a workload: joke.podMetadata (dict "root" $ "ctx" $ctx "c" $c "opsPort" N). Labels (plus
podLabels), scrape annotations when opsPort is given, the checksum of the secrets it reads (so a changed
secret rolls the pods) and podAnnotations.
*/}}
{{- define "joke.podMetadata" -}}
labels:
  {{- include "joke.labels" .ctx | nindent 2 }}
  {{- with .c.podLabels }}
  {{- toYaml . | nindent 2 }}
  {{- end }}
annotations:
  {{- if .opsPort }}
  {{- include "joke.scrapeAnnotations" (dict "port" .opsPort) | nindent 2 }}
  {{- end }}
  checksum/secrets: {{ include "joke.secretsChecksum" .root | quote }}
  {{- with .extraAnnotations }}
  {{- toYaml . | nindent 2 }}
  {{- end }}
  {{- with .c.podAnnotations }}
  {{- toYaml . | nindent 2 }}
  {{- end }}
{{- end -}}

{{/*
What the pods' secrets are made of: the values that shape the chart's Secret (its generated passwords are
kept across upgrades, so they add nothing) and the live content of every existing Secret named in values
(lookup; empty under `helm template`, so a render without a cluster is stable).
*/}}
{{- define "joke.secretsChecksum" -}}
{{- $v := .Values -}}
{{- $parts := list (toJson (dict "jwt" $v.jwt "nats" $v.nats "redis" $v.redis "postgresql" $v.postgresql "bundled" $v.bundled)) -}}
{{- range $n := uniq (compact (list $v.jwt.existingSecret $v.nats.existingSecret $v.redis.existingSecret $v.postgresql.existingSecret $v.bundled.nats.existingSecret $v.bundled.redis.existingSecret $v.bundled.postgresql.existingSecret)) }}
{{- $parts = append $parts (toJson ((lookup "v1" "Secret" $.Release.Namespace $n).data | default dict)) -}}
{{- end -}}
{{- join "\n" $parts | sha256sum | trunc 16 -}}
{{- end -}}

{{/* Pod-level settings shared by every workload: joke.podSpecCommon (dict "root" $ "c" .Values.gateway). */}}
{{- define "joke.podSpecCommon" -}}
{{- with .root.Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
securityContext:
  {{- toYaml .root.Values.podSecurityContext | nindent 2 }}
serviceAccountName: {{ include "joke.serviceAccountName" . }}
automountServiceAccountToken: {{ .root.Values.serviceAccount.automountToken }}
enableServiceLinks: false
{{- with .c.priorityClassName }}
priorityClassName: {{ . }}
{{- end }}
{{- with .c.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .c.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .c.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .c.topologySpreadConstraints }}
topologySpreadConstraints:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{/* The ServiceAccount of a workload: its own serviceAccountName, else the chart's (made or named), else default. */}}
{{- define "joke.serviceAccountName" -}}
{{- $sa := .root.Values.serviceAccount -}}
{{- if .c.serviceAccountName -}}
{{- .c.serviceAccountName -}}
{{- else if $sa.create -}}
{{- $sa.name | default (include "joke.fullname" .root) -}}
{{- else -}}
{{- $sa.name | default "default" -}}
{{- end -}}
{{- end -}}

{{/* Prometheus scrape annotations for pods (for setups without the ServiceMonitor). */}}
{{- define "joke.scrapeAnnotations" -}}
prometheus.io/scrape: 'true'
prometheus.io/port: {{ .port | quote }}
prometheus.io/path: /metrics
{{- end -}}

{{/* ws:// or wss:// URL browsers use for the gateway. */}}
{{- define "joke.publicGatewayUrl" -}}
{{- if .Values.lobby.publicGatewayUrl -}}
{{- .Values.lobby.publicGatewayUrl -}}
{{- else -}}
{{- printf "%s://%s/ws" (ternary "wss" "ws" .Values.ingress.tls.enabled) .Values.ingress.host -}}
{{- end -}}
{{- end -}}


{{/* The lobby's public paths (the Ingress and the HTTPRoute route the same ones): the page, /config.json,
the PWA manifest and icons exactly; assets, icons and the API by prefix. Never /healthz, /readyz, /metrics. */}}
{{- define "joke.lobbyExactPaths" -}}
["/", "/index.html", "/config.json", "/manifest.webmanifest", "/apple-touch-icon.png"]
{{- end -}}
{{- define "joke.lobbyPrefixPaths" -}}
["/assets", "/icons", "/trpc"]
{{- end -}}

{{/* Replicas of the durable streams (JETSTREAM_REPLICAS): nats.jetstreamReplicas, else 3 on the bundled cluster, else 1. */}}
{{- define "joke.jetstreamReplicas" -}}
{{- $n := .Values.nats -}}
{{- if not (kindIs "invalid" $n.jetstreamReplicas) -}}{{- $n.jetstreamReplicas | int -}}
{{- else if and .Values.bundled.nats.enabled .Values.bundled.nats.cluster.enabled -}}3
{{- else -}}1
{{- end -}}
{{- end -}}

{{/*
Client addresses of the bundled NATS, comma-separated, without credentials: the one Service of a single
server, or every pod of the cluster by its stable name under the headless Service (the client then knows
every server from the start and reconnects to another when one restarts).
*/}}
{{- define "joke.bundledNatsHosts" -}}
{{- $full := include "joke.fullname" . -}}
{{- $c := .Values.bundled.nats.cluster -}}
{{- if $c.enabled -}}
{{- $hosts := list -}}
{{- range $i := until ($c.replicas | int) -}}
{{- $hosts = append $hosts (printf "%s-nats-%d.%s-nats-headless.%s.svc:4222" $full $i $full $.Release.Namespace) -}}
{{- end -}}
{{- join "," $hosts -}}
{{- else -}}
{{- printf "%s-nats:4222" $full -}}
{{- end -}}
{{- end -}}
