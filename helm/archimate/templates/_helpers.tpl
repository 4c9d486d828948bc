{{- define "archimate.env" -}}
- name: NODE_ENV
  value: production
- name: DATABASE_URL
  valueFrom: { secretKeyRef: { name: {{ .Values.database.urlSecret.name }}, key: {{ .Values.database.urlSecret.key }} } }
- name: TENANT_JWT_SECRET
  valueFrom: { secretKeyRef: { name: {{ .Values.secrets.name }}, key: TENANT_JWT_SECRET } }
- name: NATS_URL
  value: {{ .Values.nats.url | quote }}
- name: NEO4J_URL
  value: {{ .Values.neo4j.url | quote }}
- name: NEO4J_USER
  value: {{ .Values.neo4j.user | quote }}
- name: NEO4J_PASSWORD
  valueFrom: { secretKeyRef: { name: {{ .Values.neo4j.passwordSecret.name }}, key: {{ .Values.neo4j.passwordSecret.key }} } }
- name: TENANT_URL
  value: "http://{{ .Release.Name }}-tenant:{{ .Values.tenant.port }}"
- name: MCP_URL
  value: "http://{{ .Release.Name }}-mcp:{{ .Values.mcp.port }}"
{{- end -}}

{{- define "archimate.probes" -}}
readinessProbe:
  httpGet: { path: /api/health, port: http }
  periodSeconds: 10
# Readiness follows /api/health (503 while a dependency is down); liveness only asks whether the process answers,
# so an outage of PostgreSQL, NATS or Neo4j takes pods out of rotation without restarting them.
livenessProbe:
  tcpSocket: { port: http }
  periodSeconds: 30
  failureThreshold: 5
{{- end -}}
