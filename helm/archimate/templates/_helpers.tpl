{{/* Names and labels. Every selector carries app.kubernetes.io/instance, so two releases in one namespace never select each other's pods. */}}

{{- define "archimate.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "archimate.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* dict "root" $ "component" "control" */}}
{{- define "archimate.componentName" -}}
{{- printf "%s-%s" (include "archimate.fullname" .root) .component -}}
{{- end -}}

{{- define "archimate.selectorLabels" -}}
app.kubernetes.io/name: {{ include "archimate.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "archimate.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version | replace "+" "_" }}
{{ include "archimate.selectorLabels" . }}
app.kubernetes.io/version: {{ .root.Values.image.tag | default .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/part-of: archimate
{{- end -}}

{{- define "archimate.image" -}}
{{- $image := .root.Values.image -}}
{{- printf "%s-%s:%s" $image.repository .component ($image.tag | default .root.Chart.AppVersion) -}}
{{- end -}}

{{- define "archimate.secretName" -}}
{{- .Values.secrets.existingSecret | default (printf "%s-secrets" (include "archimate.fullname" .)) -}}
{{- end -}}

{{- define "archimate.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- .Values.serviceAccount.name | default (include "archimate.fullname" .) -}}
{{- else -}}
{{- .Values.serviceAccount.name | default "default" -}}
{{- end -}}
{{- end -}}

{{/* The browser-facing address: publicUrl when given, otherwise built from the ingress host. */}}
{{- define "archimate.publicUrl" -}}
{{- if .Values.publicUrl -}}
{{- .Values.publicUrl | trimSuffix "/" -}}
{{- else if and .Values.ingress.enabled .Values.ingress.host -}}
{{- printf "%s://%s" (ternary "https" "http" (or .Values.ingress.tls.enabled .Values.ingress.externalTls)) .Values.ingress.host -}}
{{- else -}}
{{- fail "set ingress.host (the site's host name) or publicUrl: invitation links and the sign-in redirect are built from it" -}}
{{- end -}}
{{- end -}}

{{/*
The stop of a pod in time order: preStop pause, SIGTERM, drain bound (requests and the rebuild in hand), close bound
(after which the process exits by itself), and a margin before Kubernetes would send SIGKILL.
*/}}
{{- define "archimate.terminationGracePeriodSeconds" -}}
{{- add .Values.preStopSeconds .Values.drainSeconds .Values.closeSeconds 5 -}}
{{- end -}}

{{/* X-Forwarded-For entries control believes: one per proxy in front of it (the ingress controller). */}}
{{- define "archimate.trustProxyHops" -}}
{{- if kindIs "float64" .Values.control.trustProxyHops -}}
{{- .Values.control.trustProxyHops | int -}}
{{- else if kindIs "int64" .Values.control.trustProxyHops -}}
{{- .Values.control.trustProxyHops -}}
{{- else -}}
{{- ternary 1 0 .Values.ingress.enabled -}}
{{- end -}}
{{- end -}}
