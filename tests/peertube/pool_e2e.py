#!/usr/bin/env python3
"""The pool manager end to end on real parts.

The real PeerTube server (real PostgreSQL and Redis), three `media-capabilities worker run` on
the fake NVIDIA GPU of tests/fakenv, each with its own real official runner, and
`media-capabilities pool run` reading PeerTube's admin API and the workers' status documents
and admitting and draining the workers through their control API. A burst of uploads: the
manager promotes SPARE workers as the pressure rises, every job completes on the GPU, a
worker that stops answering changes nothing, and once the queue is empty the workers drain
back to SPARE without a job interrupted. Then a worker on the fake Intel GPU joins them
under a manager whose policy disables the NVIDIA vendor, and carries an upload alone; under a
manager that disables no vendor, an AV1 upload's first job, whose input is AV1, goes to an
NVIDIA worker (the fake states AV1 decode) and never to the Intel one (its dump does not),
which the manager holds to a list of the jobs it may take.

    pool_e2e.py --build BUILD --cache CACHE
"""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import harness
from fault_proxy import FaultProxy
from harness import COMPLETING, INTEL_DUMP, REPO, Failure, Worker, check, make_clip, wait_for

WORKERS = ("gpu0", "gpu1", "gpu2")
# A promotion and a demotion in the manager's log, under either profile: the design's rules
# promote on the pressure, the work-aware sizing enables for the queued work.
PROMOTION = (
    r"(e2e:\S+) (?:promoted to ACTIVE .*P (\S+) >=|enabled at concurrency \d+, its service up)"
)
DEMOTION = r"demoted \(drain, then SPARE\)|drained, its service up, finishing"
# Short windows, so that a burst of a few minutes shows every rule; the rules are the
# policy's own (docs/pool/design.md), only the numbers are smaller.
UP_WINDOW_S, UP_WINDOWS = 6, 2
POLICY = f"""policy:
  cycle: 3s
  target_wait: 15s
  pressure:
    depth_waves: 1
    age_full: 120s
  hysteresis:
    up_threshold: 0.5
    up_window: {UP_WINDOW_S}s
    up_windows: {UP_WINDOWS}
    promotion_spacing: 9s
    down_threshold: 0.15
    down_sustain: 20s
    idle_before_demote: 15s
    min_active: 1
"""


class Pool:
    """One `pool run`, as an operator starts it, with its file written from the workers."""

    def __init__(
        self,
        args,
        root,
        peertube_url,
        credentials_file,
        workers,
        name="pool",
        settings="",
        more_workers="",
        dry_run=False,
    ):
        """`settings` are more lines of its policy section (vendor_disabled, say);
        `more_workers` more entries of its list of workers, as YAML."""
        self.dir = os.path.join(root, name)
        os.makedirs(self.dir)
        config = os.path.join(self.dir, "pool.yaml")
        with open(config, "w") as f:
            f.write(
                f"peertube:\n  url: {peertube_url}\n  credentials_file: {credentials_file}\n"
                "  poll: 3s\ncontrol: workers\nlisten: 127.0.0.1:0\n"
                f"dry_run: {'true' if dry_run else 'false'}\nworkers:\n"
            )
            for worker in workers:
                f.write(
                    f"  - name: e2e:{worker.name}\n    url: {worker.status_url}\n"
                    f"    control_url: {worker.control_url}\n"
                    f"    control_token_file: {worker.token_file}\n"
                )
            f.write(more_workers + POLICY + settings)
        self.log_path = os.path.join(self.dir, "pool.log")
        self.log = open(self.log_path, "w")
        self.binary = os.path.join(args.build, "media-capabilities")
        # Every cycle's inputs and decisions, replayed in the simulator at the burst's end.
        self.record_path = os.path.join(self.dir, "record.jsonl")
        self.process = subprocess.Popen(
            [self.binary, "pool", "run", "--config", config, "--record", self.record_path],
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        line = wait_for("the pool's report address in its log", self.address, 30, 0.5)
        self.url = "http://" + line

    def address(self):
        if self.process.poll() is not None:
            raise Failure(f"the pool manager exited with {self.process.returncode}: {self.tail()}")
        found = re.search(r"pool run: report on (\S+) ", self.text())
        return found.group(1) if found else None

    def text(self):
        with open(self.log_path) as f:
            return f.read()

    def tail(self):
        return self.text()[-4000:]

    def report(self):
        with urllib.request.urlopen(self.url + "/status", timeout=10) as response:
            return json.loads(response.read())

    def metrics(self):
        with urllib.request.urlopen(self.url + "/metrics", timeout=10) as response:
            return response.read().decode()

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


def case_vendor_disabled(
    args, peertube, workers, root, argv_log, credentials_file, registration_file
):
    print(
        "case: NVIDIA and Intel workers under one pool manager: vendor_disabled: [nvidia] drains "
        "the NVIDIA workers and the Intel worker carries the queue",
        flush=True,
    )
    fault_file = os.path.join(root, "intel0-fault")
    open(fault_file, "w").close()
    intel = Worker(
        args,
        root,
        "intel0",
        peertube.url,
        registration_file,
        fault_file,
        argv_log,
        va_dump=INTEL_DUMP,
        extra=("--concurrency-max", "2"),
    )
    intel.name = "intel0"
    intel.token_file = os.path.join(intel.dir, "control-token")
    every = [*workers, intel]
    pool = None
    try:
        admitting = [w.name for w in workers if w.status()["state"] in ("AVAILABLE", "BUSY")]
        pool = Pool(
            args,
            root,
            peertube.url,
            credentials_file,
            every,
            name="pool-vendors",
            settings="  vendor_disabled: [nvidia]\n",
        )
        states = wait_for(
            "the NVIDIA workers drained and the Intel worker admitting jobs",
            lambda: (s := admissions(every))
            and s["intel0"] == "AVAILABLE"
            and all(s[w.name] in ("DRAINED", "GPU_UNAVAILABLE") for w in workers)
            and s,
            90,
            1,
        )
        check(True, f"the pool drained every NVIDIA worker and admits on the Intel one: {states}")
        # A new manager takes every worker as SPARE: one that admits jobs is drained back, and
        # with its vendor disabled an NVIDIA worker is no candidate for a promotion.
        check(
            all(f"e2e:{name} drained" in pool.text() for name in admitting),
            f"the NVIDIA workers that admitted jobs ({admitting}) were drained",
        )
        before = {w.name: w.status()["jobs"]["completed"] for w in workers}
        lines_before = len(harness.job_argv_lines(argv_log))
        clip = os.path.join(root, "vendors.mp4")
        make_clip(clip, 4)
        video = peertube.upload(clip, "e2e-vendors")
        jobs = wait_burst_done(peertube, [video], every)
        names = {j["runner"]["name"] for j in jobs}
        check(names == {"e2e:intel0"}, f"every job ran on the Intel worker: {sorted(names)}")
        check(
            all(w.status()["jobs"]["completed"] == before[w.name] for w in workers),
            "the NVIDIA workers took no job",
        )
        lines = harness.job_argv_lines(argv_log)[lines_before:]
        check(
            lines and all("h264_vaapi" in line for line in lines),
            f"each of the {len(lines)} ffmpeg runs encoded with h264_vaapi",
        )
        promoted = re.findall(r"e2e:gpu\d promoted|enable e2e:gpu\d", pool.text())
        check(
            not promoted,
            f"no NVIDIA worker was promoted while the upload's jobs waited: {promoted}",
        )
        managed = {w["name"]: w["manager_state"] for w in pool.report()["workers"]}
        check(
            managed["e2e:intel0"] == "ACTIVE"
            and all(managed[f"e2e:{w.name}"] != "ACTIVE" for w in workers),
            f"the report holds the Intel worker ACTIVE and no NVIDIA one: {managed}",
        )
        pool.stop()
        pool = None
        check_av1_source_skips_the_intel_worker(
            args, peertube, workers, intel, every, root, credentials_file
        )
        check_session_shift_hands_small_jobs_to_intel(args, peertube, every, root, credentials_file)
    finally:
        if pool:
            pool.stop()
        intel.stop()


def check_av1_source_skips_the_intel_worker(
    args, peertube, workers, intel, every, root, credentials_file
):
    """An AV1 upload under a manager of every vendor: the job that reads the AV1 file runs on an
    NVIDIA worker, while the Intel worker, which states no AV1 decode, is held to a job list."""
    print("case: an AV1 source goes only to a worker that states AV1 decode", flush=True)
    pool = Pool(args, root, peertube.url, credentials_file, every, name="pool-av1")
    try:
        wait_for(
            "the Intel worker given its job list",
            lambda: "worker: eligibility jobs=" in intel.tail(),
            60,
            1,
        )
        check(True, "the manager sent the Intel worker a job list")
        clip = os.path.join(root, "av1-source.mp4")
        make_clip(clip, 4, video=("libsvtav1", "-preset", "12"))
        video = peertube.upload(clip, "e2e-av1-source")
        jobs = wait_burst_done(peertube, [video], every)
        runs = {
            j["uuid"]: j for d in harness.documents_of(*every)() for j in d.get("recent_jobs", [])
        }
        av1 = [uuid for uuid, j in runs.items() if (j.get("source") or {}).get("codec") == "av1"]
        ran_on = {j["uuid"]: j["runner"]["name"] for j in jobs}
        check(
            av1 and all(ran_on.get(uuid, "").startswith("e2e:gpu") for uuid in av1),
            f"the jobs that read the AV1 file ({len(av1)}) ran on NVIDIA workers: "
            f"{[ran_on.get(uuid) for uuid in av1]}",
        )
        intel_runs = [
            j
            for j in intel.status().get("recent_jobs", [])
            if (j.get("source") or {}).get("codec") == "av1"
        ]
        check(not intel_runs, f"the Intel worker decoded no AV1 source: {intel_runs}")
        listed = re.findall(
            r"set-classes e2e:intel0 to \S+ listing \d+ job\(s\): done", pool.text()
        )
        check(listed, f"the manager's log shows the Intel worker's lists: {listed[:2]}")
    finally:
        pool.stop()


def check_session_shift_hands_small_jobs_to_intel(args, peertube, every, root, credentials_file):
    """NVENC near its cap under a manager that keeps 7 of the fake's 8 sessions in reserve:
    an NVIDIA worker that runs one encode is shifted to L and XL, its gate listed none of the
    upload's small jobs, and the Intel worker takes them."""
    print("case: NVENC near its session cap shifts S and M jobs to the VA-API worker", flush=True)
    pool = Pool(
        args,
        root,
        peertube.url,
        credentials_file,
        every,
        name="pool-shift",
        settings="  nvenc_session_reserve: 7\n",
    )
    try:
        clip = os.path.join(root, "shift.mp4")
        make_clip(clip, 4)
        video = peertube.upload(clip, "e2e-session-shift")
        jobs = wait_burst_done(peertube, [video], every)
        shifted = re.findall(
            r"(e2e:gpu\d) takes no S or M jobs for now: NVENC sessions \d+ of 8", pool.text()
        )
        check(
            shifted, f"the manager shifted the NVIDIA workers that encoded: {sorted(set(shifted))}"
        )
        listed = re.findall(
            r"set-classes (e2e:gpu\d) to L\+XL listing (\d+) job\(s\): done", pool.text()
        )
        check(
            listed and {name for name, _ in listed} >= set(shifted),
            f"each shifted worker's gate was given its list of L and XL jobs: {listed[:4]}",
        )
        names = [j["runner"]["name"] for j in jobs]
        check(
            "e2e:intel0" in names,
            f"the Intel worker took the small jobs the shifted workers left: {sorted(names)}",
        )
    finally:
        pool.stop()


def admissions(workers):
    return {w.name: w.status()["state"] for w in workers}


def start_workers(args, root, peertube, registration_file, argv_log):
    # The three workers share the one fake GPU model; the first one's self-test stands for
    # the others (the same record, the same ffmpeg), so that the test pays for it once.
    workers = []
    for name in WORKERS:
        state = os.path.join(root, name, "state")
        if workers:
            os.makedirs(state)
            for report in os.listdir(workers[0].state):
                if report.startswith("self-test-"):
                    shutil.copy(os.path.join(workers[0].state, report), state)
        # Each fake GPU has a fault file of its own, so that one can fail alone.
        fault_file = os.path.join(root, name + "-fault")
        open(fault_file, "w").close()
        worker = Worker(
            args,
            root,
            name,
            peertube.url,
            registration_file,
            fault_file,
            argv_log,
            extra=("--concurrency-max", "2"),
        )
        worker.name = name
        worker.fault_file = fault_file
        worker.token_file = os.path.join(worker.dir, "control-token")
        workers.append(worker)
    for worker in workers:
        wait_for(
            f"{worker.name}'s runner asking its gate for jobs",
            lambda w=worker: "gate: jobs-request:" in w.tail(),
            240,
            1,
        )
    return workers


class BurstWatch:
    """Samples the burst every half second, in a thread of its own, from the burst's start:
    when the manager's first promotion came, and how many workers admitted jobs at once at
    most. The overlap of two admitting workers may be over before the GPU fault and PeerTube's
    faults have run, so sampling only afterwards could miss it."""

    def __init__(self, workers, pool):
        self.workers, self.pool = workers, pool
        self.first_promotion = None
        self.most_admitting = 0
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.watch, daemon=True)

    def start(self):
        self.thread.start()

    def stop(self):
        self.stopping.set()

    def admitting_now(self):
        count = 0
        for worker in self.workers:
            try:
                count += worker.status()["state"] in ("AVAILABLE", "BUSY")
            except (OSError, ValueError, KeyError):
                pass  # A worker that does not answer (stopped on purpose below) admits nothing.
        return count

    def watch(self):
        while not self.stopping.is_set():
            self.most_admitting = max(self.most_admitting, self.admitting_now())
            try:
                if (
                    self.first_promotion is None
                    and self.pool.report()["counters"]["promotions"] > 0
                ):
                    self.first_promotion = time.time()
            except (OSError, ValueError, KeyError):
                pass
            time.sleep(0.5)


def case_burst(args, peertube, workers, pool, root, argv_log, faults=None):
    print(
        "case: a burst of uploads is served by promoted workers, which drain back after", flush=True
    )
    states = wait_for(
        "the pool to hold one worker ACTIVE and the others SPARE",
        lambda: (s := admissions(workers))
        and sorted(s.values()) == ["AVAILABLE", "DRAINED", "DRAINED"]
        and s,
        60,
        1,
    )
    check(True, f"before the burst one worker admits jobs and two are drained: {states}")
    clips = []
    for i in range(3):
        clips.append(os.path.join(root, f"burst{i}.mp4"))
        make_clip(clips[-1], 8)
    # When the first promotion comes, against the policy's own minimum (its windows): a figure
    # for the note, not a timed assertion.
    watch = BurstWatch(workers, pool)
    burst_at = time.time()
    videos = [peertube.upload(clip, f"e2e-burst-{i}") for i, clip in enumerate(clips)]
    watch.start()
    # The admin's pages are read in a browser while the burst waits in the queue.
    pages = threading.Thread(
        target=check_pages_during_burst, args=(args, peertube, workers, pool, root)
    )
    pages.start()
    check_a_silent_worker_changes_nothing(workers, pool)
    pages.join()
    if pages.failure:
        raise pages.failure
    first = fail_the_first_gpu_mid_job(workers, states, pool, watch)
    if faults:
        faults(videos)

    jobs = wait_burst_done(peertube, videos, workers)
    watch.stop()
    if watch.first_promotion:
        print(
            f"  figure: the first promotion came {watch.first_promotion - burst_at:.1f} s after "
            "the "
            f"burst began (the work-aware sizing enables at once; the design's rules would wait "
            f"{UP_WINDOWS} windows of {UP_WINDOW_S} s = {UP_WINDOWS * UP_WINDOW_S} s)",
            flush=True,
        )
    promotions = check_promoted_workers_served(pool, jobs, watch.most_admitting)
    check_only_the_failed_gpu_retried(jobs, workers, first, argv_log)
    check_drained_back_to_spare(workers, pool, promotions)

    rss_kib, cpu_share = idle_cost(pool.process.pid, 20)
    print(
        f"  figure: the idle manager: {rss_kib / 1024:.1f} MiB resident, {cpu_share * 100:.2f} % "
        "of a "
        f"core over 20 s",
        flush=True,
    )
    check_report_status_and_metrics(pool)
    check_monitoring_against_live_scrapes(pool, workers)
    replay_the_record(pool)


# A worker's name as a hostile operator or a compromised inventory could write it: the page must
# show it as text, and nothing in it may run.
HOSTILE_NAME = 'e2e:<script>window.pwned=1</script><img src=x onerror="window.pwned=2">'


def check_pages_during_burst(args, peertube, workers, pool, root):
    """The pool's page in a real browser, while the burst waits: the workers, their states and
    the queue that /status reports, nothing logged, nothing fetched from elsewhere. Beside it a
    dry-run manager of the same workers and one named with markup and script, which its page
    shows as text. Runs in a thread: a failure is kept for the caller."""
    threading.current_thread().failure = None
    hostile = None
    try:
        entry = (
            f"  - name: {json.dumps(HOSTILE_NAME)}\n    url: http://127.0.0.1:9\n"
            f"    control_url: http://127.0.0.1:9\n"
            f"    control_token_file: {workers[0].token_file}\n"
        )
        hostile = Pool(
            args,
            root,
            peertube.url,
            pool_credentials(pool),
            workers,
            name="pool-hostile-name",
            more_workers=entry,
            dry_run=True,
        )
        wait_for(
            "the dry-run manager's first report",
            lambda: any(w["name"] == HOSTILE_NAME for w in hostile.report()["workers"]),
            30,
            0.5,
        )
        # The page is best checked with jobs in its queue; the burst's first jobs wait a few
        # seconds for a worker. If they are taken first, an empty queue is checked all the same.
        deadline = time.time() + 20
        while time.time() < deadline and not pool.report()["queue"]["by_class"]:
            time.sleep(0.5)
        # The simulator's page of a shipped trace, in the same browser session.
        traces = os.path.join(REPO, "bench/pool/pool_traces")
        page_file = os.path.join(root, "simulated.html")
        subprocess.run(
            [pool.binary, "pool", "simulate", "--trace", os.path.join(traces, "burst.jsonl")]
            + ["--workers", os.path.join(traces, "workers.yaml"), "--html", page_file],
            check=True,
            capture_output=True,
            timeout=120,
        )
        simulated = simulated_names(os.path.join(traces, "workers.yaml"))
        harness.check_pages_in_browser(
            args,
            *("--pool", pool.url, "--pool", hostile.url, "--hostile", HOSTILE_NAME),
            *("--file", page_file, "--file-workers", ",".join(simulated)),
        )
    except Exception as error:  # handed to the burst's own thread, which raises it
        threading.current_thread().failure = error
    finally:
        if hostile:
            hostile.stop()


def simulated_names(workers_file):
    """The workers a workers file makes: NAME, or NAME-1 ... NAME-count."""
    names = []
    with open(workers_file) as f:
        for line in f:
            if found := re.match(r"\s*- name:\s*(\S+)", line):
                names.append([found.group(1), 1])
            elif names and (found := re.match(r"\s*count:\s*(\d+)", line)):
                names[-1][1] = int(found.group(1))
    return [n if count == 1 else f"{n}-{i}" for n, count in names for i in range(1, count + 1)]


def pool_credentials(pool):
    """The credentials file `pool` was started with, from its own file."""
    with open(os.path.join(pool.dir, "pool.yaml")) as f:
        return re.search(r"credentials_file: (\S+)", f.read()).group(1)


def check_a_silent_worker_changes_nothing(workers, pool):
    """A worker that stops answering for a while: the manager counts it as no capacity and
    changes nothing for it; its jobs, if any, carry on once it answers again."""
    spare = next(w for w in workers if w.status()["state"] == "DRAINED")
    os.kill(worker_pid(spare), signal.SIGSTOP)
    time.sleep(12)
    os.kill(worker_pid(spare), signal.SIGCONT)
    check(
        f"e2e:{spare.name}: status unreadable" in pool.text(),
        f"the manager saw {spare.name} stop answering",
    )


def fail_the_first_gpu_mid_job(workers, states, pool, watch):
    """The GPU of the worker that was ACTIVE from the start fails mid-job: the manager drains it
    at once, whatever the pressure, and PeerTube gives its job to another worker. It fails
    only once the pressure has promoted a worker, so that two workers admit at once whatever
    the machine's pace (a fault drained before the first promotion would leave one). Gives
    that worker."""
    wait_for("the manager's first promotion on pressure", lambda: watch.first_promotion, 120, 0.5)
    first = next(w for w in workers if states[w.name] == "AVAILABLE")
    wait_for(
        f"{first.name} to run a job's ffmpeg",
        lambda: subprocess.run(
            ["pgrep", "-f", "h264_nvenc.*" + first.dir], capture_output=True
        ).returncode
        == 0,
        300,
        0.3,
    )
    with open(first.fault_file, "w") as f:
        f.write("encode-fails-after:10\n")
    wait_for(
        "the manager to drain the failed worker",
        lambda: f"e2e:{first.name} drained at once" in pool.text(),
        120,
        1,
    )
    check(True, f"the manager drained {first.name} at once when its GPU failed")
    with open(first.fault_file, "w") as f:
        f.write("")
    return first


def check_promoted_workers_served(pool, jobs, most_admitting):
    """The manager promoted SPARE workers, two admitted at once, and a promoted one took part of
    the burst. Gives the promotions, as (worker, pressure) pairs."""
    promotions = re.findall(PROMOTION, pool.text())
    check(
        len(promotions) >= 1,
        f"the manager promoted SPARE workers as the pressure rose: {promotions}",
    )
    check(most_admitting >= 2, f"up to {most_admitting} workers admitted jobs at once")
    # Whether a second promotion comes depends on how the real queue moves after the faults
    # below; what must hold is that the burst ran on the pool's workers and a promoted one
    # took part of it.
    names = {j["runner"]["name"] for j in jobs}
    promoted = {name for name, _ in promotions}
    check(
        names <= {f"e2e:{w}" for w in WORKERS} and names & promoted,
        f"the jobs ran on the pool's workers, among them a promoted one: {sorted(names)}",
    )
    return promotions


def jobs_met_by_the_restart(worker):
    """The jobs whose success report reached PeerTube while it restarted: the server answered
    5xx, the runner then reported an error, and PeerTube counts a failure no GPU caused."""
    with open(worker.log_path) as f:
        return set(
            re.findall(r"gate: job ([0-9a-f-]+) success, the server answered 5\d\d", f.read())
        )


def check_only_the_failed_gpu_retried(jobs, workers, first, argv_log):
    """How many jobs the failed GPU takes before the drain lands depends on timing: a re-probe
    that passes between two failed encodes opens the worker again for a moment. What must
    hold is that every retried job failed on that GPU (the others fail none, but for a job
    whose success report met PeerTube's restart) and completed;
    on another worker, or on that one, since its fault is cleared once it is drained and the
    pool may take it back for the rest of the burst."""
    met = {worker.name: jobs_met_by_the_restart(worker) for worker in workers}
    every_met = set().union(*met.values())
    retried = [j for j in jobs if j.get("failures", 0) > 0 and j["uuid"] not in every_met]
    failed_on_first = first.status()["jobs"]["failed"]
    check(
        1 <= len(retried) <= failed_on_first,
        f"only the failed GPU's jobs were retried ({failed_on_first} failed on it), and each "
        f"completed: {[(j['uuid'][:8], j['runner']['name']) for j in retried]}"
        + (f"; {len(every_met)} more met PeerTube's restart" if every_met else ""),
    )
    for worker in workers:
        status = worker.status()
        failed = status["jobs"]["failed"]
        check(
            (failed >= 1 if worker is first else failed <= len(met[worker.name]))
            and status["jobs"]["hw_fallback_prevented"] == 0,
            f"{worker.name}: {status['jobs']['completed']} jobs completed, {failed} failed",
        )
        if worker is not first:
            evidence = status["hw_evidence_last_job"]
            check(
                evidence is None or evidence["ok"],
                f"{worker.name}: its last job had hardware evidence",
            )
    lines = harness.job_argv_lines(argv_log)
    check(lines and not any("libx264" in line for line in lines), "no job's ffmpeg ran libx264")


def check_drained_back_to_spare(workers, pool, promotions):
    """Once the queue is empty the pool is back to one ACTIVE worker. The failed worker may rest
    GPU_UNAVAILABLE (nothing asked it to serve again): that too takes no job."""
    states = wait_for(
        "the workers to drain back to SPARE once the queue is empty",
        lambda: (s := admissions(workers))
        and list(s.values()).count("AVAILABLE") == 1
        and all(v in ("AVAILABLE", "DRAINED", "GPU_UNAVAILABLE") for v in s.values())
        and s,
        180,
        2,
    )
    check(True, f"after the burst the pool is back to one ACTIVE worker: {states}")
    # How many workers the burst promoted depends on how the real queue moved (one promotion
    # while the first worker's GPU is failing leaves exactly one ACTIVE, and nothing to demote).
    # What must hold: every promoted worker that no longer admits was demoted or drained for
    # its fault.
    text = pool.text()
    demoted = set(re.findall(r"(e2e:\S+) (?:" + DEMOTION + ")", text))
    left = sorted({name for name, _ in promotions if states[name.split(":", 1)[1]] != "AVAILABLE"})
    unexplained = [
        name for name in left if name not in demoted and f"{name} drained at once" not in text
    ]
    check(
        not unexplained,
        f"every promoted worker that stopped admitting ({left}) was demoted "
        f"({sorted(demoted)}) or drained for its fault; unexplained: {unexplained}",
    )


def check_report_status_and_metrics(pool):
    """The manager's report, `pool status` and its metrics say what the burst did, and it sent
    PeerTube about one request a read of the queue."""
    report = pool.report()
    check(
        len(report["workers"]) == 3 and report["queue"]["read_ok"],
        f"the report lists the three workers and a fresh queue: "
        f"{[(w['name'], w['manager_state']) for w in report['workers']]}",
    )
    table = subprocess.run(
        [pool.binary, "pool", "status", "--url", pool.url],
        capture_output=True,
        text=True,
        timeout=30,
    )
    check(
        table.returncode == 0 and all(f"e2e:{w}" in table.stdout for w in WORKERS),
        "pool status prints a line per worker",
    )
    metrics_file = os.path.join(pool.dir, "metrics.txt")
    with open(metrics_file, "w") as f:
        f.write(pool.metrics())
    parsed = subprocess.run(
        ["/usr/bin/python3", os.path.join(REPO, "tests/worker/parse_metrics.py"), metrics_file],
        capture_output=True,
        text=True,
        timeout=30,
    )
    check(
        parsed.returncode == 0, f"the metrics parse with prometheus_client {parsed.stderr.strip()}"
    )
    families = json.loads(parsed.stdout)
    promoted = families["pt_pool_promotions"]["samples"][0][2]
    check(promoted >= 1, f"pt_pool_promotions_total counts the promotions: {promoted}")
    counters = report["counters"]
    per_read = counters["peertube_requests"] / max(1, counters["queue_reads"])
    check(
        per_read < 2,
        f"PeerTube was sent {counters['peertube_requests']} requests for "
        f"{counters['queue_reads']} reads of the queue: {per_read:.2f} a read (the bare minimum is "
        f"one list a read; the rest are the login and each new video's facts)",
    )


def check_monitoring_against_live_scrapes(pool, workers):
    """The alerts and dashboards of deploy/monitoring/ name only metrics and labels that this
    run's manager and workers really serve (tests/deploy/monitoring/check-monitoring, on the
    scrapes saved beside the pool's log)."""
    scrapes = [os.path.join(pool.dir, "metrics.txt")]
    for worker in workers:
        path = os.path.join(pool.dir, f"worker-{worker.name}-metrics.txt")
        with urllib.request.urlopen(worker.status_url + "/metrics", timeout=10) as response:
            with open(path, "wb") as f:
                f.write(response.read())
        scrapes.append(path)
    checked = subprocess.run(
        [os.path.join(REPO, "tests/deploy/monitoring/check-monitoring"), *scrapes],
        capture_output=True,
        text=True,
        timeout=120,
    )
    check(
        checked.returncode == 0,
        f"the monitoring rules and dashboards hold against the live scrapes: "
        f"{checked.stdout.strip().splitlines()[-1:]}{checked.stdout if checked.returncode else ''}",
    )


def replay_the_record(pool):
    """The run's record fed to the policy alone gives exactly the recorded decisions (--strict).
    Replayed in the simulator, from the record's jobs with their every run, its workers and its
    faults, PeerTube's among them, every job completes; whether its promotions and demotions are
    the real ones, in the same order and each within a cycle, is a figure here: a decision that
    the real run took at the last moment of its window turns on less than the record's second,
    so a live run agrees most of the time, not always. The agreement itself is held, exactly,
    on real runs' records in tests/pool/replay. POOL_E2E_RECORD_COPY keeps a copy of the
    record."""
    copy = os.environ.get("POOL_E2E_RECORD_COPY")
    if copy:
        shutil.copy(pool.record_path, copy)
    argv = [pool.binary, "pool", "replay", "--record", pool.record_path]
    strict = subprocess.run(argv + ["--strict"], capture_output=True, text=True, timeout=120)
    print(strict.stdout.rstrip(), flush=True)
    # The verdict is the output's last line; an unreadable record is said on stderr.
    said = (strict.stdout.strip().splitlines() or [""])[-1] + strict.stderr.strip()[-2000:]
    check(
        strict.returncode == 0,
        f"the record replayed through the policy alone agrees with the real run: {said}",
    )
    simulated = subprocess.run(argv + ["-o", "json"], capture_output=True, text=True, timeout=120)
    try:
        replay = json.loads(simulated.stdout)
    except ValueError:
        raise Failure(f"the simulator's replay of the record: {simulated.stderr.strip()[-2000:]}")
    result = replay["simulated"]
    check(
        result["jobs"] > 0 and result["completed"] == result["jobs"],
        f"the simulator replays the record to its end: {result['completed']} of its "
        f"{result['jobs']} jobs complete",
    )
    rows = [
        (r["real"] or r["simulated"])["decision"]
        + " of "
        + (r["real"] or r["simulated"])["worker"]
        + (": agrees" if r["agrees"] else ": differs")
        for r in replay["rows"]
    ]
    print(
        f"  figure: the simulator's replay {'agrees' if replay['agree'] else 'differs'}: "
        f"{replay.get('first_disagreement') or 'every decision within a cycle'} "
        f"({'; '.join(rows)})",
        flush=True,
    )


# PeerTube's faults, through the fault proxy, while the burst's jobs wait: the manager's reads
# of the admin API answered 429 (its Retry-After covering the window), then 500, then the real
# server restarted with its database and Redis kept. Each window is a few polls long, so that
# the manager meets it more than once (the 500 window four polls long, so that even a slow
# cycle reads it twice), and all of them together are well inside a burst.
FAULT_429_S, FAULT_500_S = 10, 12
HELD_JOB_STATES = (harness.PENDING, harness.PROCESSING, harness.WAITING)


# A burst whose jobs stop moving for longer than PeerTube's stall timeout (two minutes, then
# a watchdog pass every 30 s) will not end: the wait stops there rather than at its limit.
STILL_S, BURST_LIMIT_S = 300, 900


def wait_burst_done(peertube, videos, workers):
    """Waits until every job of the burst is done (harness.JobsDone); fails naming each job
    still open once none has moved for STILL_S."""
    done = harness.JobsDone(peertube, videos, harness.documents_of(*workers))
    moved_at, last = time.time(), None
    started = moved_at
    while True:
        jobs = done()
        now = time.time()
        if jobs:
            check(True, "every job of the burst completed: " + done.said())
            return jobs
        states = sorted((j["uuid"], j["state"]["id"]) for j in done.jobs)
        if states != last:
            moved_at, last = now, states
        if now - moved_at > STILL_S or now - started > BURST_LIMIT_S:
            raise Failure(
                f"the burst's jobs did not all complete; after {now - started:.0f} s, "
                f"{now - moved_at:.0f} s without a change, these are open:\n" + done.open_jobs()
            )
        time.sleep(2)


def workers_runs(workers):
    """Each worker's jobs, ffmpeg runs and refusals as its log says them."""
    said = []
    for worker in workers:
        with open(worker.log_path) as f:
            lines = [
                line.rstrip()
                for line in f
                if re.search(
                    r"worker: ffmpeg of|no hardware evidence|refused|the GPU failed|gate: "
                    r"(accepted job|job )",
                    line,
                )
            ]
        said.append(f"--- {worker.name}: its runs ---\n" + "\n".join(lines[-30:]))
    return "\n".join(said)


def peertube_faults(kit, peertube, pool, proxy, workers, videos):
    print(
        "  faults: PeerTube answers 429, then 500, then restarts while the burst's jobs wait",
        flush=True,
    )
    before = pool.report()["counters"]
    log_at = len(pool.text())
    faults_from = time.time()
    check_429_window_waited(pool, proxy, log_at)
    tried = check_500_window_met(pool, proxy, log_at)
    waiting = [j for j in peertube.jobs(*videos) if j["state"]["id"] in HELD_JOB_STATES]
    check(
        waiting,
        f"{len(waiting)} jobs of the burst were pending or running when PeerTube was restarted",
    )
    unanswered = proxy.unanswered
    reads = pool.report()["counters"]["queue_reads"]
    restart_peertube_with_runners_held(kit, peertube, workers)
    report = check_queue_read_after_restart(pool, proxy, log_at, unanswered, reads)
    held_cycles_took_only_fault_actions(pool, faults_from)
    after = report["counters"]
    failures = after["queue_read_failures"] - before["queue_read_failures"]
    held = after["held_for_lost_signals"] - before["held_for_lost_signals"]
    check(
        failures >= 3 and held >= failures,
        f"the report counts {failures} failed reads and {held} cycles held for lost signals",
    )
    metric = re.search(r"^pt_pool_held_for_lost_signals_total (\S+)$", pool.metrics(), re.M)
    check(
        metric and float(metric.group(1)) >= after["held_for_lost_signals"],
        f"pt_pool_held_for_lost_signals_total counts them: {metric.group(1) if metric else None}",
    )
    print(
        f"  figure: PeerTube's faults: 1 request in the {FAULT_429_S} s 429 window, {tried} in the "
        f"{FAULT_500_S} s 500 window, {failures} failed reads, {held} cycles held",
        flush=True,
    )


def check_429_window_waited(pool, proxy, log_at):
    """Inside the 429's Retry-After the manager sends nothing beyond the first request, and
    logs, cycle after cycle, that it waits."""
    limited = proxy.open_window(429, FAULT_429_S)
    time.sleep(FAULT_429_S)
    arrivals = proxy.window_requests(limited)
    check(
        len(arrivals) == 1,
        f"within the 429's Retry-After the manager sent PeerTube nothing beyond "
        f"the first request: {len(arrivals)} request(s) in {FAULT_429_S} s "
        f"{[a[2] for a in arrivals]}",
    )
    text = pool.text()[log_at:]
    check(
        "HTTP 429" in text and "not sent: the server answered 429" in text,
        "the manager logged the 429 and, cycle after cycle, that it waits for its Retry-After: "
        + first_line(text, "HTTP 429"),
    )


def check_500_window_met(pool, proxy, log_at):
    """The manager meets the 500 on more than one read and logs it. Gives how many it tried."""
    failing = proxy.open_window(500, FAULT_500_S)
    time.sleep(FAULT_500_S)
    tried = len(proxy.window_requests(failing))
    text = pool.text()[log_at:]
    check(
        tried >= 2 and "HTTP 500" in text,
        f"the manager met the 500 on {tried} reads and logged it: " + first_line(text, "HTTP 500"),
    )
    return tried


def restart_peertube_with_runners_held(kit, peertube, workers):
    """Restarts the PeerTube server at a moment no job may end in, its runners held."""
    # PeerTube 7.2.1 marks a job Completing, then moves its files in memory and only then marks
    # it Completed; nothing resumes a Completing job after a restart, so a restart in between
    # leaves it Completing for good, and the burst never completes (PeerTube's own loss, not
    # the pool's). So no job may end while the server stops: the runners are held (SIGSTOP;
    # their ffmpeg runs on), the server is stopped once no job is Completing but those PeerTube
    # left so for good after answering their success (harness.JobsDone), and the runners
    # are let go once it is back. A success a runner had under way meets the stopped server
    # and is given up, which PeerTube's stall timeout mends.
    runners = [runner_pid(w) for w in workers]
    for pid in runners:
        os.kill(pid, signal.SIGSTOP)
    documents = harness.documents_of(*workers)

    def completing_now():
        listed = peertube.call("GET", f"/api/v1/runners/jobs?count=100&stateOneOf={COMPLETING}")[
            "data"
        ]
        return (
            {j["uuid"] for j in listed} - harness.successes_taken(documents()) if listed else set()
        )

    try:
        wait_for(
            "a moment when no job of PeerTube's is Completing",
            lambda: not completing_now(),
            60,
            0.2,
        )
        kit.restart_server()
    finally:
        for pid in runners:
            os.kill(pid, signal.SIGCONT)


def check_queue_read_after_restart(pool, proxy, log_at, unanswered, reads):
    """While the server was down the manager's reads found nobody, and it logged it; it
    reads the queue again once the server is back. Gives its report then."""
    lost = pool.text()[log_at:]
    lost = lost[lost.find("PeerTube's job list could not be read") :]
    check(
        proxy.unanswered > unanswered and "HTTP 502" in lost,
        "while the server was down the manager's reads found nobody "
        f"({proxy.unanswered - unanswered} "
        f"answered 502 by the proxy) and it logged it: " + first_line(lost, "HTTP 502"),
    )
    report = wait_for(
        "the manager to read PeerTube's queue again after the restart",
        lambda: (r := pool.report())
        and r["queue"]["read_ok"]
        and r["counters"]["queue_reads"] > reads
        and r,
        90,
        1,
    )
    text = pool.text()[log_at:]
    relogin = "logged in to PeerTube again" in text
    check(
        True,
        "the manager reads the queue again after the restart, "
        + (
            "logged in again: " + first_line(text, "logged in to PeerTube again")
            if relogin
            else "with the token PeerTube kept in its database (no new login was needed)"
        ),
    )
    return report


# What a cycle may do while it holds on a lost job list: the fault rules, which run before the
# queue is looked at (docs/pool/design.md). Promotions and demotions wait for a list to trust.
HELD_CYCLE_ACTIONS = {"fault-drain", "cooldown", "vendor-disabled", "admission-reconciled"}


def held_cycles_took_only_fault_actions(pool, since):
    """Judges the cycles since `since` from the manager's record, each with the queue signal it
    was given: a cycle that had no list to trust says it holds and takes no scaling action. The
    cycles that read the list between two faults act on it, as they should."""
    with open(pool.record_path) as f:
        cycles = [json.loads(line) for line in f.read().splitlines()[1:] if line.endswith("}")]
    cycles = [c for c in cycles if c["t"] >= since]
    held = [c for c in cycles if not c["queue"]["read_ok"]]
    silent = [c["t"] for c in held if not any(r["reason"] == "queue-lost" for r in c["reasons"])]
    check(
        len(held) >= 3 and not silent,
        f"{len(held)} of the {len(cycles)} cycles since the first fault had no job list to trust, "
        f"and each said it holds (silent: {silent})",
    )
    taken = [f'{a["kind"]} {a["worker"]} ({a["reason"]})' for c in held for a in c["actions"]]
    scaled = [a for a in taken if a[a.rindex("(") + 1 : -1] not in HELD_CYCLE_ACTIONS]
    check(
        not scaled,
        "no promotion and no demotion while the queue was lost; the held cycles took "
        f"{taken or 'no action'}; beyond the fault rules: {scaled}",
    )


def first_line(text, words):
    return next((line.strip() for line in text.splitlines() if words in line), "(no line)")[:300]


def idle_cost(pid, seconds):
    """The process's resident memory (KiB) and its share of one core over `seconds`."""

    def cpu_ticks():
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])

    before, started = cpu_ticks(), time.time()
    time.sleep(seconds)
    spent = (cpu_ticks() - before) / os.sysconf("SC_CLK_TCK")
    with open(f"/proc/{pid}/status") as f:
        rss = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
    return rss, spent / (time.time() - started)


def worker_pid(worker):
    # The worker is run-on's child in the group the test started; SIGSTOP goes to it alone, so
    # its runner keeps running (and finds the gate silent meanwhile).
    out = subprocess.run(
        ["pgrep", "-f", "-g", str(worker.process.pid), r"^\S*media-capabilities worker run"],
        capture_output=True,
        text=True,
    ).stdout.split()
    if not out:
        raise Failure(f"{worker.name}: its worker process is gone")
    return int(out[0])


def runner_pid(worker):
    """The worker's official runner: its child, in a session of its own."""
    out = subprocess.run(
        ["pgrep", "-P", str(worker_pid(worker)), "-f", "peertube-runner"],
        capture_output=True,
        text=True,
    ).stdout.split()
    if not out:
        raise Failure(f"{worker.name}: its runner is gone")
    return int(out[0])


def main():
    args = harness.parse_arguments()
    root = harness.new_root("mc-pool-e2e-")
    kit = harness.Kit(args, root)
    workers, pool, proxy, failed = [], None, None, None
    try:
        peertube = kit.connect(root)
        instance = kit.instance
        credentials_file = kit.admin_credentials_file(root)
        argv_log = harness.argv_log_in(root)
        workers = start_workers(args, root, peertube, kit.registration_file, argv_log)
        # The manager reaches PeerTube through the fault proxy, which forwards everything
        # until the burst opens its fault windows.
        proxy = FaultProxy(peertube.url)
        pool = Pool(args, root, proxy.url, credentials_file, workers)
        faults = lambda videos: peertube_faults(kit, peertube, pool, proxy, workers, videos)
        case_burst(args, peertube, workers, pool, root, argv_log, faults)
        check(
            instance["PEERTUBE_ADMIN_PASSWORD"] not in pool.text(),
            "the admin's password is in no log line",
        )
        pool.stop()
        began = time.time()
        case_vendor_disabled(
            args, peertube, workers, root, argv_log, credentials_file, kit.registration_file
        )
        print(f"  time: the vendors case took {time.time() - began:.0f} s", flush=True)
    except (
        Failure,
        urllib.error.URLError,
        subprocess.CalledProcessError,
        KeyError,
        StopIteration,
    ) as error:
        failed = error
    finally:
        if pool:
            pool.stop()
        if proxy:
            proxy.stop()
        for worker in workers:
            worker.stop()
        kit.stop()
    # A failure's report: the manager's log, then what each worker's runs showed.
    report = (lambda: pool.tail() + "\n" + workers_runs(workers)) if pool else None
    return harness.finish(failed, root, "pool", report)


if __name__ == "__main__":
    sys.exit(main())
