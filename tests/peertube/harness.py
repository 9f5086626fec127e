"""What the three PeerTube e2e scripts share: the parts they run and the checks they make.

`Kit` starts PeerTube (start-peertube); `PeerTube` is its admin API; `Worker` is one
`worker run` on a fake GPU. `JobsDone` tells when an upload's runner jobs are done. `check`
and `wait_for` are the cases' assertions; a failed one raises `Failure`, which `finish`
reports.
"""

import argparse
import json
import os
import random
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RECORD = os.path.join(REPO, "tests/fakenv/records/ada-geforce-rtx4090.json")
# The Intel GPU most self-hosted boxes have: a UHD 630-class iGPU on Intel's iHD driver, whose
# dump states no codec the VA fake cannot decode, so its worker's self-test passes whole.
INTEL_DUMP = os.path.join(REPO, "tests/fakeva/dumps/intel-ihd-gen9.5-class-nonfree-20.2.txt")
GPU = "0000:01:00.0"
# The test machine runs everything as root, which `worker run` refuses unless told.
ALLOW_ROOT = ("--allow-root",) if os.geteuid() == 0 else ()

# The settings every e2e worker runs and self-tests with: the argv recorder as its ffmpeg,
# and room for this busy machine.
WORKER_SETTINGS = (
    "--ffmpeg",
    os.path.join(REPO, "tests/peertube/record-argv"),
    # The test machine's load is the test itself (PeerTube, PostgreSQL, the runner): the CPU
    # is left out of the concurrency, the sessions bound it.
    "--job-cpu-millicores",
    "0",
    # The fake GPU runs scale_cuda's kernels on the CPU, inside ffmpeg, so a downscaling
    # rendition spends CPU a real GPU would not: the plausibility gate is given room for it
    # (a libx264 encode still spends all of it).
    "--plausible-cpu-pct",
    "60",
    # The fake decodes each stream of the self-test's decode matrix on the CPU, some 8 s each
    # when the machine is idle: 30 s for the three is too close when PeerTube and a build
    # share the two cores.
    "--step-deadline",
    "120",
)
PENDING, PROCESSING, COMPLETED, ERRORED, WAITING = 1, 2, 3, 4, 5


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)
    print("  ok: " + message, flush=True)


def wait_for(what, predicate, timeout, interval=0.5):
    deadline = time.time() + timeout
    last = None
    while time.time() < deadline:
        last = predicate()
        if last:
            return last
        time.sleep(interval)
    raise Failure(f"timed out after {timeout} s waiting for {what}")


class PeerTube:
    """The admin side of the real server: its REST API, as an admin uses it."""

    def __init__(self, url, user, password):
        self.url = url
        client = self.call("GET", "/api/v1/oauth-clients/local")
        form = urllib.parse.urlencode(
            {
                "client_id": client["client_id"],
                "client_secret": client["client_secret"],
                "grant_type": "password",
                "response_type": "code",
                "username": user,
                "password": password,
            }
        ).encode()
        self.token = self.call(
            "POST",
            "/api/v1/users/token",
            form,
            {"Content-Type": "application/x-www-form-urlencoded"},
        )["access_token"]

    def call(self, method, path, body=None, headers=None):
        request = urllib.request.Request(
            self.url + path, data=body, method=method, headers=dict(headers or {})
        )
        if getattr(self, "token", None):
            request.add_header("Authorization", "Bearer " + self.token)
        with urllib.request.urlopen(request, timeout=60) as response:
            text = response.read()
            return json.loads(text) if text else None

    def registration_token(self):
        return self.call("GET", "/api/v1/runners/registration-tokens")["data"][0][
            "registrationToken"
        ]

    def upload(self, path, name):
        boundary = uuid.uuid4().hex
        with open(path, "rb") as f:
            data = f.read()
        parts = []
        for key, value in (("channelId", "1"), ("name", name), ("privacy", "1")):
            parts.append(
                f'--{boundary}\r\nContent-Disposition: form-data; name="{key}"\r\n\r\n'
                f"{value}\r\n".encode()
            )
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="videofile"; '
            f'filename="{name}.mp4"\r\n'
            f"Content-Type: video/mp4\r\n\r\n".encode() + data + b"\r\n"
        )
        parts.append(f"--{boundary}--\r\n".encode())
        answer = self.call(
            "POST",
            "/api/v1/videos/upload",
            b"".join(parts),
            {"Content-Type": "multipart/form-data; boundary=" + boundary},
        )
        return answer["video"]["uuid"]

    def jobs(self, *video_uuids):
        """The runner jobs of the videos, oldest first, from one list: the newest 100, since a
        run of every case makes more than that."""
        data = self.call("GET", "/api/v1/runners/jobs?count=100&sort=-createdAt")["data"][::-1]
        return [j for j in data if (j.get("privatePayload") or {}).get("videoUUID") in video_uuids]

    def video(self, video_uuid):
        return self.call("GET", "/api/v1/videos/" + video_uuid)

    def runners(self):
        return self.call("GET", "/api/v1/runners?count=100")["data"]


def argv_log_in(root):
    """Where the argv recorder writes: a folder of its own under `root`, apart from the
    workers' state, which their ffmpeg sandbox keeps out of reach."""
    folder = os.path.join(root, "ffmpeg-argv")
    os.makedirs(folder, exist_ok=True)
    return os.path.join(folder, "argv.log")


def with_proc_root(command, machine):
    """COMMAND, run on the VA fake's MACHINE, with --proc-root added: the fake's work shows in
    the fake machine's /proc, which run-on names in the environment of the command it runs."""
    at = len(machine) + 1
    return (
        command[:at]
        + ["sh", "-c", 'exec "$0" "$@" --proc-root "$MEDIA_CAP_PROC_ROOT"']
        + command[at:]
    )


class Worker:
    """One `worker run` on one fake GPU, as an operator starts it."""

    def __init__(
        self,
        args,
        root,
        name,
        server,
        registration_file,
        fault_file,
        argv_log,
        extra=(),
        record=RECORD,
        host="127.0.0.1",
        listen_port=0,
        runner_name=None,
        control_token=None,
        env=None,
        runner_js=None,
        control_port=0,
        control_tls=None,
        va_dump=None,
    ):
        """`record` is the fake NVIDIA GPU, or `va_dump` a fake VA-API GPU. The status
        listens on HOST:LISTEN_PORT, the control API on HOST:CONTROL_PORT, over TLS with
        `control_tls` (its certificate file, its key file and the authority's file), and the gate
        on HOST, at a free port. `runner_name` None is e2e:NAME, and "" leaves the name to the
        environment `env` adds (PT_WORKER_RUNNER_NAME); `control_token` None is a new one."""
        self.build = args.build
        self.dir = os.path.join(root, name)
        os.makedirs(self.dir, exist_ok=True)
        self.state = os.path.join(self.dir, "state")
        self.log_path = os.path.join(self.dir, "worker.log")
        self.control_token = control_token or uuid.uuid4().hex
        token_file = os.path.join(self.dir, "control-token")
        with open(token_file, "w") as f:
            f.write(self.control_token + "\n")
        os.chmod(token_file, 0o600)
        # The recorder runs inside the worker's ffmpeg sandbox: its folder is let in, and
        # nothing else of the test's.
        env = dict(
            os.environ,
            **(env or {}),
            MEDIA_CAP_BUILD=args.build,
            FAKENV_FAULT_FILE=fault_file,
            ARGV_LOG=argv_log,
            STDERR_LOG=argv_log + ".stderr",
            REAL_FFMPEG="/usr/bin/ffmpeg",
            PT_WORKER_SANDBOX_PATHS=os.path.dirname(argv_log),
        )
        env.pop("FAKENV_FAULT", None)
        runner_name = "e2e:" + name if runner_name is None else runner_name
        machine = (
            [os.path.join(REPO, "tests/fakeva/run-on"), va_dump]
            if va_dump
            else [os.path.join(REPO, "tests/fakenv/run-on"), record]
        )
        naming = ("--runner-name", runner_name) if runner_name else ()
        # As the deployments do (the init container, the oneshot unit): `worker register` with
        # the options that name the runner, then `worker run` with no registration token.
        self.register_log_path = os.path.join(self.dir, "register.log")

        def worker(verb, *options):
            """`worker VERB` on the fake machine, with the settings both commands share. Each
            self-tests the GPU unless a green report is at hand (pool_e2e's workers find one
            seeded in their state)."""
            command = [
                *machine,
                "--",
                os.path.join(args.build, "media-capabilities"),
                "worker",
                verb,
                "--gpu",
                GPU,
                "--state-dir",
                self.state,
                "--url",
                server,
                *WORKER_SETTINGS,
                "--self-test-max-age",
                "3600",
                *naming,
                *options,
            ]
            return with_proc_root(command, machine) if va_dump else command

        with open(self.register_log_path, "w") as register_log:
            registered = subprocess.run(
                worker("register", "--registration-token-file", registration_file),
                stdout=register_log,
                stderr=subprocess.STDOUT,
                env=env,
                timeout=300,
            )
        if registered.returncode != 0:
            with open(self.register_log_path) as f:
                raise Failure(
                    f"worker register exited with {registered.returncode}: {f.read()[-2000:]}"
                )
        command = worker(
            "run",
            *ALLOW_ROOT,
            "--runner",
            args.node + " " + (runner_js or args.runner_js),
            "--gate-listen",
            f"{host}:0",
            "--listen",
            f"{host}:{listen_port}",
            "--control-listen",
            f"{host}:{control_port}",
            "--control-token-file",
            token_file,
            *(
                ("--control-tls-cert", control_tls[0], "--control-tls-key", control_tls[1])
                if control_tls
                else ()
            ),
            "--drain-timeout",
            "900",
            *extra,
        )
        self.command, self.env, self.control_tls = command, env, control_tls
        self.launch()

    def launch(self):
        """Starts `worker run` as the operator's unit does, and waits for its addresses."""
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(
            self.command,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            env=self.env,
            start_new_session=True,
        )
        line = wait_for("the worker's addresses in its log", self.addresses, 240, 1)
        self.status_url = "http://" + line[0]
        self.control_url = ("https://" if self.control_tls else "http://") + line[1]
        self.control_ca = self.control_tls[2] if self.control_tls else None

    def restart(self):
        """Starts `worker run` again on the same state, as systemd's Restart= does after a
        crash (the register unit is skipped: registration.json exists), logging to a new file."""
        self.log.close()
        self.restarts = getattr(self, "restarts", 0) + 1
        self.log_path = os.path.join(self.dir, f"worker.restart-{self.restarts}.log")
        self.launch()

    def addresses(self):
        if self.process.poll() is not None:
            raise Failure(f"the worker exited with {self.process.returncode}: {self.tail()}")
        with open(self.log_path) as f:
            found = re.search(
                r"worker run: status on (\S+), control API on (\S+)(?: \(TLS\))?, "
                r"gate on (\S+),",
                f.read(),
            )
        return (found.group(1), found.group(2), found.group(3)) if found else None

    def tail(self):
        with open(self.log_path) as f:
            return f.read()[-3000:]

    def status(self):
        with urllib.request.urlopen(self.status_url + "/status", timeout=10) as response:
            return json.loads(response.read())

    def control(self, verb, body=""):
        request = urllib.request.Request(
            self.control_url + "/" + verb,
            data=body.encode(),
            method="POST",
            headers={"Authorization": "Bearer " + self.control_token},
        )
        # Over TLS the certificate names the pod's stable name, not the address dialled: the
        # authority is checked, the name is the pool's to check (pool_kube_e2e).
        context = None
        if self.control_ca:
            context = ssl.create_default_context(cafile=self.control_ca)
            context.check_hostname = False
        try:
            with urllib.request.urlopen(request, timeout=10, context=context) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as error:
            return json.loads(error.read() or b"{}") | {"http_status": error.code}

    def cli(self, *words):
        return subprocess.run(
            [
                os.path.join(self.build, "media-capabilities"),
                "worker",
                *words,
                "--state-dir",
                self.state,
            ],
            capture_output=True,
            text=True,
            timeout=30,
        )

    def worker_pid(self):
        """The `worker run` process itself: run-on's child."""
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    argv = f.read().split(b"\0")
                with open(f"/proc/{entry}/stat") as f:
                    parent = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            if (
                argv[1:3] == [b"worker", b"run"]
                and self.state.encode() in argv
                and parent == self.process.pid
            ):
                return int(entry)
        return None

    def runner_pid(self):
        """This worker's official runner: its child (workers on GPUs of the same address run
        runners of the same id)."""
        worker = self.worker_pid()
        if worker is None:
            return None
        out = subprocess.run(
            ["pgrep", "-P", str(worker), "-f", r"peertube-runner(\.later-bodies)?\.js --id gpu-"],
            capture_output=True,
            text=True,
        ).stdout.split()
        return int(out[0]) if out else None

    def stop(self):
        # The worker is a child of run-on, in the session the test gave it: SIGTERM goes to the
        # whole group, so the worker itself drains and stops its runner.
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=90)
        except subprocess.TimeoutExpired:
            pass
        except ProcessLookupError:
            pass
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait()
        self.log.close()


def make_clip(
    path,
    seconds,
    size="1280x720",
    video=("libx264", "-preset", "ultrafast"),
    rate=30,
    pix_fmt="yuv420p",
    extra=(),
):
    """A clip with a test picture and a tone; `video` is its encoder and that encoder's options,
    `extra` more output options (metadata, the muxer's flags)."""
    subprocess.run(
        [
            "ffmpeg",
            "-v",
            "error",
            "-y",
            "-f",
            "lavfi",
            "-i",
            f"testsrc2=size={size}:rate={rate}:duration={seconds}",
            "-f",
            "lavfi",
            "-i",
            f"sine=frequency=440:duration={seconds}",
            "-c:v",
            *video,
            "-pix_fmt",
            pix_fmt,
            "-c:a",
            "aac",
            "-shortest",
            *extra,
            path,
        ],
        check=True,
        env={**os.environ, "SVT_LOG": "1"},
    )


# PeerTube's RunnerJobState.COMPLETING and the states a job ends in (packages/models,
# runner-job-state.model.ts), and the states' names for a failure's words.
COMPLETING = 9
CANCELLED, PARENT_ERRORED, PARENT_CANCELLED = 6, 7, 8
ENDED = (COMPLETED, ERRORED, CANCELLED, PARENT_ERRORED, PARENT_CANCELLED)
FAILED_ENDS = (ERRORED, CANCELLED, PARENT_ERRORED, PARENT_CANCELLED)
STATE_NAMES = {
    PENDING: "Pending",
    PROCESSING: "Processing",
    COMPLETED: "Completed",
    ERRORED: "Errored",
    WAITING: "Waiting for parent",
    COMPLETING: "Completing",
    CANCELLED: "Cancelled",
    PARENT_ERRORED: "Parent errored",
    PARENT_CANCELLED: "Parent cancelled",
}
# PeerTube 7.2.1 can leave a job Completing for good on its own: when two jobs of one video
# finish together, the save that ends one fails to serialize and is not retried, though the
# server took the result and answered the runner's success 204. Such a job is done as far as
# the worker goes; it is told from a job the worker lost by the worker's record of that 204
# (its status document's recent_jobs), and by lasting: a job is Completing for half a second
# when nothing goes wrong.
STUCK_COMPLETING_S = 60


def orphaned(job):
    """Whether PeerTube left JOB waiting for a parent that already failed: its cascade of
    errors races now and then (7.2.1), and such a job never runs; it ended with its parent."""
    parent_state = ((job.get("parent") or {}).get("state") or {}).get("id")
    return job["state"]["id"] == WAITING and parent_state in FAILED_ENDS


def job_ended(job):
    return job["state"]["id"] in ENDED or orphaned(job)


class JobsDone:
    """For wait_for: the jobs of VIDEOS once each is Completed, or Completing for good after
    its worker saw PeerTube take its success; None before. DOCUMENTS gives the status documents
    of the workers that answer now; what they said of a success is kept, so that a worker gone
    since still counts."""

    def __init__(self, peertube, videos, documents, ends=(COMPLETED,)):
        """ENDS are the states a job is done in: COMPLETED, or every state a job ends in where
        a job may fail on its merits."""
        self.peertube, self.videos, self.documents = peertube, list(videos), documents
        self.ends = ends
        self.completing_since = {}
        self.taken = set()
        self.jobs, self.open = [], []

    def __call__(self):
        self.jobs = self.peertube.jobs(*self.videos)
        now = time.time()
        completing = [j["uuid"] for j in self.jobs if j["state"]["id"] == COMPLETING]
        for uuid_ in completing:
            self.completing_since.setdefault(uuid_, now)
        if completing:
            self.taken |= successes_taken(self.documents())
        done = {
            u
            for u in completing
            if now - self.completing_since[u] >= STUCK_COMPLETING_S and u in self.taken
        }
        self.open = [
            j
            for j in self.jobs
            if j["state"]["id"] not in self.ends
            and j["uuid"] not in done
            and not (ERRORED in self.ends and orphaned(j))
        ]
        return self.jobs if self.jobs and not self.open else None

    def said(self):
        """The check's words: how many jobs completed, and which PeerTube left Completing."""
        left = [j["uuid"][:8] for j in self.jobs if j["state"]["id"] == COMPLETING]
        return f"{len(self.jobs)} jobs completed" + (
            f", {len(left)} of them left Completing by PeerTube after it took their success "
            f"({', '.join(left)})"
            if left
            else ""
        )

    def open_jobs(self):
        """Each job not done yet, in a line of its own."""
        return "\n".join(describe_job(j) for j in self.open)


def successes_taken(documents):
    """The jobs whose success the workers' documents say PeerTube took (answered 2xx)."""
    return {
        j["uuid"]
        for document in documents
        for j in document.get("recent_jobs", [])
        if j.get("outcome") == "success" and 200 <= (j.get("server_status") or 0) < 300
    }


def describe_job(job):
    runner = (job.get("runner") or {}).get("name", "no runner")
    return (
        f"  {job['uuid'][:8]} {job['type']} {STATE_NAMES.get(job['state']['id'], job['state'])} "
        f"on {runner}, {job.get('failures', 0)} failures, updated {job.get('updatedAt')}"
        + (f", error: {job['error']}" if job.get("error") else "")
    )


def documents_of(*workers):
    """A function giving the status documents of those of WORKERS that answer now."""

    def read():
        found = []
        for worker in workers:
            try:
                found.append(worker.status())
            except (OSError, ValueError):
                pass  # A worker stopped or stopped on purpose says nothing.
        return found

    return read


def upload_done(peertube, video, *workers):
    """A wait's predicate for one upload's jobs, ended on WORKERS."""
    return JobsDone(peertube, [video], documents_of(*workers))


def job_argv_lines(argv_log):
    if not os.path.exists(argv_log):
        return []
    with open(argv_log) as f:
        # The jobs' ffmpeg runs in the runner's work directory; the self-test's elsewhere.
        return [line for line in f if "/transcoding\t" in line.split("\t")[0] + "\t"]


def free_ports(count, host="0.0.0.0"):
    """COUNT ports that nothing listens on now on HOST (the wildcard: on no address). They are
    below 32768, where Linux takes the ports of outgoing connections, so none takes them."""
    ports = []
    for port in random.sample(range(20000, 32768), 500):
        with socket.socket() as s:
            try:
                s.bind((host, port))
            except OSError:
                continue
        ports.append(port)
        if len(ports) == count:
            return ports
    raise Failure(f"no {count} free ports on {host} between 20000 and 32767")


class Kit:
    """PeerTube for one run, started by start-peertube in ROOT/peertube: its server, database
    and Redis listen on ports free when it starts, which ROOT/peertube/instance.env records
    with the URL. Its admin and a registration token go to a file (mode 0600); stop() stops it."""

    def __init__(self, args, root):
        self.args = args
        self.state = os.path.join(root, "peertube")
        self.start()

    def start(self):
        subprocess.run(
            [os.path.join(REPO, "tests/peertube/start-peertube"), self.args.cache, self.state],
            check=True,
            stdout=subprocess.DEVNULL,
        )

    def connect(self, root):
        self.instance = read_env_file(os.path.join(self.state, "instance.env"))
        self.peertube = PeerTube(
            self.instance["PEERTUBE_URL"],
            self.instance["PEERTUBE_ADMIN_USER"],
            self.instance["PEERTUBE_ADMIN_PASSWORD"],
        )
        self.registration_file = os.path.join(root, "registration-token")
        with open(self.registration_file, "w") as f:
            f.write(self.peertube.registration_token() + "\n")
        os.chmod(self.registration_file, 0o600)
        return self.peertube

    def admin_credentials_file(self, root):
        """The admin's username and password, one a line, in ROOT/peertube-admin (mode 0600),
        as the pool manager reads them."""
        path = os.path.join(root, "peertube-admin")
        with open(path, "w") as f:
            f.write(
                self.instance["PEERTUBE_ADMIN_USER"]
                + "\n"
                + self.instance["PEERTUBE_ADMIN_PASSWORD"]
                + "\n"
            )
        os.chmod(path, 0o600)
        return path

    def restart_server(self):
        """Stops the PeerTube server alone (its database and Redis keep running) and starts it
        again, as an admin's `systemctl restart peertube` does."""
        with open(os.path.join(self.state, "run", "server.pid")) as f:
            pid = int(f.read().split()[0])
        os.kill(pid, signal.SIGTERM)
        wait_for("the PeerTube server to stop", lambda: not os.path.exists(f"/proc/{pid}"), 60, 0.5)
        self.start()
        # The workers know the server by its URL: it must come back at the same port.
        url = read_env_file(os.path.join(self.state, "instance.env"))["PEERTUBE_URL"]
        was = self.instance["PEERTUBE_URL"]
        check(url == was, f"PeerTube is back at {was}" + ("" if url == was else f", not {url}"))

    def stop(self):
        subprocess.run(
            [os.path.join(REPO, "tests/peertube/stop-peertube"), self.state],
            stdout=subprocess.DEVNULL,
        )


def read_env_file(path):
    """The NAME=value lines of PATH, as the PeerTube scripts write them."""
    with open(path) as f:
        return dict(line.rstrip("\n").split("=", 1) for line in f if "=" in line)


def parse_arguments(extra=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", required=True)
    parser.add_argument(
        "--cache", required=True, help="the PeerTube build of tests/peertube/build-peertube"
    )
    if extra:
        extra(parser)
    args = parser.parse_args()
    args.build = os.path.abspath(args.build)
    built = os.path.join(args.cache, "peertube.env")
    if not os.path.isfile(built):
        sys.exit(f"FAILED: {args.cache} holds no PeerTube build; run make peertube")
    build = read_env_file(built)
    args.runner_js = build["PEERTUBE_RUNNER"]
    # The Node PeerTube was built with: the machine's own may be older than 20.
    args.node = build["PEERTUBE_NODE"]
    return args


def new_root(prefix):
    root = tempfile.mkdtemp(prefix=prefix, dir="/tmp")
    os.chmod(root, 0o755)
    return root


def finish(failed, root, log_name, log_tail):
    """Says how the run ended: its failure with the end of a log, keeping ROOT; else removes it."""
    if failed:
        print(f"FAILED: {failed}", flush=True)
        if log_tail:
            print(f"--- {log_name} log (end) ---\n" + log_tail())
        print(f"(everything is kept in {root})")
        return 1
    shutil.rmtree(root, ignore_errors=True)
    print("all cases passed")
    return 0


def check_pages_in_browser(args, *flags):
    """The admin's pages in headless Chromium (tests/browser/check_pages.py), one browser
    session for every page `flags` names, under the virtual environment `make browser-deps`
    makes beside the build."""
    python = os.path.join(args.build, "browser-venv", "bin", "python")
    if not os.path.exists(python):
        raise Failure(f"{python} is missing: run make browser-deps")
    checked = subprocess.run(
        [python, os.path.join(REPO, "tests/browser/check_pages.py"), *flags],
        capture_output=True,
        text=True,
        timeout=180,
    )
    print(checked.stdout, end="", flush=True)
    check(
        checked.returncode == 0,
        f"the pages hold in a real browser{': ' + checked.stderr[-2000:] if checked.returncode else ''}",
    )
