#!/usr/bin/python3
"""record_scrapes.py [--build DIR] [--out DIR]: records what Prometheus scrapes from the built
binaries into scrapes/ beside this script, each file with a first line saying how it was made:

  - worker.prom: GET /metrics of `worker serve` on the fake NVIDIA RTX 4090
    (tests/fakenv/records/ada-geforce-rtx4090.json), with a state directory of its own;
  - intel-worker.prom: the same on the fake Intel UHD 630-class GPU of the e2e runs;
  - pool.prom: GET /metrics of `pool run` (dry run) over that worker, reading a stand-in PeerTube
    that answers with what PeerTube 7.2.1 answered (tests/peertube/data/admin-api/), its job list
    given a storyboard job, a type this pool does not serve;
  - agent.prom: GET /metrics of `agent --render-nodes sysfs` on the same fake GPU, against a
    stand-in API server that lists no slice, takes the agent's create and holds its watches.

The rules and dashboards of deploy/monitoring/ are checked against these files
(check_monitoring.py). The PeerTube end-to-end run checks its live scrapes the same way."""
import argparse
import http.server
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "../../.."))
RECORD = "tests/fakenv/records/ada-geforce-rtx4090.json"
# The Intel GPU of the PeerTube end-to-end runs: a UHD 630-class iGPU on Intel's iHD driver.
INTEL_DUMP = "tests/fakeva/dumps/intel-ihd-gen9.5-class-nonfree-20.2.txt"
ADMIN_API = os.path.join(REPO, "tests/peertube/data/admin-api")


def admin_answer(name):
    with open(os.path.join(ADMIN_API, name), "rb") as f:
        return f.read()


def job_list():
    """The recorded pending jobs, the second made a storyboard job (PeerTube 8's type)."""
    jobs = json.loads(admin_answer("jobs-pending.json"))
    storyboard = dict(jobs["data"][1])
    storyboard["type"] = "generate-video-storyboard"
    storyboard["uuid"] = "11111111-2222-4333-8444-555555555555"
    jobs["data"].append(storyboard)
    jobs["total"] = len(jobs["data"])
    return json.dumps(jobs).encode()


class StandIn(http.server.BaseHTTPRequestHandler):
    """Answers as a server would, by path: PeerTube's admin API or the Kubernetes API."""

    routes = {}

    def log_message(self, *args):
        pass

    def answer(self):
        path = self.path.split("?")[0]
        query = self.path.partition("?")[2]
        if self.command == "GET" and "watch=" in query:
            # A watch that sends nothing: the agent holds it open, as against a quiet server.
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            time.sleep(30)
            return
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        for pattern, route in self.routes.items():
            if re.fullmatch(pattern, path):
                status, text = route(self.command, body)
                break
        else:
            status, text = 404, admin_answer("video-not-found.json")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(text)))
        self.end_headers()
        self.wfile.write(text)

    do_GET = do_POST = do_PUT = answer


def peertube_routes():
    return {
        "/api/v1/oauth-clients/local": lambda m, b: (200, admin_answer("oauth-client-local.json")),
        "/api/v1/users/token": lambda m, b: (200, admin_answer("users-token-password.json")),
        "/api/v1/runners/jobs": lambda m, b: (200, job_list()),
        r"/api/v1/videos/[^/]+/metadata/.*": lambda m, b: (
            200,
            admin_answer("video-file-metadata-720p.json"),
        ),
        "/api/v1/videos/433600b5-b8b4-4920-a9dc-fcea1a908566": lambda m, b: (
            200,
            admin_answer("video-to-transcode-720p.json"),
        ),
        "/api/v1/videos/cb13ce3d-247a-4414-accd-05a2d1c6b361": lambda m, b: (
            200,
            admin_answer("video-to-transcode-480p.json"),
        ),
    }


# The node the slices name as their owner, as the API server answers a GET of it.
NODE = json.dumps(
    {"kind": "Node", "apiVersion": "v1", "metadata": {"name": "gpu-node-1", "uid": "node-uid"}}
).encode()


def created_slice(method, body):
    """The API server's answer to the agent: an empty list, or the slice it sent, stored."""
    if method == "GET":
        return (
            200,
            json.dumps(
                {
                    "kind": "ResourceSliceList",
                    "apiVersion": "resource.k8s.io/v1",
                    "items": [],
                    "metadata": {"resourceVersion": "1"},
                }
            ).encode(),
        )
    stored = json.loads(body)
    stored["metadata"].update({"resourceVersion": "2", "generation": 1, "uid": "stand-in"})
    stored["metadata"].setdefault("name", stored["metadata"].get("generateName", "s") + "0")
    return 201, json.dumps(stored).encode()


def serve(routes):
    handler = type("Handler", (StandIn,), {"routes": routes})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def start(argv, log_path):
    log = open(log_path, "w")
    return subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, cwd=REPO)


def address_in(process, log_path, pattern, timeout=60):
    deadline = time.time() + timeout
    while time.time() < deadline and process.poll() is None:
        with open(log_path) as f:
            found = re.search(pattern, f.read())
        if found:
            return found.group(1)
        time.sleep(0.2)
    sys.exit(f"record_scrapes.py: no {pattern!r} in {log_path}:\n{open(log_path).read()}")


def scrape(url, ready, log_path, timeout=60):
    """The metrics at `url` once `ready(text)` holds; the process's log if they never do."""
    deadline = time.time() + timeout
    text = ""
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                text = response.read().decode()
            if ready(text):
                return text
        except OSError:
            pass
        time.sleep(0.5)
    sys.exit(f"record_scrapes.py: {url} never became ready:\n{text}\n{open(log_path).read()}")


def fake_gpu(*command, machine=("tests/fakenv/run-on", RECORD)):
    run_on, gpu = machine
    return [os.path.join(REPO, run_on), gpu, "--", "sh", "-c", " ".join(command)]


def start_worker(binary, tmp, name, machine):
    """A `worker serve` on a fake machine; gives its address and log."""
    log = os.path.join(tmp, f"{name}.log")
    process = start(
        fake_gpu(
            binary,
            "worker serve --gpu 0 --listen 127.0.0.1:0",
            '--sysfs-root "$MEDIA_CAP_SYSFS_ROOT" --dev-root "$MEDIA_CAP_DEV_ROOT"',
            "--state-dir",
            os.path.join(tmp, f"{name}-state"),
            machine=machine,
        ),
        log,
    )
    return process, address_in(process, log, r"listening on (127\.0\.0\.1:\d+)"), log


def record(build, out, tmp):
    binary = os.path.join(build, "media-capabilities")
    os.environ["MEDIA_CAP_BUILD"] = build
    processes = []
    try:
        process, worker, log = start_worker(binary, tmp, "worker", ("tests/fakenv/run-on", RECORD))
        processes.append(process)
        worker_text = scrape(
            f"http://{worker}/metrics", lambda t: "pt_worker_gpu_enc_util_pct" in t, log
        )
        process, intel, log = start_worker(
            binary, tmp, "intel-worker", ("tests/fakeva/run-on", INTEL_DUMP)
        )
        processes.append(process)
        intel_text = scrape(f"http://{intel}/metrics", lambda t: "pt_worker_state{" in t, log)

        peertube = serve(peertube_routes())
        credentials = os.path.join(tmp, "peertube-admin")
        with open(credentials, "w") as f:
            f.write("root\ntest1-secret\n")
        config = os.path.join(tmp, "pool.yaml")
        with open(config, "w") as f:
            f.write(
                f"peertube:\n  url: http://127.0.0.1:{peertube.server_port}\n"
                f"  credentials_file: {credentials}\n"
                "  job_types: [vod-web-video-transcoding, vod-hls-transcoding]\n  poll: 1s\n"
                "control: workers\ndry_run: true\nlisten: 127.0.0.1:0\n"
                f"workers:\n  - name: box-1:gpu0\n    url: http://{worker}\n"
                f"    control_url: http://127.0.0.1:9\n    control_token_file: {credentials}\n"
                "policy:\n  cycle: 1s\n"
            )
        pool_log = os.path.join(tmp, "pool.log")
        processes.append(start([binary, "pool", "run", "--config", config], pool_log))
        pool = address_in(processes[-1], pool_log, r"report on (127\.0\.0\.1:\d+)")
        pool_text = scrape(
            f"http://{pool}/metrics",
            lambda t: "pt_pool_queue_read_ok 1" in t and "pt_pool_worker_weight{" in t,
            pool_log,
        )

        api = serve(
            {
                r"/apis/resource\.k8s\.io/v1/resourceslices.*": created_slice,
                "/api/v1/nodes/gpu-node-1": lambda m, b: (200, NODE),
            }
        )
        kubeconfig = os.path.join(tmp, "kubeconfig")
        with open(kubeconfig, "w") as f:
            f.write(
                "apiVersion: v1\nkind: Config\ncurrent-context: c\n"
                "clusters: [{name: c, cluster: {server: "
                f"'http://127.0.0.1:{api.server_port}'}}}}]\n"
                "users: [{name: u, user: {token: stand-in}}]\n"
                "contexts: [{name: c, context: {cluster: c, user: u}}]\n"
            )
        agent_log = os.path.join(tmp, "agent.log")
        processes.append(
            start(
                fake_gpu(
                    binary,
                    "agent --render-nodes sysfs --node-name gpu-node-1",
                    "--kubeconfig",
                    kubeconfig,
                    "--health-address 127.0.0.1:0",
                    "--plugins-dir",
                    os.path.join(tmp, "plugins"),
                    "--registry-dir",
                    os.path.join(tmp, "registry"),
                    '--sysfs-root "$MEDIA_CAP_SYSFS_ROOT" --dev-root "$MEDIA_CAP_DEV_ROOT"',
                ),
                agent_log,
            )
        )
        port = address_in(processes[-1], agent_log, r"health probes on port (\d+)")
        agent_text = scrape(
            f"http://127.0.0.1:{port}/metrics",
            lambda t: re.search(r"mc_agent_slices_published\{.*\} 1", t)
            and re.search(r"mc_agent_device_query_ok\{.*\} 1", t),
            agent_log,
        )
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()

    how = {
        "worker": f"GET /metrics of `worker serve --gpu 0` on {RECORD}, no self-test run",
        "intel-worker": f"GET /metrics of `worker serve --gpu 0` on the fake VA machine of "
        f"{INTEL_DUMP}, no self-test run",
        "pool": "GET /metrics of `pool run` (dry run, one worker: the one of worker.prom) "
        "reading a stand-in PeerTube with tests/peertube/data/admin-api/'s answers",
        "agent": f"GET /metrics of `agent --render-nodes sysfs` on {RECORD}, against a stand-in "
        "API server; no kubelet, so the plugin is not registered",
    }
    for name, text in (
        ("worker", worker_text),
        ("intel-worker", intel_text),
        ("pool", pool_text),
        ("agent", agent_text),
    ):
        path = os.path.join(out, f"{name}.prom")
        with open(path, "w") as f:
            f.write(f"# Recorded by tests/deploy/monitoring/record_scrapes.py: {how[name]}.\n")
            f.write(text)
        print(f"record_scrapes.py: wrote {os.path.relpath(path, REPO)}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(REPO, "build"))
    parser.add_argument("--out", default=os.path.join(HERE, "scrapes"))
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        record(os.path.abspath(args.build), args.out, tmp)


main()
