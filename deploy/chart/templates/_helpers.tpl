{{/* The chart's name, cut to a label value. */}}
{{- define "c5c3-operator.name" -}}
{{- .Chart.Name | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
The objects' base name: the release name when it already holds the chart's
name (a release "c5c3-operator" gives "c5c3-operator", as deploy/ names them),
else "<release>-c5c3-operator".
*/}}
{{- define "c5c3-operator.fullname" -}}
{{- if contains .Chart.Name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}

{{- define "c5c3-operator.selectorLabels" -}}
app.kubernetes.io/name: {{ include "c5c3-operator.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "c5c3-operator.labels" -}}
{{ include "c5c3-operator.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "c5c3-operator.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "c5c3-operator.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- required "serviceAccount.name is required when serviceAccount.create is false" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "c5c3-operator.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{/* A ClusterRole with its binding to the operator's ServiceAccount: dict ctx, name, rules. */}}
{{- define "c5c3-operator.clusterRole" -}}
{{- $ctx := .ctx }}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: {{ .name }}
  labels:
    {{- include "c5c3-operator.labels" $ctx | nindent 4 }}
rules:
  {{- toYaml .rules | nindent 2 }}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: {{ .name }}
  labels:
    {{- include "c5c3-operator.labels" $ctx | nindent 4 }}
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: {{ .name }}
subjects:
- kind: ServiceAccount
  name: {{ include "c5c3-operator.serviceAccountName" $ctx }}
  namespace: {{ $ctx.Release.Namespace }}
{{- end }}
