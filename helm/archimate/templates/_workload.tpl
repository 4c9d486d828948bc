{{/*
One Deployment (+ Service, PodDisruptionBudget, HorizontalPodAutoscaler) per service, all from this template.
Call with: dict "root" $ "component" "tenant" "svc" .Values.tenant "env" "archimate.env.tenant"
*/}}

{{- define "archimate.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: 1000
runAsGroup: 1000
fsGroup: 1000
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{- define "archimate.containerSecurityContext" -}}
allowPrivilegeEscalation: false
privileged: false
readOnlyRootFilesystem: true
runAsNonRoot: true
runAsUser: 1000
runAsGroup: 1000
capabilities:
  drop: [ALL]
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{/* Scheduling and pulling settings of a pod: the service's own values, else the chart-wide ones. */}}
{{- define "archimate.podPlacement" -}}
{{- $root := .root -}}
{{- with $root.Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with (.svc.nodeSelector | default $root.Values.nodeSelector) }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with (.svc.tolerations | default $root.Values.tolerations) }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with (.svc.affinity | default $root.Values.affinity) }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .svc.topologySpreadConstraints }}
topologySpreadConstraints:
  {{- range . }}
  - {{ toYaml (merge (dict "labelSelector" (dict "matchLabels" (include "archimate.selectorLabels" $ | fromYaml))) .) | nindent 4 | trim }}
  {{- end }}
{{- end }}
{{- end -}}

{{- define "archimate.deployment" -}}
{{- $root := .root -}}
{{- $svc := .svc -}}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "archimate.componentName" . }}
  labels:
    {{- include "archimate.labels" . | nindent 4 }}
spec:
  {{- if not $svc.autoscaling.enabled }}
  replicas: {{ $svc.replicas }}
  {{- end }}
  revisionHistoryLimit: 5
  selector:
    matchLabels:
      {{- include "archimate.selectorLabels" . | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "archimate.labels" . | nindent 8 }}
      annotations:
        checksum/secret: {{ include "archimate.secretChecksum" $root }}
        {{- with $svc.podAnnotations }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
    spec:
      serviceAccountName: {{ include "archimate.serviceAccountName" $root }}
      automountServiceAccountToken: false
      enableServiceLinks: false
      securityContext:
        {{- include "archimate.podSecurityContext" . | nindent 8 }}
      terminationGracePeriodSeconds: {{ include "archimate.terminationGracePeriodSeconds" $root }}
      {{- with (include "archimate.podPlacement" . | trim) }}{{ . | nindent 6 }}{{ end }}
      containers:
        - name: {{ .component }}
          image: {{ include "archimate.image" . | quote }}
          imagePullPolicy: {{ $root.Values.image.pullPolicy }}
          env:
            {{- include .env $root | nindent 12 }}
          {{- if $svc.port }}
          ports:
            - name: http
              containerPort: {{ $svc.port }}
              protocol: TCP
            {{- if ne .component "graph-worker" }}
            - name: metrics
              containerPort: {{ $root.Values.metrics.port }}
              protocol: TCP
            {{- end }}
          # Liveness asks only whether the process answers; readiness and start-up follow /api/health, so an outage
          # of a dependency takes pods out of rotation without restarting them.
          startupProbe:
            httpGet: { path: /api/health, port: http }
            periodSeconds: 5
            failureThreshold: {{ $root.Values.probes.startupFailureThreshold }}
          readinessProbe:
            httpGet: { path: /api/health, port: http }
            periodSeconds: 10
            timeoutSeconds: 5
            failureThreshold: 3
          livenessProbe:
            tcpSocket: { port: http }
            periodSeconds: 30
            timeoutSeconds: 5
            failureThreshold: 5
          {{- end }}
          lifecycle:
            # Endpoints are removed asynchronously: keep serving a moment so that no new request lands on a stopping pod.
            preStop:
              exec:
                command: ["sleep", "{{ $root.Values.preStopSeconds }}"]
          resources:
            {{- toYaml $svc.resources | nindent 12 }}
          securityContext:
            {{- include "archimate.containerSecurityContext" . | nindent 12 }}
          volumeMounts:
            - name: tmp
              mountPath: /tmp
      volumes:
        - name: tmp
          emptyDir:
            sizeLimit: {{ $root.Values.tmpSizeLimit }}
{{- end -}}

{{- define "archimate.service" -}}
apiVersion: v1
kind: Service
metadata:
  name: {{ include "archimate.componentName" . }}
  labels:
    {{- include "archimate.labels" . | nindent 4 }}
spec:
  type: ClusterIP
  selector:
    {{- include "archimate.selectorLabels" . | nindent 4 }}
  ports:
    {{- if eq .component "graph-worker" }}
    # The graph-worker has no traffic: its one port serves /api/health and /metrics (Prometheus scrapes it).
    - name: metrics
      port: {{ .svc.port }}
      targetPort: http
      protocol: TCP
    {{- else }}
    - name: http
      port: {{ .svc.port }}
      targetPort: http
      protocol: TCP
    - name: metrics
      port: {{ .root.Values.metrics.port }}
      targetPort: metrics
      protocol: TCP
    {{- end }}
{{- end -}}

{{- define "archimate.pdb" -}}
{{- if .svc.pdb.enabled }}
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ include "archimate.componentName" . }}
  labels:
    {{- include "archimate.labels" . | nindent 4 }}
spec:
  {{- if hasKey .svc.pdb "maxUnavailable" }}
  maxUnavailable: {{ .svc.pdb.maxUnavailable }}
  {{- else }}
  minAvailable: {{ .svc.pdb.minAvailable | default 1 }}
  {{- end }}
  selector:
    matchLabels:
      {{- include "archimate.selectorLabels" . | nindent 6 }}
{{- end }}
{{- end -}}

{{- define "archimate.hpa" -}}
{{- $a := .svc.autoscaling -}}
{{- if $a.enabled }}
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: {{ include "archimate.componentName" . }}
  labels:
    {{- include "archimate.labels" . | nindent 4 }}
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: {{ include "archimate.componentName" . }}
  minReplicas: {{ $a.minReplicas }}
  maxReplicas: {{ $a.maxReplicas }}
  metrics:
    - type: Resource
      resource:
        name: cpu
        target:
          type: Utilization
          averageUtilization: {{ $a.targetCPUUtilizationPercentage }}
    {{- with $a.targetMemoryUtilizationPercentage }}
    - type: Resource
      resource:
        name: memory
        target:
          type: Utilization
          averageUtilization: {{ . }}
    {{- end }}
{{- end }}
{{- end -}}

{{/* Deployment, and with a port a Service; PDB and HPA when their values switch them on. */}}
{{- define "archimate.workload" -}}
{{ include "archimate.deployment" . }}
{{- if .svc.port }}
---
{{ include "archimate.service" . }}
{{- end }}
{{- with (include "archimate.pdb" . | trim) }}
---
{{ . }}
{{- end }}
{{- with (include "archimate.hpa" . | trim) }}
---
{{ . }}
{{- end }}
{{- end -}}
