{{/*
Environment per service. Each service gets only the Secret keys it reads (never envFrom of the whole Secret):
  control       DATABASE_URL, TENANT_JWT_PRIVATE_KEY, AUTH_JWT_SECRET, SEED_ADMIN_PASSWORD (optional), SMTP_URL (optional),
                SEED_*_PASSWORD (only with demoSeed), IDP_* client secrets (only with sso.enabled)
  tenant        DATABASE_URL, TENANT_JWT_PUBLIC_KEY (+ _PREVIOUS, optional), NEO4J_PASSWORD (NEO4J_READONLY_PASSWORD
                with neo4j.readOnlyUser)
  mcp           DATABASE_URL, TENANT_JWT_PUBLIC_KEY (+ _PREVIOUS, optional), NEO4J_PASSWORD (graph tools; likewise)
  graph-worker  DATABASE_URL, NEO4J_PASSWORD
  migrations    DATABASE_MIGRATION_URL (optional, a direct connection past PgBouncer), else DATABASE_URL
*/}}

{{/* dict "root" $ "name" "ENV_NAME" "key" "SECRET_KEY" "optional" bool */}}
{{- define "archimate.secretEnv" -}}
- name: {{ .name }}
  valueFrom:
    secretKeyRef:
      name: {{ include "archimate.secretName" .root }}
      key: {{ .key | default .name }}
      {{- if .optional }}
      optional: true
      {{- end }}
{{- end -}}

{{- define "archimate.plainEnv" -}}
{{- range $name, $value := . }}
- name: {{ $name }}
  value: {{ $value | toString | quote }}
{{- end }}
{{- end -}}

{{- define "archimate.env.common" -}}
- name: NODE_ENV
  value: production
- name: HOST
  value: "0.0.0.0"
- name: DATA_DIR
  value: /tmp/data
- name: MIGRATE_ON_START
  value: {{ ternary "false" "true" .Values.migrations.job | quote }}
- name: SHUTDOWN_DRAIN_MS
  value: {{ mul .Values.drainSeconds 1000 | quote }}
- name: SHUTDOWN_CLOSE_MS
  value: {{ mul .Values.closeSeconds 1000 | quote }}
- name: NODE_OPTIONS
  value: {{ .Values.nodeOptions | quote }}
{{ include "archimate.secretEnv" (dict "root" . "name" "DATABASE_URL") }}
{{- end -}}

{{- define "archimate.env.graphCommon" -}}
- name: NATS_URL
  value: {{ .Values.nats.url | quote }}
- name: NEO4J_URL
  value: {{ .Values.neo4j.url | quote }}
{{- if .Values.neo4j.database }}
- name: NEO4J_DATABASE
  value: {{ .Values.neo4j.database | quote }}
{{- end }}
- name: NEO4J_LOCAL
  value: "false"
{{- end -}}

{{/* The graph worker writes the graph: the writing user. */}}
{{- define "archimate.env.graph" -}}
{{ include "archimate.env.graphCommon" . }}
- name: NEO4J_USER
  value: {{ .Values.neo4j.user | quote }}
{{ include "archimate.secretEnv" (dict "root" . "name" "NEO4J_PASSWORD") }}
{{- end -}}

{{/*
Tenant and mcp only read the graph: with neo4j.readOnlyUser (Neo4j Enterprise: a user with the built-in reader
role) they log in as that user, so even a query that got past explore's checks could not write; without it (Neo4j
Community has no per-user roles) they use the writing user.
*/}}
{{- define "archimate.env.graphReader" -}}
{{- if .Values.neo4j.readOnlyUser }}
{{ include "archimate.env.graphCommon" . }}
- name: NEO4J_USER
  value: {{ .Values.neo4j.readOnlyUser | quote }}
{{ include "archimate.secretEnv" (dict "root" . "name" "NEO4J_PASSWORD" "key" "NEO4J_READONLY_PASSWORD") }}
{{- else }}
{{ include "archimate.env.graph" . }}
{{- end }}
{{- end -}}

{{/* Tenant and mcp verify control's tokens: the public key, and the previous one while a rotation is under way. */}}
{{- define "archimate.env.tokenVerifier" -}}
{{ include "archimate.secretEnv" (dict "root" . "name" "TENANT_JWT_PUBLIC_KEY") }}
{{ include "archimate.secretEnv" (dict "root" . "name" "TENANT_JWT_PUBLIC_KEY_PREVIOUS" "optional" true) }}
{{- end -}}

{{- define "archimate.env.control" -}}
{{ include "archimate.env.common" . }}
{{ include "archimate.secretEnv" (dict "root" . "name" "TENANT_JWT_PRIVATE_KEY") }}
{{ include "archimate.secretEnv" (dict "root" . "name" "AUTH_JWT_SECRET") }}
{{ include "archimate.secretEnv" (dict "root" . "name" "SEED_ADMIN_PASSWORD" "optional" true) }}
{{ include "archimate.secretEnv" (dict "root" . "name" "SMTP_URL" "optional" true) }}
- name: PORT
  value: {{ .Values.control.port | quote }}
- name: METRICS_PORT
  value: {{ .Values.metrics.port | quote }}
- name: TENANT_URL
  value: {{ printf "http://%s:%v" (include "archimate.componentName" (dict "root" . "component" "tenant")) .Values.tenant.port | quote }}
- name: MCP_URL
  value: {{ printf "http://%s:%v" (include "archimate.componentName" (dict "root" . "component" "mcp")) .Values.mcp.port | quote }}
- name: PUBLIC_URL
  value: {{ include "archimate.publicUrl" . | quote }}
- name: TRUST_PROXY_HOPS
  value: {{ include "archimate.trustProxyHops" . | quote }}
- name: DEMO_SEED
  value: {{ .Values.demoSeed | toString | quote }}
- name: AUTH_MODE
  value: {{ .Values.authMode | quote }}
{{- if eq .Values.authMode "session" }}
{{ include "archimate.secretEnv" (dict "root" . "name" "SESSION_SECRET") }}
{{- end }}
{{- if or .Values.demoSeed (eq .Values.authMode "session") }}
{{- range list "SEED_USER_PASSWORD" "SEED_CONTRIB_PASSWORD" "SEED_ARCHI_PASSWORD" }}
{{ include "archimate.secretEnv" (dict "root" $ "name" .) }}
{{- end }}
{{- end }}
{{- if .Values.demoSeed }}
{{ include "archimate.secretEnv" (dict "root" . "name" "SEED_OPEN_PASSWORD") }}
{{- end }}
{{- with .Values.mail.from }}
- name: MAIL_FROM
  value: {{ . | quote }}
{{- end }}
{{- if .Values.sso.enabled }}
- name: IDP_SSO_ENABLED
  value: "true"
- name: IDP_URL
  value: {{ required "sso.url is required with sso.enabled" .Values.sso.url | quote }}
- name: IDP_REALM
  value: {{ required "sso.realm is required with sso.enabled" .Values.sso.realm | quote }}
- name: IDP_CLIENT_ID_WEB
  value: {{ required "sso.clientIdWeb is required with sso.enabled" .Values.sso.clientIdWeb | quote }}
- name: IDP_ADMIN_CLIENT_ID
  value: {{ required "sso.adminClientId is required with sso.enabled" .Values.sso.adminClientId | quote }}
{{ include "archimate.secretEnv" (dict "root" . "name" "IDP_CLIENT_SECRET_WEB") }}
{{ include "archimate.secretEnv" (dict "root" . "name" "IDP_ADMIN_CLIENT_SECRET") }}
{{- with .Values.sso.accessTokenAudience }}
- name: IDP_ACCESS_TOKEN_AUDIENCE
  value: {{ . | quote }}
{{- end }}
{{- end }}
- name: DB_POOL_MAX
  value: {{ .Values.control.dbPoolMax | quote }}
{{- with .Values.nats.url }}
{{- /* Presences (live collaboration) are shared between control replicas on NATS core subjects. */}}
- name: NATS_URL
  value: {{ . | quote }}
{{- end }}
{{- include "archimate.plainEnv" .Values.control.env }}
{{- end -}}

{{- define "archimate.env.tenant" -}}
{{ include "archimate.env.common" . }}
{{ include "archimate.env.tokenVerifier" . }}
{{ include "archimate.env.graphReader" . }}
- name: TENANT_PORT
  value: {{ .Values.tenant.port | quote }}
- name: METRICS_PORT
  value: {{ .Values.metrics.port | quote }}
- name: UPLOAD_LIMIT_MB
  value: {{ .Values.uploadLimitMb | quote }}
- name: DB_POOL_MAX
  value: {{ .Values.tenant.dbPoolMax | quote }}
{{- include "archimate.plainEnv" .Values.tenant.env }}
{{- end -}}

{{- define "archimate.env.mcp" -}}
{{ include "archimate.env.common" . }}
{{ include "archimate.env.tokenVerifier" . }}
{{ include "archimate.env.graphReader" . }}
- name: MCP_PORT
  value: {{ .Values.mcp.port | quote }}
- name: METRICS_PORT
  value: {{ .Values.metrics.port | quote }}
- name: MCP_BODY_LIMIT
  value: {{ mul .Values.uploadLimitMb 1048576 | int64 | quote }}
- name: DB_POOL_MAX
  value: {{ .Values.mcp.dbPoolMax | quote }}
{{- include "archimate.plainEnv" .Values.mcp.env }}
{{- end -}}

{{- define "archimate.env.graphWorker" -}}
{{ include "archimate.env.common" . }}
{{ include "archimate.env.graph" . }}
- name: GRAPH_WORKER_PORT
  value: {{ .Values.graphWorker.port | quote }}
- name: DB_POOL_MAX
  value: {{ .Values.graphWorker.dbPoolMax | quote }}
{{- include "archimate.plainEnv" .Values.graphWorker.env }}
{{- end -}}

{{- define "archimate.env.migrate" -}}
- name: NODE_ENV
  value: production
- name: MIGRATION_LOCK_TIMEOUT_S
  value: {{ .Values.migrations.lockTimeoutSeconds | quote }}
{{- if or .Values.migrations.directUrl .Values.secrets.migrationDatabaseUrl }}
{{ include "archimate.secretEnv" (dict "root" . "name" "DATABASE_URL" "key" "DATABASE_MIGRATION_URL") }}
{{- else }}
{{ include "archimate.secretEnv" (dict "root" . "name" "DATABASE_URL") }}
{{- end }}
{{- end -}}
