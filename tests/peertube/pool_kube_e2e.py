#!/usr/bin/env python3
"""The pool manager in Kubernetes mode, end to end on real parts.

The real PeerTube server (real PostgreSQL and Redis) and the real upstream control plane of
tests/cluster (etcd, kube-apiserver, kube-scheduler, kube-controller-manager). deploy/worker's
StatefulSet (a test copy: its state volume an emptyDir, its port and PeerTube's address those
of this machine) and its ResourceClaimTemplate through the project's DRA classes, deploy/pool's
ServiceAccount and Role, and `media-capabilities pool run` with `control: kubernetes` on a
kubeconfig that holds a token of that ServiceAccount, so that the Role is all it may do.

Two Nodes each hold one fake NVIDIA GPU of tests/fakenv, published as the agent would
publish it (the devices `probe --output json` prints for it). The GPU is an Ampere GeForce:
the recorded Ada GeForce with its AV1 encoder taken out, as NVENC of Ampere states it, with the
consumer driver's cap of 8 encode sessions. It encodes H.264 and no AV1.

The only fake is the kubelet's container runtime: no kubelet can run here. The test plays
the kubelet for the StatefulSet's pods, and only that. For each pod the real scheduler has
bound, its claim allocated to a device of a Node, it runs the pod's init container's
registration (`worker register`, with the pod's environment) and then starts that pod's worker
as a local process (`media-capabilities worker run` with no registration token and its own
official runner, on the fake GPU of
that Node, listening on a loopback address of its own, 127.0.0.N, at the pod's port) and
writes the pod's status (podIP 127.0.0.N, phase Running, Ready) through the status
subresource with the admin's credentials. When a pod gets a deletionTimestamp, it sends the
worker SIGTERM (the worker drains first), waits for it to exit, and deletes the pod with grace
period 0. The GPU model's self-test runs once before any pod, and each pod's worker finds its
report in its state, as pool_e2e's workers share one. Everything else is the real thing: the
StatefulSet controller makes the pods, the resourceclaim controller their claims, the
scheduler allocates them, and the manager scales and talks to the workers by pod IP, their
control API over TLS with each pod's own token.

What it proves, each with a check that can fail:
  1. the manager scales the StatefulSet from zero (COLD to SPARE through the scale
     subresource) under its Role alone; the scheduler gives each worker pod a GPU that
     encodes H.264, consuming its encodeSessions; the manager reaches each worker by pod IP;
  2. a burst of uploads: promotions one at a time, every job completes on the pool's runners
     with hardware evidence and none on libx264; once the queue is empty the workers drain,
     and the StatefulSet is scaled down only for idle, drained workers, back to zero; no job
     failed or was retried;
  3. a second class of workers, whose claim asks for an AV1 encoder, managed by its own
     manager (deploy/pool's Role naming its StatefulSet): its pod stays Pending, and its
     manager reports the class unservable with the scheduler's words, in `pool status -o json`
     and in its log;
  4. an Event on the StatefulSet for every scale, promotion and demotion.

    pool_kube_e2e.py --build BUILD --cache CACHE
"""

import json
import os
import re
import shutil
import ssl
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import harness
import pool_e2e
from harness import RECORD, REPO, Failure, Worker, check, make_clip, wait_for

NAMESPACE = "peertube-workers"
WORKERS = "peertube-worker"
AV1_WORKERS = "peertube-worker-av1"
NODES = ("gpu-node-a", "gpu-node-b")
# The workers' status and control API (deploy/worker's --listen and --control-listen, 9464 and
# 9466 there): ports that nothing on the machine listens on, the same on each pod's loopback
# address.
WORKER_PORT, CONTROL_PORT = harness.free_ports(2)
# One worker per GPU: the shipped GeForce claim pairs the encoder with NVIDIA's device of
# the same GPU, which one pod holds; each of the two nodes has one GPU.
MAX_REPLICAS = 2
# The clips are long enough that the queue's pressure outlasts two wakes on a machine faster
# than this one: with 6 s clips a quiet run here finished the burst with two pods, at the edge
# of what the checks below ask (two workers woken and promoted one at a time).
UPLOADS, CLIP_SECONDS = 3, 12
# pool_e2e's short windows (a 3 s cycle, promotions 9 s apart, a demotion after 20 s of low
# pressure and 15 s idle), with min_active 0, since an empty queue needs no worker, and the wake
# rules with small numbers: one more replica once the pressure has held 6 s and no SPARE worker
# is left, two boots at once at most, and the SPARE pod of the highest ordinal given back after
# 10 s.
# The checks below follow the design's rules (promotions one cycle apart, wakes on sustained
# pressure), which the profile "design" keeps; pool_e2e runs the default, work-aware one.
POLICY = (
    pool_e2e.POLICY.replace("    min_active: 1\n", "    min_active: 0\n").replace(
        "policy:\n", "policy:\n  profile: design\n"
    )
    + """  wake:
    pressure: 0.5
    sustain: 6s
    max_concurrent: 2
    spacing: 6s
    max_per_day: 50
    boot_timeout: 300s
    sleep_after: 10s
"""
)
# Which policy action each Event reason records (src/pool/kube/kubernetes_channel.cpp).
EVENT_OF_ACTION = {
    "enable": "WorkerEnabled",
    "drain": "WorkerDraining",
    "wake": "ScaledUp",
    "suspend": "ScaledDown",
    "set-classes": "WorkerClassesSet",
    "probe": "WorkerProbed",
}


class Cluster:
    """The real control plane in ROOT/cluster, and the admin's side of its API."""

    def __init__(self, root):
        self.dir = os.path.join(root, "cluster")
        self.started = False
        subprocess.run(
            [os.path.join(REPO, "tests/cluster/start-control-plane"), self.dir],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        self.started = True
        self.env = {}
        with open(os.path.join(self.dir, "cluster.env")) as f:
            for line in f:
                key, equals, value = line.strip().partition("=")
                if equals and not key.startswith("#"):
                    self.env[key] = value.strip("'\"")
        self.tls = ssl.create_default_context(cafile=self.env["CA_FILE"])
        with open(os.path.join(self.dir, "admin.kubeconfig")) as f:
            self.admin_token = re.search(r"token:\s*'?([^'\s]+)", f.read()).group(1)

    def call(self, method, path, body=None, content_type="application/json", token=None):
        """One request; the answer's status and its JSON body."""
        request = urllib.request.Request(
            self.env["APISERVER_URL"] + path,
            method=method,
            data=json.dumps(body).encode() if body is not None else None,
            headers={
                "Authorization": "Bearer " + (token or self.admin_token),
                "Content-Type": content_type,
                "Accept": "application/json",
            },
        )
        try:
            with urllib.request.urlopen(request, timeout=30, context=self.tls) as response:
                return response.status, json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")

    def get(self, path):
        status, body = self.call("GET", path)
        if status != 200:
            raise Failure(f"GET {path}: {status} {body.get('message')}")
        return body

    def kubectl(self, *words, stdin=None):
        run = subprocess.run(
            [self.env["KUBECTL"], "--kubeconfig", self.env["ADMIN_KUBECONFIG"], *words],
            input=stdin,
            capture_output=True,
            text=True,
            timeout=60,
        )
        if run.returncode != 0:
            raise Failure(f"kubectl {words[0]}: {run.stderr.strip()}")
        return run.stdout

    def objects(self, path):
        """The objects of a YAML file of the repository, as kubectl reads them."""
        text = self.kubectl(
            "create", "--dry-run=client", "-o", "json", "-f", os.path.join(REPO, path)
        )
        # One JSON object per document, one after the other.
        decoder, objects, at = json.JSONDecoder(), [], 0
        while text[at:].strip():
            read, at = decoder.raw_decode(text, at + len(text[at:]) - len(text[at:].lstrip()))
            objects.extend(read["items"] if read.get("kind") == "List" else [read])
        return objects

    def apply(self, *objects):
        self.kubectl(
            "apply",
            "--server-side",
            "--force-conflicts",
            "-f",
            "-",
            stdin=json.dumps({"apiVersion": "v1", "kind": "List", "items": list(objects)}),
        )

    def token_kubeconfig(self, service_account, path):
        """A kubeconfig holding a token of SERVICE_ACCOUNT (the TokenRequest API, as the kubelet
        mounts one into a pod), mode 0600: the token is in no command line and no log."""
        token = self.kubectl(
            "create", "token", service_account, "-n", NAMESPACE, "--duration=2h"
        ).strip()
        with open(path, "w") as f:
            f.write(
                "apiVersion: v1\nkind: Config\n"
                f"clusters: [{{name: test, cluster: {{server: '{self.env['APISERVER_URL']}', "
                f"certificate-authority: '{self.env['CA_FILE']}'}}}}]\n"
                f"users: [{{name: pool, user: {{token: '{token}'}}}}]\n"
                "contexts: [{name: pool, context: {cluster: test, user: pool}}]\n"
                "current-context: pool\n"
            )
        os.chmod(path, 0o600)
        return token

    def replicas(self, statefulset):
        return self.get(f"/apis/apps/v1/namespaces/{NAMESPACE}/statefulsets/{statefulset}/scale")[
            "spec"
        ].get("replicas", 0)

    def pods(self, statefulset):
        selector = urllib.parse.quote("app.kubernetes.io/name=" + statefulset)
        return self.get(f"/api/v1/namespaces/{NAMESPACE}/pods?labelSelector={selector}")["items"]

    def stop(self):
        if self.started:
            subprocess.run(
                [os.path.join(REPO, "tests/cluster/stop-control-plane"), self.dir],
                stdout=subprocess.DEVNULL,
            )


def ampere_geforce(root):
    """The fake GPU of this cluster: the recorded Ada GeForce less its AV1 encoder."""
    with open(RECORD) as f:
        record = json.load(f)
    record["source"] = (
        "tests/peertube/pool_kube_e2e.py: ada-geforce-rtx4090.json with the AV1 "
        "encoder taken out, which is what NVENC of an Ampere GeForce (GA102) states; "
        "it still decodes AV1. " + record["source"]
    )
    record["identity"]["device"] = "2204"
    record["report"]["name"] = "NVIDIA GeForce RTX 3090"
    record["report"]["computeCapability"] = "8.6"
    encoder = record["report"]["encoder"]
    encoder["codecs"] = [c for c in encoder["codecs"] if c["codec"] != "AV1"]
    path = os.path.join(root, "ampere-geforce.json")
    with open(path, "w") as f:
        json.dump(record, f)
    return path


def seed_self_test(args, root, record, argv_log):
    """The self-test of the fake GPU model, run once before any pod, with room for this
    busy machine (a step may take 120 s): each pod's worker finds its report in its state, as
    pool_e2e's workers do, and serves at once instead of proving the same GPU model again
    while the others encode. Its directory, with the report."""
    state = os.path.join(root, "self-test")
    env = dict(
        os.environ, MEDIA_CAP_BUILD=args.build, ARGV_LOG=argv_log, REAL_FFMPEG="/usr/bin/ffmpeg"
    )
    run = subprocess.run(
        [
            os.path.join(REPO, "tests/fakenv/run-on"),
            record,
            "--",
            os.path.join(args.build, "media-capabilities"),
            "worker",
            "self-test",
            "--gpu",
            harness.GPU,
            "--state-dir",
            state,
            *harness.WORKER_SETTINGS,
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
    )
    passed = run.returncode == 0 and any(f.startswith("self-test-") for f in os.listdir(state))
    check(
        passed,
        "the fake GPU passed its self-test"
        + ("" if passed else f": {(run.stdout + run.stderr).strip()[-600:]}"),
    )
    return state


def add_gpu_node(cluster, args, node, record):
    """A Node with one GPU, and the slices the agents would publish for it: media.liken.sh's
    devices as the probe states them, liken's render node of the same PCI address, and the
    GPU as NVIDIA's DRA driver would publish it."""
    subprocess.run(
        [os.path.join(REPO, "tests/cluster/create-node"), cluster.dir, node],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    probe = subprocess.run(
        [os.path.join(REPO, "tests/fakenv/probe-record"), record],
        check=True,
        capture_output=True,
        text=True,
        env=dict(os.environ, MEDIA_CAP_BUILD=args.build),
    )
    pool = {"name": node, "generation": 1, "resourceSliceCount": 1}
    media = {
        "apiVersion": "resource.k8s.io/v1",
        "kind": "ResourceSlice",
        "metadata": {"name": node + "-media.liken.sh"},
        "spec": {
            "driver": "media.liken.sh",
            "nodeName": node,
            "pool": pool,
            "devices": json.loads(probe.stdout),
        },
    }
    address = harness.GPU
    render = {
        "apiVersion": "resource.k8s.io/v1",
        "kind": "ResourceSlice",
        "metadata": {"name": node + "-liken.sh"},
        "spec": {
            "driver": "liken.sh",
            "nodeName": node,
            "pool": pool,
            "devices": [
                {
                    "name": "pci-0000-01-00-0",
                    "allowMultipleAllocations": True,
                    "attributes": {
                        "renderNode": {"bool": True},
                        "address": {"string": address},
                        "resource.kubernetes.io/pciBusID": {"string": address},
                    },
                }
            ],
        },
    }
    nvidia = {
        "apiVersion": "resource.k8s.io/v1",
        "kind": "ResourceSlice",
        "metadata": {"name": node + "-gpu.nvidia.com"},
        "spec": {
            "driver": "gpu.nvidia.com",
            "nodeName": node,
            "pool": pool,
            "devices": [
                {
                    "name": "gpu-0",
                    "attributes": {"resource.kubernetes.io/pciBusID": {"string": address}},
                }
            ],
        },
    }
    for slice_ in (media, render, nvidia):
        status, body = cluster.call("POST", "/apis/resource.k8s.io/v1/resourceslices", slice_)
        if status != 201:
            raise Failure(f"{slice_['metadata']['name']}: {status} {body.get('message')}")


def worker_statefulset(cluster, name, claim_template, peertube_url):
    """deploy/worker's StatefulSet as this cluster can place and this machine can serve: no
    provisioner makes its state volume, so it is an emptyDir; its port is WORKER_PORT and its
    PeerTube the test's. Everything the scheduler reads (the GPU claim, the resources) is as
    shipped. NAME and CLAIM_TEMPLATE make a sibling class of workers."""
    statefulset = next(
        o for o in cluster.objects("deploy/worker/statefulset.yaml") if o["kind"] == "StatefulSet"
    )
    statefulset["metadata"]["name"] = name
    statefulset["metadata"]["labels"]["app.kubernetes.io/name"] = name
    spec = statefulset["spec"]
    spec["replicas"] = 0
    spec["serviceName"] = name
    spec["selector"]["matchLabels"]["app.kubernetes.io/name"] = name
    pod = spec["template"]
    pod["metadata"]["labels"]["app.kubernetes.io/name"] = name
    pod["spec"]["resourceClaims"][0]["resourceClaimTemplateName"] = claim_template
    pod["spec"]["volumes"].append({"name": "state", "emptyDir": {}})
    del spec["volumeClaimTemplates"]
    container = pod["spec"]["containers"][0]
    container["args"] = [
        f"--listen=0.0.0.0:{WORKER_PORT}"
        if a.startswith("--listen=")
        else f"--control-listen=0.0.0.0:{CONTROL_PORT}"
        if a.startswith("--control-listen=")
        else a
        for a in container["args"]
    ]
    container["ports"][0]["containerPort"] = WORKER_PORT
    container["ports"][1]["containerPort"] = CONTROL_PORT
    for variable in (
        v for c in pod["spec"]["initContainers"] + [container] for v in c.get("env", [])
    ):
        if variable["name"] == "PEERTUBE_URL":
            variable["value"] = peertube_url
    return statefulset


def av1_class(cluster):
    """The AV1 class of workers: deploy/worker's claim asking for an AV1 encoder instead of
    H.264, and deploy/pool's ServiceAccount and Role for its own manager, naming its
    StatefulSet instead of peertube-worker."""
    claim = cluster.objects("deploy/worker/claim-template.yaml")[0]
    claim["metadata"]["name"] = AV1_WORKERS + "-gpu"
    encoder = next(
        r for r in claim["spec"]["spec"]["devices"]["requests"] if r["name"] == "encoder"
    )
    encoder["exactly"]["selectors"] = [
        {"cel": {"expression": 'device.attributes["media.liken.sh"].encodeAV1Main'}}
    ]
    access = []
    for document in cluster.objects("deploy/pool/service-account.yaml") + cluster.objects(
        "deploy/pool/rbac.yaml"
    ):
        document = json.loads(
            json.dumps(document)
            .replace('"media-pool"', '"media-pool-av1"')
            .replace('"peertube-worker"', f'"{AV1_WORKERS}"')
        )
        access.append(document)
    return [claim, *access]


class PodWorker:
    """What the test's kubelet knows of one pod: its worker process, its address, and what the
    worker said last before it was stopped."""

    def __init__(self, pod, ip, node, device, consumed):
        self.name = pod["metadata"]["name"]
        self.uid = pod["metadata"]["uid"]
        self.ip, self.node, self.device, self.consumed = ip, node, device, consumed
        self.worker = None
        self.error = None
        self.ready = False
        self.stopping = False
        self.stopped = False
        self.last_status = None  # the worker's document just before its SIGTERM
        self.started_at = time.time()


class Kubelet:
    """The kubelet's part for the StatefulSet's pods, with a local process as the container:
    see the module's docstring. One thread watches the pods (a list every half second); each
    start and each stop runs in a thread of its own, as a kubelet's pod workers do."""

    def __init__(
        self,
        cluster,
        args,
        root,
        peertube_url,
        registration_file,
        control,
        argv_log,
        records,
        self_tests,
    ):
        self.cluster, self.args, self.root = cluster, args, root
        self.self_tests = self_tests  # record -> the directory of its self-test's report
        self.peertube_url, self.registration_file = peertube_url, registration_file
        self.control, self.argv_log, self.records = control, argv_log, records
        self.pods = {}  # uid -> PodWorker
        self.next_address = 11
        self.lock = threading.Lock()
        self.done = threading.Event()
        self.errors = []  # a pod's worker that could not be started or stopped
        self.misses = []  # lists that failed; the next one, half a second later, tries again
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while not self.done.is_set():
            try:
                for pod in self.cluster.pods(WORKERS):
                    self.sync(pod)
            except (Failure, OSError, ValueError, KeyError) as error:
                self.misses.append(str(error))
            self.done.wait(0.5)

    def sync(self, pod):
        uid = pod["metadata"]["uid"]
        known = self.pods.get(uid)
        if pod["metadata"].get("deletionTimestamp"):
            if known and not known.stopping:
                known.stopping = True
                threading.Thread(target=self.stop_pod, args=(known,), daemon=True).start()
            elif not known:
                self.delete(pod["metadata"]["name"], uid)
            return
        if known or not pod["spec"].get("nodeName"):
            return
        allocation = self.allocation(pod)
        if not allocation:
            return
        node, device, consumed = allocation
        with self.lock:
            ip = f"127.0.0.{self.next_address}"
            self.next_address += 1
        entry = PodWorker(pod, ip, node, device, consumed)
        self.pods[uid] = entry
        threading.Thread(target=self.start_pod, args=(entry, pod), daemon=True).start()

    def allocation(self, pod):
        """The node, device and consumed capacity of the pod's claim's encoder, once the
        scheduler has allocated it (it binds the pod after the allocation is written)."""
        statuses = pod.get("status", {}).get("resourceClaimStatuses") or []
        if not statuses or not statuses[0].get("resourceClaimName"):
            return None
        code, claim = self.cluster.call(
            "GET",
            f"/apis/resource.k8s.io/v1/namespaces/{NAMESPACE}/resourceclaims/"
            + statuses[0]["resourceClaimName"],
        )
        if code != 200:
            return None
        results = ((claim.get("status") or {}).get("allocation") or {}).get("devices", {}).get(
            "results"
        ) or []
        encoder = next((r for r in results if r["request"] == "encoder"), None)
        if not encoder:
            return None
        return encoder["pool"], encoder["device"], encoder.get("consumedCapacity", {})

    def container_env(self, pod):
        # The container's environment as the kubelet gives it: its values, and the pod's name
        # for metadata.name. PT_WORKER_SESSIONS_CAP and PT_WORKER_RUNNER_NAME are the worker's.
        env = {}
        for variable in pod["spec"]["containers"][0].get("env", []):
            if "value" in variable:
                env[variable["name"]] = variable["value"]
            elif (
                variable.get("valueFrom", {}).get("fieldRef", {}).get("fieldPath")
                == "metadata.name"
            ):
                env[variable["name"]] = pod["metadata"]["name"]
        return env

    def start_pod(self, entry, pod):
        try:
            record = self.records[entry.node]
            state = os.path.join(self.root, entry.name + "-" + entry.uid[:8], "state")
            # One self-test stands for every worker on the same fake GPU model (the same
            # record, the same ffmpeg), as in pool_e2e, so that the test pays for it once.
            os.makedirs(state, exist_ok=True)
            for report in os.listdir(self.self_tests[record]):
                if report.startswith("self-test-"):
                    shutil.copy(os.path.join(self.self_tests[record], report), state)
            env = self.container_env(pod)
            fault_file = os.path.join(self.root, entry.name + "-" + entry.uid[:8] + "-fault")
            open(fault_file, "w").close()
            entry.worker = Worker(
                self.args,
                self.root,
                entry.name + "-" + entry.uid[:8],
                env["PEERTUBE_URL"],
                self.registration_file,
                fault_file,
                self.argv_log,
                record=record,
                host=entry.ip,
                listen_port=WORKER_PORT,
                runner_name="",
                control_token=self.control.token_of(entry.name),
                env=env,
                control_port=CONTROL_PORT,
                control_tls=self.control.tls(),
            )
            wait_for(f"{entry.name}'s status document", lambda: self.answers(entry), 60, 0.5)
            now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
            conditions = [
                {"type": kind, "status": "True", "lastTransitionTime": now}
                for kind in ("Initialized", "ContainersReady", "Ready")
            ]
            container = pod["spec"]["containers"][0]
            status = {
                "phase": "Running",
                "podIP": entry.ip,
                "podIPs": [{"ip": entry.ip}],
                "hostIP": "127.0.0.1",
                "hostIPs": [{"ip": "127.0.0.1"}],
                "startTime": now,
                "conditions": conditions,
                "containerStatuses": [
                    {
                        "name": container["name"],
                        "image": container["image"],
                        "imageID": "",
                        "ready": True,
                        "started": True,
                        "restartCount": 0,
                        "state": {"running": {"startedAt": now}},
                    }
                ],
            }
            code, body = self.cluster.call(
                "PATCH",
                f"/api/v1/namespaces/{NAMESPACE}/pods/{entry.name}/status",
                {"metadata": {"uid": entry.uid}, "status": status},
                "application/strategic-merge-patch+json",
            )
            if code != 200:
                raise Failure(f"the status of {entry.name}: {code} {body.get('message')}")
            entry.ready = True
        except (Failure, OSError, KeyError, subprocess.CalledProcessError) as error:
            entry.error = str(error)
            self.errors.append(f"{entry.name}: {error}")

    def documents(self):
        """The status documents of the workers that answer now, and the last of those stopped."""
        found = [
            entry.last_status if entry.stopped else self.answers(entry)
            for entry in list(self.pods.values())
            if entry.worker
        ]
        return [document for document in found if document]

    def answers(self, entry):
        try:
            return entry.worker.status()
        except (OSError, ValueError):
            return None

    def stop_pod(self, entry):
        # A pod deleted before its worker came up waits for the start to end first.
        wait_for(f"{entry.name}'s start to end", lambda: entry.ready or entry.error, 300, 0.5)
        if entry.worker:
            entry.last_status = self.answers(entry)
            entry.worker.stop()
        entry.stopped = True
        self.delete(entry.name, entry.uid)

    def delete(self, name, uid):
        code, body = self.cluster.call(
            "DELETE",
            f"/api/v1/namespaces/{NAMESPACE}/pods/{name}",
            {"gracePeriodSeconds": 0, "preconditions": {"uid": uid}},
        )
        if code not in (200, 404, 409):
            self.errors.append(f"deleting {name}: {code} {body.get('message')}")

    def stop(self):
        self.done.set()
        self.thread.join(timeout=10)
        for entry in list(self.pods.values()):
            if entry.worker and not entry.stopped:
                entry.worker.stop()


class KubePool(pool_e2e.Pool):
    """One `pool run` with control: kubernetes, as deploy/pool's ConfigMap has it, for one class
    of workers."""

    def __init__(
        self,
        args,
        root,
        name,
        peertube_url,
        credentials_file,
        kubeconfig,
        statefulset,
        control,
        max_replicas,
    ):
        self.dir = os.path.join(root, name)
        os.makedirs(self.dir)
        config = os.path.join(self.dir, "pool.yaml")
        with open(config, "w") as f:
            f.write(
                f"peertube:\n  url: {peertube_url}\n  credentials_file: {credentials_file}\n"
                "  poll: 3s\ncontrol: kubernetes\nlisten: 127.0.0.1:0\n"
                f"kubernetes:\n  kubeconfig: {kubeconfig}\n  namespace: {NAMESPACE}\n"
                f"  statefulset: {statefulset}\n  selector: app.kubernetes.io/name={statefulset}\n"
                f"  worker_port: {WORKER_PORT}\n  control_port: {CONTROL_PORT}\n"
                f"  control_ca_file: {control.ca}\n  control_key_file: {control.key_file}\n"
                f"  max_replicas: {max_replicas}\n" + POLICY
            )
        self.log_path = os.path.join(self.dir, "pool.log")
        self.log = open(self.log_path, "w")
        self.binary = os.path.join(args.build, "media-capabilities")
        self.process = subprocess.Popen(
            [self.binary, "pool", "run", "--config", config],
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        self.url = "http://" + wait_for(
            f"the {name} manager's report address in its log", self.address, 30, 0.5
        )


class ControlSecrets:
    """What deploy/worker's Secrets hold for the control API, made for the test: the pool's
    control key (media-pool-control's key), an authority (its ca.crt) and the workers'
    certificate for every pod's stable name under both classes' services
    (peertube-worker-control-tls). Each pod's token is derived as its init container derives it,
    by `worker control-token`."""

    def __init__(self, args, root):
        self.args = args
        self.dir = os.path.join(root, "control-secrets")
        os.makedirs(self.dir)
        self.key_file = os.path.join(self.dir, "key")
        with open(self.key_file, "w") as f:
            f.write(os.urandom(32).hex() + "\n")
        os.chmod(self.key_file, 0o600)
        self.ca = os.path.join(self.dir, "ca.crt")
        ca_key = os.path.join(self.dir, "ca.key")
        self.certificate = os.path.join(self.dir, "tls.crt")
        self.certificate_key = os.path.join(self.dir, "tls.key")
        request = os.path.join(self.dir, "tls.csr")
        names = ",".join(f"DNS:*.{service}.{NAMESPACE}.svc" for service in (WORKERS, AV1_WORKERS))
        ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
        subprocess.run(
            [
                "openssl",
                "req",
                "-x509",
                *ec,
                "-keyout",
                ca_key,
                "-out",
                self.ca,
                "-days",
                "2",
                "-subj",
                "/CN=workers-ca",
            ],
            check=True,
            capture_output=True,
        )
        subprocess.run(
            [
                "openssl",
                "req",
                "-new",
                *ec,
                "-keyout",
                self.certificate_key,
                "-out",
                request,
                "-subj",
                "/CN=peertube-worker",
                "-addext",
                "subjectAltName=" + names,
            ],
            check=True,
            capture_output=True,
        )
        subprocess.run(
            [
                "openssl",
                "x509",
                "-req",
                "-in",
                request,
                "-CA",
                self.ca,
                "-CAkey",
                ca_key,
                "-CAcreateserial",
                "-days",
                "2",
                "-copy_extensions",
                "copy",
                "-out",
                self.certificate,
            ],
            check=True,
            capture_output=True,
        )

    def tls(self):
        return (self.certificate, self.certificate_key, self.ca)

    def token_of(self, pod):
        out = os.path.join(self.dir, pod + ".token")
        subprocess.run(
            [
                os.path.join(self.args.build, "media-capabilities"),
                "worker",
                "control-token",
                "--key-file",
                self.key_file,
                "--name",
                pod,
                "--out",
                out,
            ],
            check=True,
            capture_output=True,
        )
        with open(out) as f:
            return f.read().strip()


# NVIDIA's DRA driver cannot run here: a stand-in of its DeviceClass, and each node's slice
# below, give the GeForce claim the gpu.nvidia.com device it pairs with the encoder.
NVIDIA_CLASS = {
    "apiVersion": "resource.k8s.io/v1",
    "kind": "DeviceClass",
    "metadata": {"name": "gpu.nvidia.com"},
    "spec": {"selectors": [{"cel": {"expression": 'device.driver == "gpu.nvidia.com"'}}]},
}


def geforce_claim_template(cluster):
    """The name of deploy/worker's claim template for GeForce boards (it carries a digest)."""
    return next(
        o["metadata"]["name"]
        for o in cluster.objects("deploy/worker/claim-template.yaml")
        if o["metadata"]["name"].startswith("peertube-worker-nvidia-geforce-")
    )


def set_up_cluster(cluster, args, root, peertube_url):
    cluster.apply(*cluster.objects("deploy/device-classes.yaml"), NVIDIA_CLASS)
    # The owner makes the workers' namespace before their Secrets (docs/install.md).
    cluster.apply({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": NAMESPACE}})
    cluster.apply(
        *cluster.objects("deploy/pool/service-account.yaml"),
        *cluster.objects("deploy/pool/rbac.yaml"),
        *cluster.objects("deploy/worker/claim-template.yaml"),
        *av1_class(cluster),
    )
    cluster.apply(
        worker_statefulset(cluster, WORKERS, geforce_claim_template(cluster), peertube_url),
        worker_statefulset(cluster, AV1_WORKERS, AV1_WORKERS + "-gpu", peertube_url),
    )
    record = ampere_geforce(root)
    for node in NODES:
        add_gpu_node(cluster, args, node, record)
    return {node: record for node in NODES}


def check_role(cluster, token):
    """The manager's token may read and write the scale, and nothing the Role leaves out."""
    base = f"/apis/apps/v1/namespaces/{NAMESPACE}/statefulsets/{WORKERS}"
    read, _ = cluster.call("GET", base + "/scale", token=token)
    spec, _ = cluster.call(
        "PATCH", base, {"spec": {"replicas": 2}}, "application/merge-patch+json", token=token
    )
    pod, _ = cluster.call("DELETE", f"/api/v1/namespaces/{NAMESPACE}/pods/{WORKERS}-0", token=token)
    other, _ = cluster.call(
        "GET", f"/apis/apps/v1/namespaces/{NAMESPACE}/statefulsets/{AV1_WORKERS}/scale", token=token
    )
    check(
        read == 200 and spec == 403 and pod == 403 and other == 403,
        f"the manager's ServiceAccount reads the scale ({read}) and may not change the "
        "StatefulSet's "
        f"spec ({spec}), delete a pod ({pod}) or read another StatefulSet's scale ({other})",
    )


def watch_promotions(pool, steps, stop):
    """Each change of the report's promotion count, as (time, increase)."""
    last = 0
    while not stop.is_set():
        try:
            now = pool.report()["counters"]["promotions"]
            if now != last:
                steps.append((time.time(), now - last))
                last = now
        except (OSError, ValueError, KeyError):
            pass
        stop.wait(0.5)


def case_burst(cluster, kubelet, peertube, pools, root, argv_log, token):
    print(
        "case: a burst scales the StatefulSet from zero, the workers serve it, and it scales back",
        flush=True,
    )
    pool, av1_pool = pools
    check(
        cluster.replicas(WORKERS) == 0 and not cluster.pods(WORKERS),
        "the StatefulSet starts at zero replicas",
    )
    check_role(cluster, token)
    clips = []
    for i in range(UPLOADS):
        clips.append(os.path.join(root, f"burst{i}.mp4"))
        make_clip(clips[-1], CLIP_SECONDS)
    steps, stop = [], threading.Event()
    watcher = threading.Thread(target=watch_promotions, args=(pool, steps, stop), daemon=True)
    watcher.start()
    at = {"burst": time.time()}
    videos = [peertube.upload(clip, f"e2e-kube-{i}") for i, clip in enumerate(clips)]

    first_scale = wait_for(
        "the manager to scale the StatefulSet up", lambda: cluster.replicas(WORKERS) > 0, 120, 0.5
    )
    at["scaled"] = time.time()
    check(
        first_scale,
        f"the manager scaled the StatefulSet up {at['scaled'] - at['burst']:.1f} s after the "
        "burst began",
    )
    wait_for(
        "a worker pod to be Ready", lambda: any(p.ready for p in kubelet.pods.values()), 300, 0.5
    )
    at["ready"] = time.time()
    jobs, most_pods = wait_burst_on_pods(peertube, kubelet, videos)
    at["done"] = time.time()

    placed = check_placement(cluster, kubelet, pool)
    check_promotions(steps, jobs, placed, argv_log)
    check_av1_unservable(cluster, av1_pool)
    # Back to zero: every worker drained, then its pod given back, highest ordinal first.
    wait_for(
        "the StatefulSet to be scaled back to zero and its pods gone",
        lambda: cluster.replicas(WORKERS) == 0 and not cluster.pods(WORKERS),
        300,
        1,
    )
    at["zero"] = time.time()
    stop.set()
    check_scale_to_zero(pool, placed)
    check_statefulset_events(cluster, pool)
    print_burst_figures(at, jobs, most_pods)


def wait_burst_on_pods(peertube, kubelet, videos):
    """Waits for every job of the burst to complete on the pods' workers, with no failure. Gives
    the jobs and the most worker pods that served at once."""
    # One list for all the uploads: the test's own reads stay well inside PeerTube's limit.
    completed = harness.JobsDone(peertube, videos, kubelet.documents)
    most_pods = 0
    deadline = time.time() + 600
    jobs = None
    while time.time() < deadline and not kubelet.errors:
        most_pods = max(
            most_pods, sum(1 for p in kubelet.pods.values() if p.ready and not p.stopping)
        )
        jobs = completed()
        if jobs:
            break
        time.sleep(2)
    check(not kubelet.errors, f"the kubelet started every pod's worker: {kubelet.errors}")
    check(
        jobs is not None,
        "every job of the burst completed: "
        + completed.said()
        + ("" if jobs else "; open:\n" + completed.open_jobs()),
    )
    check(len(jobs) == 8 * UPLOADS, f"{UPLOADS} uploads made {len(jobs)} jobs")
    check(
        all(j.get("failures", 0) == 0 for j in jobs), "no job failed or was given back to the queue"
    )
    return jobs, most_pods


def check_placement(cluster, kubelet, pool):
    """1. Every pod the scheduler placed got a GPU that encodes H.264, consuming its sessions,
    and the manager reached each worker it admitted at the pod's IP, over TLS, checking the
    certificate for the pod's stable name and sending the pod's own derived token (a worker
    answers another's token 401, so an enable that is done proves the token). Gives the pods."""
    placed = list(kubelet.pods.values())
    check(len(placed) >= 2, f"the manager woke {len(placed)} workers: {[p.name for p in placed]}")
    slices = {
        node: cluster.get(f"/apis/resource.k8s.io/v1/resourceslices/{node}-media.liken.sh")
        for node in NODES
    }
    for entry in placed:
        device = next(d for d in slices[entry.node]["spec"]["devices"] if d["name"] == entry.device)
        attributes = device["attributes"]
        check(
            attributes["encodeH264"]["bool"]
            and not attributes.get("encodeAV1Main", {}).get("bool", False)
            and entry.consumed.get("encodeSessions") == "3",
            f"{entry.name}: the scheduler gave it {entry.node}'s {entry.device}, which encodes "
            "H.264, "
            f"consuming {entry.consumed.get('encodeSessions')} encodeSessions",
        )
    log = pool.text()
    enabled = re.findall(
        r"pool: enable (\S+) at concurrency \d+: done \(POST https://([\d.]+):(\d+)/", log
    )
    by_name = {p.name: p for p in placed}
    check(
        enabled
        and all(
            name in by_name
            and ip in {p.ip for p in placed if p.name == name}
            and int(port) == CONTROL_PORT
            for name, ip, port in enabled
        ),
        f"the manager enabled workers through their control API over TLS at the pod's IP: "
        f"{sorted(set(enabled))}",
    )
    return placed


def check_promotions(steps, jobs, placed, argv_log):
    """2. The promotions came one at a time, the jobs ran on the pool's runners with hardware
    evidence, and no ffmpeg ran libx264."""
    by_name = {p.name: p for p in placed}
    promotions = sum(n for _, n in steps)
    check(
        promotions >= 2 and all(n == 1 for _, n in steps),
        f"the manager promoted {promotions} workers, never two in one cycle: "
        f"{[n for _, n in steps]}",
    )
    names = {j["runner"]["name"] for j in jobs}
    check(
        len(names) >= 2 and names <= set(by_name),
        f"the jobs ran on the pods' runners: {sorted(names)}",
    )
    lines = harness.job_argv_lines(argv_log)
    check(
        lines
        and not any("libx264" in line for line in lines)
        and all("h264_nvenc" in line for line in lines),
        f"all {len(lines)} jobs' ffmpeg ran h264_nvenc, none libx264",
    )


def check_av1_unservable(cluster, av1_pool):
    """3. The AV1 class: its manager woke its one worker, which the scheduler cannot place."""
    av1 = wait_for(
        "the AV1 class's manager to report its class unservable",
        lambda: (r := av1_pool.report())["unservable"] and r,
        60,
        1,
    )
    pods = cluster.pods(AV1_WORKERS)
    check(
        len(pods) == 1
        and pods[0]["status"].get("phase") == "Pending"
        and not pods[0]["spec"].get("nodeName"),
        f"the AV1 worker pod stays Pending, on no node: {[p['metadata']['name'] for p in pods]}",
    )
    reason = next(
        (
            c.get("message", "")
            for c in pods[0]["status"].get("conditions", [])
            if c["type"] == "PodScheduled" and c["status"] == "False"
        ),
        "",
    )
    check("cannot allocate all claims" in reason, f"the scheduler says why: {reason}")
    line = f"statefulset {AV1_WORKERS}: pod {AV1_WORKERS}-0 cannot be placed"
    check(
        len(av1["unservable"]) == 1
        and av1["unservable"][0].startswith(line)
        and reason in av1["unservable"][0],
        f"its manager's report names the class and the scheduler's words: {av1['unservable']}",
    )
    shown = subprocess.run(
        [av1_pool.binary, "pool", "status", "--url", av1_pool.url, "-o", "json"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    check(
        shown.returncode == 0
        and any(u.startswith(line) for u in json.loads(shown.stdout)["unservable"]),
        "pool status -o json shows it",
    )
    check(f"pool: unservable: {line}" in av1_pool.text(), "its log says it")
    check(cluster.replicas(AV1_WORKERS) == 1, "its manager asked for no more than its max_replicas")


def check_scale_to_zero(pool, placed):
    """Every worker was idle and drained when its pod was deleted, and the manager demoted the
    idle workers."""
    check(all(p.stopped for p in placed), "every worker was stopped by its pod's deletion")
    for entry in placed:
        status = entry.last_status
        check(
            status is not None and status["state"] == "DRAINED" and status["active_jobs"] == 0,
            f"{entry.name} was idle and drained when its pod was deleted: "
            f"{status and (status['state'], status['active_jobs'])}",
        )
        check(
            status["jobs"]["failed"] == 0
            and status["jobs"]["hw_fallback_prevented"] == 0
            and (status["jobs"]["completed"] == 0 or status["hw_evidence_last_job"]["ok"]),
            f"{entry.name}: {status['jobs']['completed']} jobs completed, none failed, its last "
            "with "
            f"hardware evidence",
        )
    check(
        sum(
            1
            for line in pool.text().splitlines()
            if re.match(r"pool: \S+ (?:" + pool_e2e.DEMOTION + ")", line)
        )
        >= 2,
        "the manager demoted the idle workers",
    )


def check_statefulset_events(cluster, pool):
    """4. An Event on the StatefulSet for every action the manager took on it."""
    statefulset = cluster.get(f"/apis/apps/v1/namespaces/{NAMESPACE}/statefulsets/{WORKERS}")
    selector = urllib.parse.quote(f"involvedObject.kind=StatefulSet,involvedObject.name={WORKERS}")
    events = [
        e
        for e in cluster.get(f"/api/v1/namespaces/{NAMESPACE}/events?fieldSelector={selector}")[
            "items"
        ]
        if e.get("source", {}).get("component") == "media-capabilities-pool"
    ]
    recorded = {}
    for event in events:
        if (
            event["involvedObject"]["uid"] == statefulset["metadata"]["uid"]
            and event["type"] == "Normal"
        ):
            recorded[event["reason"]] = recorded.get(event["reason"], 0) + event.get("count", 1)
    done = {}
    for kind in re.findall(
        r"^pool: (\S+) \S+(?: at concurrency \d+| to \S+)?: done \(", pool.text(), re.M
    ):
        done[EVENT_OF_ACTION[kind]] = done.get(EVENT_OF_ACTION[kind], 0) + 1
    check(
        done == recorded
        and all(
            recorded.get(r, 0) >= 1
            for r in ("ScaledUp", "ScaledDown", "WorkerEnabled", "WorkerDraining")
        ),
        f"an Event on the StatefulSet for every action done: {recorded}",
    )
    check(not any(e["type"] == "Warning" for e in events), "and no Warning")


def print_burst_figures(at, jobs, most_pods):
    """The burst's times: AT holds when it began, scaled up, had a Ready pod, was done and was
    back at zero."""
    print(
        f"  figure: the first scale-up came {at['scaled'] - at['burst']:.1f} s after the burst "
        "began (the "
        "policy's windows: 12 s of pressure before a promotion is tried, then the wake); the "
        "first worker "
        f"pod was Ready {at['ready'] - at['scaled']:.1f} s after that scale-up",
        flush=True,
    )
    print(
        f"  figure: {len(jobs)} jobs on up to {most_pods} worker pods completed "
        f"{at['done'] - at['burst']:.1f} s "
        f"after the burst began; the StatefulSet was back at zero {at['zero'] - at['done']:.1f} s "
        "after the last "
        f"job (20 s of low pressure, 15 s idle and 10 s SPARE before each give-back)",
        flush=True,
    )


def main():
    args = harness.parse_arguments()
    if "min_active: 0" not in POLICY:
        print("FAILED: pool_e2e's policy no longer has the min_active line this test changes")
        return 1
    started = time.time()
    root = harness.new_root("mc-pool-kube-e2e-")
    kit = harness.Kit(args, root)
    cluster, kubelet, pools, failed = None, None, [], None
    try:
        peertube = kit.connect(root)
        instance = kit.instance
        credentials_file = kit.admin_credentials_file(root)
        control = ControlSecrets(args, root)
        argv_log = harness.argv_log_in(root)

        cluster = Cluster(root)
        records = set_up_cluster(cluster, args, root, peertube.url)
        pool_kubeconfig = os.path.join(root, "pool.kubeconfig")
        token = cluster.token_kubeconfig("media-pool", pool_kubeconfig)
        av1_kubeconfig = os.path.join(root, "pool-av1.kubeconfig")
        cluster.token_kubeconfig("media-pool-av1", av1_kubeconfig)
        print(
            f"  figure: PeerTube and the control plane were up {time.time() - started:.1f} s "
            "after the start",
            flush=True,
        )

        record = next(iter(records.values()))
        self_tests = {record: seed_self_test(args, root, record, argv_log)}
        kubelet = Kubelet(
            cluster,
            args,
            root,
            peertube.url,
            kit.registration_file,
            control,
            argv_log,
            records,
            self_tests,
        )
        pools.append(
            KubePool(
                args,
                root,
                "pool",
                peertube.url,
                credentials_file,
                pool_kubeconfig,
                WORKERS,
                control,
                MAX_REPLICAS,
            )
        )
        pools.append(
            KubePool(
                args,
                root,
                "pool-av1",
                peertube.url,
                credentials_file,
                av1_kubeconfig,
                AV1_WORKERS,
                control,
                1,
            )
        )
        case_burst(cluster, kubelet, peertube, pools, root, argv_log, token)
        check(
            all(
                instance["PEERTUBE_ADMIN_PASSWORD"] not in p.text() and token not in p.text()
                for p in pools
            ),
            "neither the admin's password nor the ServiceAccount's token is in any log line",
        )
    except (
        Failure,
        urllib.error.URLError,
        subprocess.CalledProcessError,
        KeyError,
        StopIteration,
    ) as error:
        failed = error
    finally:
        for pool in pools:
            pool.stop()
        if kubelet:
            kubelet.stop()
        if cluster:
            cluster.stop()
        kit.stop()
    print(f"  figure: the whole run took {time.time() - started:.1f} s", flush=True)
    return harness.finish(failed, root, "pool", pools[0].tail if pools else None)


if __name__ == "__main__":
    sys.exit(main())
