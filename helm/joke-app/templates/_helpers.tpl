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

{{/* secretKeyRef of NATS_URL / REDIS_URL / DATABASE_URL: joke.urlRef (dict "root" $ "store" "nats" "key" "NATS_URL"). */}}
{{- define "joke.urlRef" -}}
{{- $s := index .root.Values .store -}}
name: {{ $s.existingSecret | default (include "joke.secretName" .root) }}
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
      {{- if $v.nats.existingSecret }}
      name: {{ $v.nats.existingSecret }}
      key: {{ $v.nats.existingSecretKey }}
      {{- else }}
      name: {{ include "joke.secretName" .root }}
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

{{- define "joke.redisEnv" -}}
- name: REDIS_URL
  valueFrom:
    secretKeyRef:
      {{- include "joke.urlRef" (dict "root" . "store" "redis" "key" "REDIS_URL") | nindent 6 }}
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

{{/* A service's `config` map as env entries, values as strings. */}}
{{- define "joke.configEnv" -}}
{{- range $k, $v := . }}
- name: {{ $k }}
  value: {{ toString $v | quote }}
{{- end }}
{{- end -}}

{{/* Pod-level settings shared by every workload: joke.podSpecCommon (dict "root" $ "c" .Values.gateway). */}}
{{- define "joke.podSpecCommon" -}}
{{- with .root.Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
securityContext:
  {{- toYaml .root.Values.podSecurityContext | nindent 2 }}
automountServiceAccountToken: false
enableServiceLinks: false
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
