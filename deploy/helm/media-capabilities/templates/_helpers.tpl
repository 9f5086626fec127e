{{/*
The labels every object carries. part-of always; Helm's release labels unless the chart renders
the plain manifests of deploy/ (tools/render-deploy), which no release owns.
*/}}
{{- define "mc.labels" -}}
app.kubernetes.io/part-of: media-capabilities
{{- if not .Values.plainManifests }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/instance: {{ .Release.Name }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{- end }}
{{- end -}}

{{/* The release's namespace: the workers' and the pool's. */}}
{{- define "mc.namespace" -}}
{{ .Release.Namespace }}
{{- end -}}

{{/* The agent's namespace. */}}
{{- define "mc.driverNamespace" -}}
{{ .Values.driver.namespace }}
{{- end -}}

{{/* The agent's and the pool's image, by the chart's version unless a tag is given. */}}
{{- define "mc.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}

{{- define "mc.workerImage" -}}
{{ .Values.worker.image.repository }}:{{ .Values.worker.image.tag | default .Chart.AppVersion }}
{{- end -}}

{{/*
The resource.k8s.io version: the value when set, else the newest the cluster serves. Without a
cluster (helm template), Helm's default capabilities list no resource.k8s.io at all, and v1 is
assumed: the version of every Kubernetes release this chart supports (kubeVersion >= 1.34).
*/}}
{{- define "mc.resourceApiVersion" -}}
{{- if .Values.resourceApiVersion -}}
resource.k8s.io/{{ .Values.resourceApiVersion }}
{{- else if .Capabilities.APIVersions.Has "resource.k8s.io/v1" -}}
resource.k8s.io/v1
{{- else if .Capabilities.APIVersions.Has "resource.k8s.io/v1beta2" -}}
resource.k8s.io/v1beta2
{{- else -}}
resource.k8s.io/v1
{{- end -}}
{{- end -}}

{{/*
resource.k8s.io/v1beta1 claims have no `exactly`: the request's fields sit on the request itself.
This chart supports v1 and v1beta2, which both nest them under `exactly`.
*/}}

{{/* The control API's TLS mode, with auto resolved. */}}
{{- define "mc.tlsMode" -}}
{{- $mode := .Values.control.tls.mode -}}
{{- if eq $mode "auto" -}}
{{- if .Capabilities.APIVersions.Has "cert-manager.io/v1" -}}certManager{{- else -}}secret{{- end -}}
{{- else -}}
{{ $mode }}
{{- end -}}
{{- end -}}

{{/* The workers' StatefulSet and headless Service. */}}
{{- define "mc.workerName" -}}peertube-worker{{- end -}}

{{/* The claim template of the workers' GPU class. */}}
{{- define "mc.workerClaimTemplate" -}}
{{ include "mc.claimTemplateName" (dict "root" . "class" .Values.worker.gpuClass) }}
{{- end -}}

{{/* A claim template's name: the VA-API one's is fixed; an NVIDIA one's ends in its spec's digest. */}}
{{- define "mc.claimTemplateName" -}}
{{- if eq .class "vaapi" -}}
peertube-worker-vaapi
{{- else -}}
peertube-worker-{{ .class }}-{{ include "mc.nvidiaClaimSpec" . | sha256sum | trunc 8 }}
{{- end -}}
{{- end -}}

{{/* The spec of an NVIDIA class's claim template (root, class). */}}
{{- define "mc.nvidiaClaimSpec" -}}
{{- $v := .root.Values -}}
spec:
  devices:
    requests:
    - name: encoder
      exactly:
        deviceClassName: media-capabilities
        selectors:
        - cel:
            expression: >-
              device.attributes["media.liken.sh"].api == "nvidia" &&
              device.attributes["media.liken.sh"].encodeH264 &&
              {{- if eq .class "nvidia-geforce" }}
              has(device.capacity["media.liken.sh"].encodeSessions)
              {{- else }}
              !has(device.capacity["media.liken.sh"].encodeSessions)
              {{- end }}
        {{- if eq .class "nvidia-geforce" }}
        # As many sessions as the worker opens at once (its PT_WORKER_SESSIONS_CAP).
        capacity:
          requests:
            encodeSessions: {{ $v.worker.encodeSessions | quote }}
        {{- end }}
    {{- if eq $v.worker.nvidia.devices "dra" }}
    - name: nvidia-gpu
      exactly:
        deviceClassName: {{ $v.worker.nvidia.deviceClassName }}
    constraints:
    - requests: ["encoder", "nvidia-gpu"]
      matchAttribute: resource.kubernetes.io/pciBusID
    {{- end }}
{{- end -}}

{{/* True (non-empty) when the workers' pods run on NVIDIA GPUs. */}}
{{- define "mc.workerIsNvidia" -}}
{{- if hasPrefix "nvidia" .Values.worker.gpuClass }}true{{ end -}}
{{- end -}}

{{/*
The egress rule to the API server, for the agent and the pool: the owner's peers, else anywhere
but link-local addresses (the cloud's metadata service).
*/}}
{{- define "mc.apiServerEgress" -}}
- to:
{{- if .Values.networkPolicy.apiServer }}
{{ toYaml .Values.networkPolicy.apiServer | indent 2 }}
{{- else }}
  - ipBlock:
      cidr: 0.0.0.0/0
      except: [169.254.0.0/16]
  - ipBlock:
      cidr: ::/0
      except: ["fe80::/10", "fd00:ec2::254/128"]
{{- end }}
  ports:
  - protocol: TCP
    port: 443
  - protocol: TCP
    port: 6443
{{- end -}}

{{/* The ingress rule for scrapers of the named namespaces, on PORT. */}}
{{- define "mc.scrapersIngress" -}}
- from:
  - namespaceSelector:
      matchExpressions:
      - key: kubernetes.io/metadata.name
        operator: In
        values: {{ toJson .root.Values.networkPolicy.scrapeNamespaces }}
    podSelector:
      matchLabels:
        media-capabilities.io/scraper: "true"
  ports:
  - protocol: TCP
    port: {{ .port }}
{{- end -}}

{{/* The worker's extra settings, and NVIDIA's container toolkit's variables where it is used. */}}
{{- define "mc.workerEnv" -}}
{{- if and (include "mc.workerIsNvidia" .) (eq .Values.worker.nvidia.devices "runtimeClass") }}
- name: NVIDIA_VISIBLE_DEVICES
  value: all
- name: NVIDIA_DRIVER_CAPABILITIES
  value: {{ .Values.worker.nvidia.driverCapabilities | quote }}
{{- end }}
{{- range $name, $value := .Values.worker.env }}
- name: {{ $name }}
  value: {{ $value | toString | quote }}
{{- end }}
{{- end -}}

{{/*
PeerTube's peers for the workers' and the pool's egress. The plain manifests of deploy/ ship
192.0.2.1, an address reserved for documentation, so that nothing talks to PeerTube until its
owner names it in an overlay; the chart refuses to render without it (validation.yaml).
*/}}
{{- define "mc.peertubePeers" -}}
{{- if .Values.networkPolicy.peertube -}}
{{ toYaml .Values.networkPolicy.peertube }}
{{- else -}}
- ipBlock:
    cidr: 192.0.2.1/32
{{- end -}}
{{- end -}}
