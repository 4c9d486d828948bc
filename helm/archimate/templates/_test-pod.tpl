{{/* A `helm test` pod: the control image runs a short Node script against the control Service. */}}
{{- define "archimate.testPod" -}}
{{- $root := .root -}}
{{- $self := dict "root" $root "component" "test" -}}
apiVersion: v1
kind: Pod
metadata:
  name: {{ printf "%s-test-%s" (include "archimate.fullname" $root) .name }}
  labels:
    {{- include "archimate.labels" $self | nindent 4 }}
  annotations:
    helm.sh/hook: test
    helm.sh/hook-delete-policy: before-hook-creation
spec:
  restartPolicy: Never
  automountServiceAccountToken: false
  enableServiceLinks: false
  securityContext:
    {{- include "archimate.podSecurityContext" $self | nindent 4 }}
  {{- with (include "archimate.podPlacement" (dict "root" $root "component" "test" "svc" dict) | trim) }}{{ . | nindent 2 }}{{ end }}
  containers:
    - name: {{ .name }}
      image: {{ include "archimate.image" (dict "root" $root "component" "control") | quote }}
      imagePullPolicy: {{ $root.Values.image.pullPolicy }}
      env:
        - name: CONTROL_URL
          value: {{ printf "http://%s:%v" (include "archimate.componentName" (dict "root" $root "component" "control")) $root.Values.control.port | quote }}
        {{- with .env }}
        {{- . | nindent 8 }}
        {{- end }}
      command: ["node", "--input-type=module", "-e", {{ .script | quote }}]
      resources:
        requests: { cpu: 10m, memory: 64Mi }
        limits: { memory: 128Mi }
      securityContext:
        {{- include "archimate.containerSecurityContext" $self | nindent 8 }}
{{- end -}}
