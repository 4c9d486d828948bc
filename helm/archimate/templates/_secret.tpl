{{/*
The Secret the chart manages when secrets.existingSecret is empty. Values left empty that the chart can invent
(the two JWT secrets and the first admin's password) are generated once and kept on upgrades (read back with lookup).
*/}}
{{- define "archimate.secretData" -}}
{{- $s := .Values.secrets -}}
{{- $existing := dict -}}
{{- with (lookup "v1" "Secret" .Release.Namespace (include "archimate.secretName" .)) -}}
{{- $existing = .data | default dict -}}
{{- end -}}
{{- $data := dict -}}
{{- $_ := set $data "DATABASE_URL" (required "secrets.databaseUrl is required (postgres://user:password@host:5432/db), or set secrets.existingSecret" $s.databaseUrl) -}}
{{- if .Values.neo4j.url -}}
{{- $_ := set $data "NEO4J_PASSWORD" (required "secrets.neo4jPassword is required with neo4j.url, or set secrets.existingSecret" $s.neo4jPassword) -}}
{{- if .Values.neo4j.readOnlyUser -}}
{{- $_ := set $data "NEO4J_READONLY_PASSWORD" (required "secrets.neo4jReadOnlyPassword is required with neo4j.readOnlyUser, or set secrets.existingSecret" $s.neo4jReadOnlyPassword) -}}
{{- end -}}
{{- end -}}
{{- /* The inter-service token key pair (Ed25519): given, kept from the last install, or generated (the public half as a certificate). */ -}}
{{- if $s.serviceTokenPrivateKey -}}
{{- $_ := set $data "TENANT_JWT_PRIVATE_KEY" $s.serviceTokenPrivateKey -}}
{{- $_ := set $data "TENANT_JWT_PUBLIC_KEY" (required "secrets.serviceTokenPublicKey is required with secrets.serviceTokenPrivateKey" $s.serviceTokenPublicKey) -}}
{{- else if and (hasKey $existing "TENANT_JWT_PRIVATE_KEY") (hasKey $existing "TENANT_JWT_PUBLIC_KEY") -}}
{{- $_ := set $data "TENANT_JWT_PRIVATE_KEY" (index $existing "TENANT_JWT_PRIVATE_KEY" | b64dec) -}}
{{- $_ := set $data "TENANT_JWT_PUBLIC_KEY" (index $existing "TENANT_JWT_PUBLIC_KEY" | b64dec) -}}
{{- else -}}
{{- $key := genPrivateKey "ed25519" -}}
{{- $cert := genSelfSignedCertWithKey "archimate-service-tokens" nil nil 36500 $key -}}
{{- $_ := set $data "TENANT_JWT_PRIVATE_KEY" $key -}}
{{- $_ := set $data "TENANT_JWT_PUBLIC_KEY" $cert.Cert -}}
{{- end -}}
{{- with $s.serviceTokenPreviousPublicKey }}{{ $_ := set $data "TENANT_JWT_PUBLIC_KEY_PREVIOUS" . }}{{ end -}}
{{- $generated := dict "AUTH_JWT_SECRET" $s.authJwtSecret "SEED_ADMIN_PASSWORD" $s.adminPassword -}}
{{- if eq .Values.authMode "session" }}{{ $_ := set $generated "SESSION_SECRET" $s.sessionSecret }}{{ end -}}
{{- range $key, $given := $generated -}}
{{- if $given -}}
{{- $_ := set $data $key $given -}}
{{- else if hasKey $existing $key -}}
{{- $_ := set $data $key (index $existing $key | b64dec) -}}
{{- else -}}
{{- $_ := set $data $key (randAlphaNum 48) -}}
{{- end -}}
{{- end -}}
{{- with $s.migrationDatabaseUrl }}{{ $_ := set $data "DATABASE_MIGRATION_URL" . }}{{ end -}}
{{- with $s.smtpUrl }}{{ $_ := set $data "SMTP_URL" . }}{{ end -}}
{{- if or .Values.demoSeed (eq .Values.authMode "session") -}}
{{- $seeds := dict "SEED_USER_PASSWORD" $s.seedPasswords.user "SEED_CONTRIB_PASSWORD" $s.seedPasswords.contrib "SEED_ARCHI_PASSWORD" $s.seedPasswords.archi -}}
{{- if .Values.demoSeed }}{{ $_ := set $seeds "SEED_OPEN_PASSWORD" $s.seedPasswords.open }}{{ end -}}
{{- range $key, $given := $seeds -}}
{{- $_ := set $data $key (required (printf "secrets.seedPasswords: %s is required with demoSeed or authMode=session" $key) $given) -}}
{{- end -}}
{{- end -}}
{{- if .Values.sso.enabled -}}
{{- $_ := set $data "IDP_CLIENT_SECRET_WEB" (required "secrets.idpClientSecretWeb is required with sso.enabled" $s.idpClientSecretWeb) -}}
{{- $_ := set $data "IDP_ADMIN_CLIENT_SECRET" (required "secrets.idpAdminClientSecret is required with sso.enabled" $s.idpAdminClientSecret) -}}
{{- end -}}
{{- toYaml $data -}}
{{- end -}}

{{/* Rolls the pods when the Secret's content changes (also an existingSecret, read from the cluster at install/upgrade). */}}
{{- define "archimate.secretChecksum" -}}
{{- if .Values.secrets.existingSecret -}}
{{- $found := lookup "v1" "Secret" .Release.Namespace .Values.secrets.existingSecret -}}
{{- toYaml (($found | default dict).data | default dict) | sha256sum -}}
{{- else -}}
{{- include "archimate.secretData" . | sha256sum -}}
{{- end -}}
{{- end -}}
