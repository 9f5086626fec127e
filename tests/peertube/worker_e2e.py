#!/usr/bin/env python3
"""The worker in PeerTube's path, end to end on real parts.

A real PeerTube server (with real PostgreSQL and Redis) and the real official runner, started
by `media-capabilities worker run` on the fake NVIDIA GPU of tests/fakenv, which really
encodes (and, in one case, on the fake Intel GPU of tests/fakeva); Debian's real ffmpeg
under the worker's wrapper, with an argv recorder between them.
Each case below prints what it checked and fails the run with the reason when a check fails.

    worker_e2e.py --build BUILD --cache CACHE [--case NAME ...]

CACHE is the PeerTube build of build-peertube (make peertube builds it).
"""

import json
import os
import signal
import struct
import subprocess
import sys
import threading
import time
import urllib.error

from harness import (
    ALLOW_ROOT,
    COMPLETED,
    COMPLETING,
    ENDED,
    ERRORED,
    INTEL_DUMP,
    PARENT_ERRORED,
    PENDING,
    PROCESSING,
    REPO,
    STATE_NAMES,
    Failure,
    JobsDone,
    Kit,
    Worker,
    argv_log_in,
    check,
    check_pages_in_browser,
    describe_job,
    documents_of,
    finish,
    job_argv_lines,
    job_ended,
    make_clip,
    new_root,
    orphaned,
    parse_arguments,
    upload_done,
    wait_for,
)


def process_view(pid):
    """What a process shows of itself: its command line, its environment and the paths of its
    open files, as bytes."""
    with open(f"/proc/{pid}/cmdline", "rb") as f:
        cmdline = f.read()
    with open(f"/proc/{pid}/environ", "rb") as f:
        environ = f.read()
    files = []
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            files.append(os.readlink(f"/proc/{pid}/fd/{fd}").encode())
        except OSError:
            pass  # closed since the listing
    return cmdline, environ, files


def check_no_registration_token(worker, registration_file):
    """The running worker and its runner hold no registration token: `worker register` read it,
    `worker run` was never given it."""
    with open(registration_file) as f:
        token = f.read().strip().encode()
    names = (token, os.path.realpath(registration_file).encode(), b"registration-token")
    for who, pid in (("worker", worker.worker_pid()), ("runner", worker.runner_pid())):
        check(pid is not None, f"the running {who} is found (pid {pid})")
        cmdline, environ, files = process_view(pid)
        check(
            not any(name in cmdline for name in names),
            f"the {who}'s /proc/{pid}/cmdline names no registration token",
        )
        check(
            not any(name in environ for name in names),
            f"the {who}'s /proc/{pid}/environ holds no registration token",
        )
        check(
            not any(name in path for name in names for path in files),
            f"none of the {who}'s {len(files)} open files (/proc/{pid}/fd) is a registration token",
        )
    for log in (
        worker.log_path,
        os.path.join(worker.state, "runner.log"),
        worker.register_log_path,
    ):
        with open(log, "rb") as f:
            check(b"ptrrt-" not in f.read(), f"{os.path.basename(log)} holds no ptrrt-")


def transcode_upload(peertube, worker, root, name, runner):
    """Uploads a 5 s 720p clip as e2e-NAME and waits for its 8 jobs, all on RUNNER, and for the
    video to be published; gives the video's description."""
    clip = os.path.join(root, name + ".mp4")
    make_clip(clip, 5)
    video = peertube.upload(clip, "e2e-" + name)
    jobs = wait_for(
        "every job of the upload to complete", upload_done(peertube, video, worker), 420, 1
    )
    check(
        len(jobs) == 8,
        f"the upload made 8 jobs (web video and HLS at 720, 480, 360, 240): {len(jobs)}",
    )
    check(all(j["runner"]["name"] == runner for j in jobs), f"every job ran on {runner}'s runner")
    return wait_for(
        "the video to be published",
        lambda: (v := peertube.video(video))["state"]["id"] == 1 and v,
        60,
    )


def case_upload(peertube, worker, root, argv_log):
    print("case: an upload is transcoded on the GPU, every rendition, with evidence", flush=True)
    check_no_registration_token(worker, ARGS.registration_file)
    with open(os.path.join(worker.state, "registration.json")) as f:
        registered_as = json.load(f)["runner_name"]
    check(
        registered_as == "e2e:gpu0",
        f"worker register named the runner as worker run has it: {registered_as}",
    )
    before = worker.status()["jobs"]
    info = transcode_upload(peertube, worker, root, "upload", "e2e:gpu0")
    web = sorted((f["resolution"]["id"] for f in info["files"]), reverse=True)
    hls = sorted(
        (f["resolution"]["id"] for p in info["streamingPlaylists"] for f in p["files"]),
        reverse=True,
    )
    check(web == [720, 480, 360, 240], f"web videos at every resolution: {web}")
    check(hls == [720, 480, 360, 240], f"HLS at every resolution: {hls}")
    for f in info["files"]:
        probe = subprocess.run(
            [
                "ffprobe",
                "-v",
                "error",
                "-select_streams",
                "v:0",
                "-show_entries",
                "stream=codec_name,height",
                "-of",
                "json",
                f["fileUrl"],
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
        stream = json.loads(probe.stdout)["streams"][0]
        check(
            stream["codec_name"] == "h264" and stream["height"] == f["resolution"]["id"],
            f"the served {f['resolution']['id']}p file plays as H.264 of that height",
        )
    lines = job_argv_lines(argv_log)
    check(len(lines) >= 8, f"the argv log holds the jobs' ffmpeg runs: {len(lines)}")
    check(not any("libx264" in line for line in lines), "no job's ffmpeg ran libx264")
    check(all("h264_nvenc" in line for line in lines), "every job's ffmpeg ran h264_nvenc")
    status = worker.status()
    # Counted from before the upload: a case run before this one may have failed jobs on purpose.
    check(
        status["jobs"]["completed"] >= before["completed"] + 8
        and status["jobs"]["failed"] == before["failed"],
        f"the worker counts the jobs, 8 more completed and none failed: {before} then "
        f"{status['jobs']}",
    )
    check(
        status["hw_evidence_last_job"] and status["hw_evidence_last_job"]["ok"],
        f"the last job had hardware evidence: {status['hw_evidence_last_job']}",
    )
    check(
        status["last_job"]
        and status["last_job"]["outcome"] == "success"
        and status["last_job"]["evidence"]["ok"],
        "the last job's record says it succeeded with evidence",
    )
    check(status["registration_state"] == "registered", "the worker says it is registered")
    server_version = peertube.call("GET", "/api/v1/config")["serverVersion"]
    runner_version = subprocess.run(
        [ARGS.node, ARGS.runner_js, "--version"], capture_output=True, text=True, timeout=60
    ).stdout.strip()
    check(
        status.get("peertube")
        == {
            "server_version": server_version,
            "runner_version": runner_version,
            "support": "tested",
            "advice": "tested end to end (make test-peertube)",
        },
        f"the worker states the server {server_version} and the runner {runner_version} as the "
        "tested "
        f"pair: {status.get('peertube')}",
    )
    document = os.path.join(root, "status.json")
    with open(document, "w") as f:
        json.dump(status, f)
    validation = subprocess.run(
        [
            "/usr/bin/python3",
            os.path.join(REPO, "tests/worker/validate_status.py"),
            os.path.join(REPO, "docs/reference/worker-status.schema.json"),
            document,
        ],
        capture_output=True,
        text=True,
    )
    check(
        validation.returncode == 0,
        f"the status document is valid against its schema: {validation.stdout.strip()}",
    )
    # The worker's page in a real browser: its state, reason and recent jobs as /status says.
    check_pages_in_browser(ARGS, "--worker", worker.status_url)


# Every line ffmpeg writes when the GPU fails it, as the worker's reader knows them; an uploader
# can write any of them into a title, a stream's handler name or a chapter's title.
FAILURE_MARKS = [
    "OpenEncodeSessionEx failed",
    "EncodePicture failed",
    "No capable devices found",
    "NV_ENC_ERR_UNSUPPORTED_DEVICE",
    "CUDA_ERROR_OUT_OF_MEMORY",
    "cuCtxCreate",
    "cuvidCreateDecoder failed",
    "Failed setup for format cuda",
    "Failed setup for format vaapi",
    "device does not exist",
    "Failed to initialise VAAPI",
    "Failed to create a VAAPI",
    "vaCreateContext",
    "Device creation failed",
]


def make_hostile_clip(path, seconds):
    """A clip whose tags hold every failure mark, as ffmpeg's own error lines would print them,
    after line breaks and beside bytes that are not UTF-8."""
    chapters = os.path.join(os.path.dirname(path), "chapters.txt")
    with open(chapters, "wb") as f:
        f.write(b";FFMETADATA1\n")
        for i, mark in enumerate(FAILURE_MARKS):
            f.write(b"[CHAPTER]\nTIMEBASE=1/1000\nSTART=%d\nEND=%d\n" % (i * 100, i * 100 + 100))
            f.write(b"title=[h264_nvenc @ 0x1] [error] " + mark.encode() + b" \xff\xc3\n")
    title = "\n".join(f"[error] {mark}" for mark in FAILURE_MARKS)
    subprocess.run(
        [
            "ffmpeg",
            "-v",
            "error",
            "-y",
            "-f",
            "lavfi",
            "-i",
            f"testsrc2=size=1280x720:rate=30:duration={seconds}",
            "-f",
            "lavfi",
            "-i",
            f"sine=frequency=440:duration={seconds}",
            "-i",
            chapters,
            "-map",
            "0:v",
            "-map",
            "1:a",
            "-map_metadata",
            "2",
            "-map_chapters",
            "2",
            "-metadata",
            "title=" + title,
            "-metadata",
            "comment=\udcff" + FAILURE_MARKS[0],
            "-metadata:s:v",
            "handler_name=[h264_nvenc @ 0x2] [error] " + FAILURE_MARKS[1],
            "-metadata:s:a",
            "handler_name=[AVHWDeviceContext @ 0x3] [fatal] " + FAILURE_MARKS[4],
            "-c:v",
            "libx264",
            "-preset",
            "ultrafast",
            "-pix_fmt",
            "yuv420p",
            "-c:a",
            "aac",
            "-shortest",
            path,
        ],
        check=True,
        env=dict(os.environ, PYTHONIOENCODING="utf-8", LC_ALL="C.UTF-8"),
    )


def case_hostile_tags(peertube, worker, root, argv_log):
    print(
        "case: an upload whose tags hold the GPU's failure words is transcoded; the worker "
        "stays available",
        flush=True,
    )
    clip = os.path.join(root, "hostile.mp4")
    make_hostile_clip(clip, 5)
    before = worker.status()["jobs"]
    video = peertube.upload(clip, "e2e-hostile")
    jobs = wait_for(
        "every job of the upload to complete", upload_done(peertube, video, worker), 420, 1
    )
    check(len(jobs) == 8, f"the upload made 8 jobs: {len(jobs)}")
    check(all(j["failures"] == 0 for j in jobs), "no job failed once")
    with open(argv_log + ".stderr", errors="replace") as f:
        printed = f.read()
    check(
        "[info]     title           : [error] " + FAILURE_MARKS[0] in printed
        and "                    : [error] Failed setup for format vaapi" in printed
        and "handler_name    : [h264_nvenc @ 0x2] [error] " + FAILURE_MARKS[1] in printed,
        "the jobs' ffmpeg printed the tags, failure words and all, where the worker reads them",
    )
    with open(os.path.join(worker.state, "runner.log"), errors="replace") as f:
        check("the GPU failed" not in f.read(), "no job was taken for a GPU failure")
    status = worker.status()
    check(
        status["state"] == "AVAILABLE",
        f"the worker is AVAILABLE: {status['state']} {status.get('state_reason')}",
    )
    check(
        status["jobs"]["failed"] == before["failed"]
        and status["jobs"]["completed"] >= before["completed"] + 8,
        f"the worker counts 8 more jobs completed and none failed: {before} then {status['jobs']}",
    )
    check(not any("libx264" in line for line in job_argv_lines(argv_log)), "no CPU encode ran")


def stretch_stated_duration(path, factor):
    """Multiplies the duration the file's movie header states (mvhd), not its content."""
    with open(path, "r+b") as f:
        data = bytearray(f.read())
        at = data.find(b"mvhd")
        version = data[at + 4]
        offset, width = (at + 20, 4) if version == 0 else (at + 28, 8)
        stated = int.from_bytes(data[offset : offset + width], "big")
        data[offset : offset + width] = (stated * factor).to_bytes(width, "big")
        f.seek(0)
        f.write(data)


def ebml(element_id, payload):
    """One Matroska (EBML) element: its id, its size in eight bytes, its payload."""
    return element_id + b"\x01" + len(payload).to_bytes(7, "big") + payload


def ebml_uint(element_id, value):
    return ebml(element_id, value.to_bytes(max(1, (value.bit_length() + 7) // 8), "big"))


def make_stated_size_mkv(path, width, height, seconds=2, fps=5):
    """A Matroska file of two video tracks. The first states WIDTHxHEIGHT in a codec no decoder
    opens (V_MC_HOSTILE), so that ffprobe prints the container's size as it stands (a decoder
    that opens would first refuse a size past ffmpeg's image checks); PeerTube, the runner and
    the worker's wrapper take the first video stream's size. The second is a 64x64 MJPEG clip
    that ffmpeg itself picks, for PeerTube's thumbnail and the runner's jobs: its stream
    selection weighs each stream by width * height in an int, which the first one's overflows."""
    frames_dir = path + ".frames"
    os.makedirs(frames_dir, exist_ok=True)
    subprocess.run(
        [
            "ffmpeg",
            "-v",
            "error",
            "-y",
            "-f",
            "lavfi",
            "-i",
            f"testsrc2=size=64x64:rate={fps}",
            "-frames:v",
            str(seconds * fps),
            "-c:v",
            "mjpeg",
            os.path.join(frames_dir, "%03d.jpg"),
        ],
        check=True,
    )
    frames = []
    for name in sorted(os.listdir(frames_dir)):
        with open(os.path.join(frames_dir, name), "rb") as f:
            frames.append(f.read())
    header = ebml(
        b"\x1a\x45\xdf\xa3",
        ebml_uint(b"\x42\x86", 1)
        + ebml_uint(b"\x42\xf7", 1)
        + ebml_uint(b"\x42\xf2", 4)
        + ebml_uint(b"\x42\xf3", 8)
        + ebml(b"\x42\x82", b"matroska")
        + ebml_uint(b"\x42\x87", 4)
        + ebml_uint(b"\x42\x85", 2),
    )
    info = ebml(
        b"\x15\x49\xa9\x66",
        ebml_uint(b"\x2a\xd7\xb1", 1000000)
        + ebml(b"\x44\x89", struct.pack(">d", seconds * 1000.0))
        + ebml(b"\x4d\x80", b"e2e")
        + ebml(b"\x57\x41", b"e2e"),
    )

    def track(number, codec, track_width, track_height):
        return ebml(
            b"\xae",
            ebml_uint(b"\xd7", number)
            + ebml_uint(b"\x73\xc5", number)
            + ebml_uint(b"\x83", 1)
            + ebml(b"\x86", codec)
            + ebml(b"\xe0", ebml_uint(b"\xb0", track_width) + ebml_uint(b"\xba", track_height)),
        )

    tracks = ebml(
        b"\x16\x54\xae\x6b", track(1, b"V_MC_HOSTILE", width, height) + track(2, b"V_MJPEG", 64, 64)
    )
    # Keyframes (SimpleBlock: the track, a 16-bit time in ms, the keyframe flag): 64 bytes of
    # nothing for the first track, a JPEG picture for the second.
    blocks = b""
    for i, frame in enumerate(frames):
        at = (i * 1000 // fps).to_bytes(2, "big")
        blocks += ebml(b"\xa3", b"\x81" + at + b"\x80" + bytes(64)) + ebml(
            b"\xa3", b"\x82" + at + b"\x80" + frame
        )
    cluster = ebml(b"\x1f\x43\xb6\x75", ebml_uint(b"\xe7", 0) + blocks)
    with open(path, "wb") as f:
        f.write(header + ebml(b"\x18\x53\x80\x67", info + tracks + cluster))


# The hostile files whose stated size is the attack, and the words of what stops each in the
# worker. Both sizes' areas overflow a 32-bit int, so that ffmpeg decodes the 64x64 track.
STATED_SIZES = {
    # 65535x65535: each side within the input facts' bound (2^20), so the plan works the scale
    # out and refuses it for NVENC's largest picture.
    "huge-square": ((65535, 65535), "is larger than h264_nvenc takes"),
    # 16777216x256: a side past the bound, which the input facts refuse naming the field.
    "past-bound": ((1 << 24, 256), "streams[0].width: 16777216 pixels is not a picture's side"),
}


def make_hostile_files(root, worker):
    """Uploads an attacker shapes: a clip stating a hundred times its length, a clip cut off
    halfway, an HLS playlist under a video's name that points at the worker's registration
    and at a URL, and video tracks stating sizes whose arithmetic overflows (STATED_SIZES)."""
    long_claim = os.path.join(root, "long-claim.mp4")
    make_clip(long_claim, 2, "640x360")
    stretch_stated_duration(long_claim, 100)
    truncated = os.path.join(root, "truncated.mp4")
    whole = os.path.join(root, "whole.mp4")
    subprocess.run(
        [
            "ffmpeg",
            "-v",
            "error",
            "-y",
            "-f",
            "lavfi",
            "-i",
            "testsrc2=size=640x360:rate=30:duration=3",
            "-c:v",
            "libx264",
            "-preset",
            "ultrafast",
            "-pix_fmt",
            "yuv420p",
            "-movflags",
            "+faststart",
            whole,
        ],
        check=True,
    )
    with open(whole, "rb") as f, open(truncated, "wb") as out:
        data = f.read()
        out.write(data[: len(data) // 2])
    playlist = os.path.join(root, "playlist.mp4")
    with open(playlist, "w") as f:
        f.write(
            "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-VERSION:3\n"
            f"#EXTINF:2.0,\nfile://{os.path.join(worker.state, 'registration.json')}\n"
            "#EXTINF:2.0,\nhttp://127.0.0.1:9/segment.ts\n#EXT-X-ENDLIST\n"
        )
    files = {"long-claim": long_claim, "truncated": truncated, "playlist": playlist}
    for name, ((width, height), _) in STATED_SIZES.items():
        files[name] = os.path.join(root, name + ".mkv")
        make_stated_size_mkv(files[name], width, height)
    return files


def check_stated_size_refused(peertube, worker, name, video, words):
    """The jobs of an upload stating a hostile size: the ones given out fail as their content
    deserves, with the worker's words for what refused them, until PeerTube gives up on them,
    and the jobs waiting on them end with them; none completes."""

    def all_ended():
        jobs = peertube.jobs(video)
        return jobs if jobs and all(job_ended(j) for j in jobs) else None

    jobs = wait_for(f"the {name} upload's jobs to end", all_ended, 420, 1)
    failed = [j for j in jobs if j["state"]["id"] == ERRORED]
    for job in failed:
        print(
            f"  figure: {name}: {job['type']} at "
            f"{((job.get('payload') or {}).get('output') or {}).get('resolution')} "
            f"Errored after {job['failures']} failures: {(job.get('error') or '').strip()[-200:]}",
            flush=True,
        )
    states = sorted({STATE_NAMES.get(j["state"]["id"], str(j["state"]["id"])) for j in jobs})
    print(
        f"  figure: {name}: {len(jobs)} jobs, {len(failed)} given out and Errored; their states "
        f"{states}",
        flush=True,
    )
    check(
        failed and all(j["state"]["id"] in (ERRORED, PARENT_ERRORED) or orphaned(j) for j in jobs),
        f"every job of the {name} upload failed or ended with the job it waited on: {len(jobs)} "
        "jobs",
    )
    check(
        all(words in (j.get("error") or "") for j in failed),
        f"each failed {name} job's error is the worker's refusal naming what refused it ({words})",
    )


def case_hostile_files(peertube, worker, root, argv_log):
    print(
        "case: hostile files (a hundredfold stated length, a truncated clip, a playlist under a "
        "video's name, sizes whose arithmetic overflows) end as their content deserves; the worker "
        "stays available",
        flush=True,
    )
    before = worker.status()["jobs"]
    videos = {}
    for name, path in make_hostile_files(root, worker).items():
        try:
            videos[name] = peertube.upload(path, "e2e-" + name)
        except Exception as refused:  # PeerTube's own checks may refuse the upload
            print(f"  figure: PeerTube refused the {name} upload: {str(refused)[:200]}", flush=True)
    check(
        "long-claim" in videos and "truncated" in videos,
        f"PeerTube took the two clips: {sorted(videos)}",
    )
    for name in ("long-claim", "truncated"):
        jobs = wait_for(
            f"every job of the {name} upload to complete",
            upload_done(peertube, videos[name], worker),
            420,
            1,
        )
        check(
            all(j["failures"] == 0 for j in jobs),
            f"the {name} upload's {len(jobs)} jobs completed at the first try",
        )
    if "playlist" in videos:
        time.sleep(15)
        jobs = peertube.jobs(videos["playlist"])
        print(
            f"  figure: the playlist's jobs: {[(j['type'], j['state']['label']) for j in jobs]}",
            flush=True,
        )
    for name, (size, words) in STATED_SIZES.items():
        if name in videos:
            stated = peertube.video(videos[name])
            print(
                f"  figure: PeerTube took the {name} upload ({size[0]}x{size[1]}): state "
                f"{stated['state']['label']}, {len(peertube.jobs(videos[name]))} jobs",
                flush=True,
            )
            check_stated_size_refused(peertube, worker, name, videos[name], words)
    with open(os.path.join(worker.state, "runner.log"), errors="replace") as f:
        runner_log = f.read()
    for name, (size, words) in STATED_SIZES.items():
        if name in videos:
            check(
                "media-capabilities ffmpeg: refused: " in runner_log and words in runner_log,
                f"the runner sent PeerTube the wrapper's refusal of the {name} upload",
            )
    with open(os.path.join(worker.state, "registration.json")) as f:
        runner_token = json.load(f)["runner_token"]
    with open(argv_log + ".stderr", errors="replace") as f:
        check(runner_token not in f.read(), "no ffmpeg printed the runner's token")
    with open(os.path.join(worker.state, "runner.log"), errors="replace") as f:
        check("the GPU failed" not in f.read(), "no job was taken for a GPU failure")
    status = worker.status()
    check(
        status["state"] == "AVAILABLE",
        f"the worker is AVAILABLE: {status['state']} {status.get('state_reason')}",
    )
    check(
        status["jobs"]["completed"] > before["completed"],
        f"the worker completed the clips' jobs: {before} then {status['jobs']}",
    )
    check(not any("libx264" in line for line in job_argv_lines(argv_log)), "no CPU encode ran")


def case_drain(peertube, worker, root, argv_log):
    print(
        "case: a drain lets the running job finish and takes no new one; enable takes them",
        flush=True,
    )
    clip = os.path.join(root, "drain.mp4")
    make_clip(clip, 20)
    video = peertube.upload(clip, "e2e-drain")
    wait_for(
        "the root job to run",
        lambda: any(j["state"]["id"] == PROCESSING for j in peertube.jobs(video)),
        120,
        0.3,
    )
    answer = worker.cli("drain")
    check(
        answer.returncode == 0 and answer.stdout.startswith("DRAINING"),
        f"worker drain: {answer.stdout.strip()}",
    )
    root_job = wait_for(
        "the running job to complete",
        lambda: next((j for j in peertube.jobs(video) if j["state"]["id"] == COMPLETED), None),
        300,
        0.5,
    )
    check(root_job["type"] == "vod-web-video-transcoding", "the job that ran finished")
    time.sleep(12)
    jobs = peertube.jobs(video)
    pending = [j for j in jobs if j["state"]["id"] == PENDING]
    check(
        len(pending) >= 1 and not any(j["state"]["id"] == PROCESSING for j in jobs),
        f"while drained, {len(pending)} jobs stay pending and none runs",
    )
    check(worker.status()["state"] == "DRAINED", "the worker is DRAINED")
    # One job at a time from now on: the concurrency takes effect on the next request.
    check(worker.control("concurrency", "1")["ok"], "the control API set the concurrency to 1")
    check(worker.control("enable").get("http_status") is None, "the control API enabled the worker")
    most = 0
    deadline = time.time() + 420
    while time.time() < deadline:
        jobs = peertube.jobs(video)
        most = max(most, sum(1 for j in jobs if j["state"]["id"] == PROCESSING))
        if jobs and all(j["state"]["id"] == COMPLETED for j in jobs):
            break
        time.sleep(0.3)
    check(
        all(j["state"]["id"] == COMPLETED for j in peertube.jobs(video)),
        "after enable every job completed",
    )
    check(most <= 1, f"with concurrency 1, at most one job ran at once: {most}")
    worker.control("concurrency", "auto")


def case_gpu_fails(peertube, worker, root, argv_log, fault_file):
    print(
        "case: the GPU fails mid-job: the job fails with the worker's words, no CPU encode",
        flush=True,
    )
    with open(fault_file, "w") as f:
        f.write("encode-fails-after:20\n")
    clip = os.path.join(root, "fault.mp4")
    make_clip(clip, 5)
    video = peertube.upload(clip, "e2e-fault")
    job = wait_for(
        "the job to fail once",
        lambda: next((j for j in peertube.jobs(video) if j["failures"] >= 1), None),
        180,
        0.5,
    )
    check(job["state"]["id"] == PENDING, "PeerTube put the failed job back")
    # PeerTube keeps a job's error only once it gives up on it; the message the runner sent
    # with the failure is in the runner's log.
    with open(os.path.join(worker.state, "runner.log")) as f:
        runner_log = f.read()
    check(
        "media-capabilities ffmpeg: the GPU failed:" in runner_log
        and "EncodePicture failed" in runner_log,
        "the runner sent PeerTube the worker's line with the GPU's own words",
    )
    status = wait_for(
        "GPU_UNAVAILABLE", lambda: (s := worker.status())["state"] == "GPU_UNAVAILABLE" and s, 30
    )
    check("GPU" in status["state_reason"], f"the reason says why: {status['state_reason']}")
    time.sleep(8)
    check(
        all(j["state"]["id"] != PROCESSING for j in peertube.jobs(video)),
        "the unavailable worker takes nothing",
    )
    check(not any("libx264" in line for line in job_argv_lines(argv_log)), "no CPU encode ran")
    with open(fault_file, "w") as f:
        f.write("")
    answer = worker.cli("enable")
    check(answer.returncode == 0, f"worker enable: {answer.stdout.strip()} {answer.stderr.strip()}")
    wait_for(
        "every job to complete after the GPU is mended",
        upload_done(peertube, video, worker),
        420,
        1,
    )
    check(True, "the failed job completed once the GPU worked again")


def case_runner_killed(peertube, worker, root, argv_log):
    print(
        "case: the runner killed mid-job: its ffmpeg goes with it, the worker hands the job back, "
        "the runner comes back",
        flush=True,
    )
    clip = os.path.join(root, "kill.mp4")
    make_clip(clip, 30)
    video = peertube.upload(clip, "e2e-kill")
    wait_for(
        "the root job to run",
        lambda: any(j["state"]["id"] == PROCESSING for j in peertube.jobs(video)),
        180,
        0.3,
    )
    wait_for(
        "its ffmpeg to run",
        lambda: subprocess.run(
            ["pgrep", "-f", "h264_nvenc.*transcoding"], capture_output=True
        ).returncode
        == 0,
        60,
        0.2,
    )
    time.sleep(2)
    pid = worker.runner_pid()
    check(pid is not None, f"the runner runs (pid {pid})")
    os.kill(pid, signal.SIGKILL)
    killed_at = time.time()
    time.sleep(1.0)
    ffmpegs = subprocess.run(
        ["pgrep", "-f", "h264_nvenc.*transcoding"], capture_output=True, text=True
    ).stdout.split()
    check(not ffmpegs, f"its ffmpeg is gone within a second: {ffmpegs}")

    # The job goes back to PeerTube's queue at once, and the next runner may take it and hold
    # a slot again: the killed ffmpeg's slot is free once no more are held than ffmpegs run.
    def slots_and_ffmpegs():
        held = worker.status()["gpu"]["sessions"]["active"]
        running = subprocess.run(
            ["pgrep", "-f", "h264_nvenc.*transcoding"], capture_output=True, text=True
        ).stdout.split()
        return (held, len(running)) if held <= len(running) else None

    held, running = wait_for("the killed ffmpeg's session slot to be free", slots_and_ffmpegs, 15)
    check(
        True, f"the killed ffmpeg's session slot is free: {held} held, {running} ffmpeg(s) running"
    )
    new_pid = wait_for(
        "the runner to be back", lambda: (p := worker.runner_pid()) and p != pid and p, 30
    )
    check(new_pid != pid, f"the runner is back (pid {new_pid})")
    handed = wait_for(
        "the worker to hand the killed job back",
        lambda: next(
            (
                line
                for line in open(worker.log_path).read().splitlines()
                if "ended with the runner; handed back" in line
            ),
            None,
        ),
        30,
    )
    check(True, f"the worker handed the job back: {handed.strip()}")
    wait_for("every job to complete", upload_done(peertube, video, worker), 600, 1)
    # PeerTube's stalled-job watchdog gives a silent runner's job out again after two minutes
    # (and up to half a minute more, its period); the abort does it at once.
    took = time.time() - killed_at
    check(
        took < STALLED_JOB_S,
        f"every job completed {took:.0f} s after the kill, before PeerTube's "
        f"watchdog would have given the job out again ({STALLED_JOB_S} s)",
    )


STALLED_JOB_S = 120


def case_server_restarted(kit, peertube, worker, root, argv_log):
    print(
        "case: the PeerTube server restarted mid-job: the runner comes back through the gate and "
        "every job completes on the GPU",
        flush=True,
    )
    clip = os.path.join(root, "restart.mp4")
    make_clip(clip, 20)
    video = peertube.upload(clip, "e2e-restart")
    wait_for(
        "a job's ffmpeg to run",
        lambda: subprocess.run(
            ["pgrep", "-f", "h264_nvenc.*transcoding"], capture_output=True
        ).returncode
        == 0,
        180,
        0.3,
    )
    # A success the runner reports while the server is down is given up, and its job would
    # wait for PeerTube's stall timeout: the runner is held (SIGSTOP) while the server is
    # away, its ffmpeg running on, and reports once it is back, as pool_e2e holds its runners.
    runner = worker.runner_pid()
    os.kill(runner, signal.SIGSTOP)
    try:
        kit.restart_server()
    finally:
        os.kill(runner, signal.SIGCONT)
    check(True, "the PeerTube server stopped mid-job and started again")
    wait_for(
        "every job to complete after the restart", upload_done(peertube, video, worker), 600, 2
    )
    check(True, "every job of the upload completed after the restart")
    lines = job_argv_lines(argv_log)
    check(not any("libx264" in line for line in lines), "no job's ffmpeg ran libx264")
    check(worker.status()["state"] == "AVAILABLE", "the worker is AVAILABLE again")


# A metadata key that forges one of ffmpeg's own error lines: ffmpeg prints a tag's key raw,
# so the line after "comment" starts "[error] CUDA_ERROR_OUT_OF_MEMORY", with no component.
FORGED_KEY = "comment\n[error] CUDA_ERROR_OUT_OF_MEMORY"
# What the wrapper puts before its words, and what it says when it takes the GPU for broken.
WRAPPER_WORDS = "media-capabilities ffmpeg: "
GPU_VERDICT_WORDS = ("the GPU failed", "GPU_UNAVAILABLE")
# The states no upload may put the worker in: only the GPU's own canary or channels may.
GPU_DOWN_STATES = ("GPU_UNAVAILABLE", "OFFLINE")


def make_gap_clip(path):
    """A few-KB 720p clip: ten frames at 30 fps, then an eleventh three hours later. Under the
    runner's -r 30 ffmpeg would write 324,000 frames for each of its renditions."""
    subprocess.run(
        [
            "ffmpeg",
            "-v",
            "error",
            "-y",
            "-f",
            "lavfi",
            "-i",
            "smptebars=size=1280x720:rate=30",
            "-frames:v",
            "11",
            "-vf",
            "setpts='if(lt(N,10),N,324000)/30/TB'",
            "-fps_mode",
            "passthrough",
            "-c:v",
            "libx264",
            "-crf",
            "40",
            "-pix_fmt",
            "yuv420p",
            path,
        ],
        check=True,
    )


def make_honest_and_hostile_uploads(root):
    """Each upload's file and whether it is honest (its jobs must complete): a prosumer
    camera's 1080p60 4:2:2 10-bit clip, a 720p 240 fps 4:4:4 clip and a one-frame clip are;
    a 32x32 clip whose metadata key forges a GPU error line and a few-KB clip with a three-hour
    timestamp gap are not (their jobs complete, or fail with the wrapper's words)."""
    files = {
        name: os.path.join(root, name + ".mp4")
        for name in ("camera-422-10bit", "fast-444", "one-frame", "forged-key", "timestamp-gap")
    }
    make_clip(
        files["camera-422-10bit"],
        2,
        "1920x1080",
        rate=60,
        pix_fmt="yuv422p10le",
        extra=("-crf", "30"),
    )
    make_clip(files["fast-444"], 1, "1280x720", rate=240, pix_fmt="yuv444p", extra=("-crf", "30"))
    make_clip(files["one-frame"], 0.1, "1280x720", rate=10)
    make_clip(
        files["forged-key"],
        2,
        "32x32",
        extra=("-movflags", "use_metadata_tags", "-metadata", FORGED_KEY + "=fixed a bug"),
    )
    make_gap_clip(files["timestamp-gap"])
    honest = {"camera-422-10bit", "fast-444", "one-frame"}
    return {name: (path, name in honest) for name, path in files.items()}


class StateWatch:
    """Reads the worker's /status every half second, in a thread of its own, while the `with`
    block runs: every state it passes through, and the first of GPU_DOWN_STATES with its reason."""

    def __init__(self, worker):
        self.worker, self.seen, self.down, self.unread = worker, [], None, 0
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.watch, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *_):
        self.stopping.set()
        self.thread.join()

    def watch(self):
        while not self.stopping.wait(0.5):
            try:
                status = self.worker.status()
            except (OSError, ValueError):
                self.unread += 1
                continue
            if not self.seen or self.seen[-1] != status["state"]:
                self.seen.append(status["state"])
            if status["state"] in GPU_DOWN_STATES and not self.down:
                self.down = f"{status['state']}: {status.get('state_reason')}"

    def check_held(self):
        """Fails at once once the worker was seen down; for wait_for's predicates."""
        if self.down:
            raise Failure(
                f"the worker went {self.down} (its last states: {' -> '.join(self.seen[-10:])})"
            )


def uploads_ended(peertube, worker, videos, watch):
    """A wait's predicate: every job of VIDEOS ended, whatever its outcome, each video with its
    jobs made; it fails as soon as the worker is seen down."""
    done = JobsDone(peertube, videos.values(), documents_of(worker), ends=ENDED)

    def ended():
        watch.check_held()
        jobs = done()
        made = {(j.get("privatePayload") or {}).get("videoUUID") for j in done.jobs}
        return jobs if jobs and made >= set(videos.values()) else None

    def open_jobs():
        names = {uuid_: name for name, uuid_ in videos.items()}
        return "\n".join(
            f"  {names[j['privatePayload']['videoUUID']]}:" + describe_job(j)[1:] for j in done.open
        )

    ended.open_jobs = open_jobs
    return ended


def check_upload_on_merits(name, honest, jobs):
    """An honest upload's jobs all completed at the first try; a hostile one's completed, or
    failed with the wrapper's words and none for the GPU."""
    states = sorted(STATE_NAMES.get(j["state"]["id"], str(j["state"]["id"])) for j in jobs)
    print(
        f"  figure: {name}: {len(jobs)} jobs, {states}, failures "
        f"{[j['failures'] for j in jobs]}",
        flush=True,
    )
    for job in (j for j in jobs if j["state"]["id"] == ERRORED):
        print(
            f"  figure: {name}: {job['type']} Errored: {(job.get('error') or '').strip()[-300:]}",
            flush=True,
        )
    if honest:
        check(
            all(j["state"]["id"] in (COMPLETED, COMPLETING) and j["failures"] == 0 for j in jobs),
            f"every job of the honest {name} upload completed at the first try",
        )
        return
    failed = [j for j in jobs if j["state"]["id"] == ERRORED]
    check(
        all(j["state"]["id"] in (COMPLETED, COMPLETING, ERRORED, PARENT_ERRORED) for j in jobs),
        f"every job of the {name} upload completed, failed, or ended with the job it waited on",
    )
    check(
        all(
            WRAPPER_WORDS in (j.get("error") or "")
            and not any(words in j["error"] for words in GPU_VERDICT_WORDS)
            for j in failed
        ),
        f"each failed {name} job ({len(failed)}) says why in the wrapper's words, none for the GPU",
    )


def check_clean_upload_after(peertube, worker, root, argv_log):
    """A clean upload right after completes on the worker, on NVENC, with hardware evidence."""
    lines_before = len(job_argv_lines(argv_log))
    transcode_upload(peertube, worker, root, "clean-after", "e2e:gpu0")
    lines = job_argv_lines(argv_log)[lines_before:]
    check(
        lines
        and all("h264_nvenc" in line for line in lines)
        and not any("libx264" in line for line in lines),
        f"each of the clean upload's {len(lines)} ffmpeg runs ran h264_nvenc, none libx264",
    )
    status = worker.status()
    check(
        status["hw_evidence_last_job"] and status["hw_evidence_last_job"]["ok"],
        f"the clean upload's last job had hardware evidence: {status['hw_evidence_last_job']}",
    )


def case_honest_and_hostile_uploads(peertube, worker, root, argv_log):
    print(
        "case: honest uploads the GPU decodes poorly and hostile ones each end on their own "
        "merits; the worker stays available and then transcodes a clean upload",
        flush=True,
    )
    uploads = make_honest_and_hostile_uploads(root)
    with StateWatch(worker) as watch:
        videos = {name: peertube.upload(path, "e2e-" + name) for name, (path, _) in uploads.items()}
        ended = uploads_ended(peertube, worker, videos, watch)
        try:
            wait_for("every job of the five uploads to end", ended, 300, 1)
        except Failure as failure:
            raise Failure(f"{failure}; still open:\n{ended.open_jobs()}") from None
        for name, (_, honest) in uploads.items():
            check_upload_on_merits(name, honest, peertube.jobs(videos[name]))
        with open(os.path.join(worker.state, "runner.log"), errors="replace") as f:
            runner_log = f.read()
        check(
            not any(words in runner_log for words in GPU_VERDICT_WORDS),
            "no job's words in the runner's log took the GPU for failed",
        )
        with open(argv_log + ".stderr", errors="replace") as f:
            forged = "\n[error] CUDA_ERROR_OUT_OF_MEMORY" in f.read()
        print(
            f"  figure: the forged error line reached the stderr the worker reads: {forged}",
            flush=True,
        )
        check_clean_upload_after(peertube, worker, root, argv_log)
        watch.check_held()
    status = worker.status()
    print(
        f"  figure: the worker's states: {sorted(set(watch.seen))} in {len(watch.seen)} changes; "
        "its status "
        f"unread {watch.unread} times; its canary: {status.get('canary')}",
        flush=True,
    )
    check(
        status["state"] == "AVAILABLE",
        f"the worker is AVAILABLE: {status['state']} {status.get('state_reason')}",
    )


# A worker back from a crash must hand its jobs back within this, not after the stall watchdog.
HANDED_BACK_S = 10


def held_job(peertube, video, worker):
    """The job of VIDEO the worker's runner is running, once its ffmpeg runs; None before."""
    running = [j for j in peertube.jobs(video) if j["state"]["id"] == PROCESSING]
    ffmpeg = (
        subprocess.run(["pgrep", "-f", "h264_nvenc.*" + worker.dir], capture_output=True).returncode
        == 0
    )
    return running[0] if running and ffmpeg else None


def job_now(peertube, job):
    """JOB as PeerTube has it now."""
    return next(
        j for j in peertube.jobs(job["privatePayload"]["videoUUID"]) if j["uuid"] == job["uuid"]
    )


def job_returned(peertube, job):
    """A wait's predicate: JOB no longer held by the run it had (back to Pending, taken again
    since, or ended); the job then."""

    def returned():
        now = job_now(peertube, job)
        same_run = now["state"]["id"] == PROCESSING and now.get("startedAt") == job.get("startedAt")
        return None if same_run else now

    return returned


def kill_worker(worker):
    """SIGKILLs the `worker run` process itself, and waits for run-on and its runner to end."""
    pid, runner = worker.worker_pid(), worker.runner_pid()
    check(
        pid is not None and runner is not None,
        f"the worker (pid {pid}) and its runner ({runner}) run",
    )
    os.kill(pid, signal.SIGKILL)
    wait_for("run-on to end with its worker", lambda: worker.process.poll() is not None, 30, 0.2)
    wait_for(
        "the killed worker's runner to end", lambda: not os.path.exists(f"/proc/{runner}"), 30, 0.2
    )
    check(True, f"the worker (pid {pid}) was SIGKILLed and its runner ({runner}) ended with it")


def case_worker_killed(peertube, worker, root, argv_log):
    print(
        "case: the worker SIGKILLed mid-job and restarted: its job is back in PeerTube's queue "
        "within seconds, then completes",
        flush=True,
    )
    clip = os.path.join(root, "worker-kill.mp4")
    make_clip(clip, 20)
    video = peertube.upload(clip, "e2e-worker-kill")
    job = wait_for(
        "a job running on the worker with its ffmpeg",
        lambda: held_job(peertube, video, worker),
        180,
        0.3,
    )
    time.sleep(2)
    kill_worker(worker)
    print(
        "  figure: with the worker gone PeerTube has the job: "
        f"{describe_job(job_now(peertube, job))}",
        flush=True,
    )
    launched = time.time()
    worker.restart()
    up = time.time() - launched
    try:
        back = wait_for(
            "the held job back in PeerTube's queue",
            job_returned(peertube, job),
            round(max(0.1, HANDED_BACK_S - up), 1),
            0.2,
        )
    except Failure as failure:
        raise Failure(
            f"{failure} after the worker was up in {up:.1f} s of its restart; the job:"
            f"{describe_job(job_now(peertube, job))[1:]}"
        ) from None
    took = time.time() - launched
    check(
        took <= HANDED_BACK_S,
        f"the job was {STATE_NAMES.get(back['state']['id'])} again {took:.1f} s after "
        f"the restart (the worker up in {up:.1f} s), within {HANDED_BACK_S} s",
    )
    done = upload_done(peertube, video, worker)
    wait_for("every job to complete after the restart", done, 600, 1)
    check(True, "every job of the upload completed: " + done.said())
    check(worker.status()["state"] == "AVAILABLE", "the restarted worker is AVAILABLE")


# The fake GPU encodes with x264 on the CPU, at the speed NVENC's preset names: these cases
# need no more than a job long enough to act on while it runs, so their workers encode at p1
# (x264's ultrafast), which leaves the two cores to PeerTube. The pool's cases keep the default.
FAST_ENCODES = ("--nvenc-preset", "p1")


def case_two_workers(args, peertube, worker, root, registration_file, fault_file, argv_log):
    print(
        "case: a second worker on a second fake GPU shares the queue; its session cap holds",
        flush=True,
    )
    # Two sessions less the reserve of one: one encode at a time, so one job at a time.
    second = Worker(
        args,
        root,
        "gpu1",
        peertube.url,
        registration_file,
        fault_file,
        argv_log,
        extra=("--sessions-cap", "2", *FAST_ENCODES),
    )
    try:
        # The second runner must be asking for work before the upload, and the first worker
        # takes one job at a time, so the queue is really shared rather than won by whichever
        # runner connected first.
        wait_for(
            "the second runner asking its gate for jobs",
            lambda: "gate: jobs-request:" in second.tail(),
            240,
            1,
        )
        check(worker.control("concurrency", "1")["ok"], "the first worker takes one job at a time")
        clip = os.path.join(root, "two.mp4")
        make_clip(clip, 10)
        video = peertube.upload(clip, "e2e-two")
        most, busy, jobs = 0, False, None
        done = upload_done(peertube, video, worker, second)
        deadline = time.time() + 420
        while time.time() < deadline:
            ffmpegs = subprocess.run(
                ["pgrep", "-f", "h264_nvenc.*" + second.dir], capture_output=True, text=True
            ).stdout.split()
            most = max(most, len(ffmpegs))
            if ffmpegs and second.status()["state"] == "BUSY":
                busy = True
            jobs = done()
            if jobs:
                break
            time.sleep(0.3)
        check(jobs is not None, "every job of the upload completed: " + done.said())
        names = {j["runner"]["name"] for j in jobs}
        check(
            names == {"e2e:gpu0", "e2e:gpu1"}, f"both workers' runners took jobs: {sorted(names)}"
        )
        check(most == 1, f"the capped worker never ran more than one ffmpeg at once: {most}")
        check(busy, "the capped worker was BUSY while its one session was in use")
        status = second.status()
        check(
            status["gpu"]["sessions"]["cap"] == 2
            and status["gpu"]["sessions"]["cap_source"] == "config",
            f"its cap is the configured one: {status['gpu']['sessions']}",
        )
    finally:
        worker.control("concurrency", "auto")
        second.stop()


def case_intel_upload(args, peertube, worker, root, registration_file, fault_file, argv_log):
    print(
        "case: an upload is transcoded on an Intel GPU (the VA-API fake), every rendition by "
        "h264_vaapi on its render node, with evidence",
        flush=True,
    )
    intel = Worker(
        args,
        root,
        "intel0",
        peertube.url,
        registration_file,
        fault_file,
        argv_log,
        va_dump=INTEL_DUMP,
    )
    try:
        status = intel.status()
        check(
            status["state"] == "AVAILABLE" and status["gpu"]["vendor"] == "intel",
            f"the Intel worker passed its self-test and is AVAILABLE: {status['state']}, "
            f"{status['gpu']}",
        )
        wait_for(
            "the Intel worker's runner asking its gate for jobs",
            lambda: "gate: jobs-request:" in intel.tail(),
            240,
            1,
        )
        # The NVIDIA worker drains, so that the queue is the Intel worker's alone.
        check(worker.control("drain")["ok"], "the NVIDIA worker drains")
        before = intel.status()["jobs"]
        lines_before = len(job_argv_lines(argv_log))
        info = transcode_upload(peertube, intel, root, "intel", "e2e:intel0")
        for f in info["files"] + [f for p in info["streamingPlaylists"] for f in p["files"]]:
            played = subprocess.run(
                ["ffmpeg", "-v", "error", "-nostdin", "-i", f["fileUrl"], "-f", "null", "-"],
                capture_output=True,
                text=True,
                timeout=120,
            )
            check(
                played.returncode == 0 and not played.stderr.strip(),
                f"the served {f['resolution']['id']}p file plays clean in a software decoder: "
                f"{played.stderr[-300:]}",
            )
        lines = job_argv_lines(argv_log)[lines_before:]
        check(len(lines) >= 8, f"the argv log holds the jobs' ffmpeg runs: {len(lines)}")
        check(not any("libx264" in line for line in lines), "no job's ffmpeg ran libx264")
        check(
            all("h264_vaapi" in line and "/dev/dri/renderD128" in line for line in lines),
            "every job's ffmpeg ran h264_vaapi on the render node",
        )
        status = intel.status()
        check(
            status["jobs"]["completed"] >= before["completed"] + 8
            and status["jobs"]["failed"] == before["failed"],
            f"the Intel worker counts 8 more jobs completed and none failed: {before} then "
            f"{status['jobs']}",
        )
        evidence = status["hw_evidence_last_job"]
        check(
            evidence
            and evidence["ok"]
            and "DRM fdinfo of 1 clients" in evidence["method"]
            and ", video 0 ns" not in evidence["method"],
            "the last job's evidence is video-engine time in the render node's DRM fdinfo: "
            f"{evidence}",
        )
    finally:
        worker.control("enable")
        intel.stop()


def case_no_gpu(args, peertube, root, registration_file):
    print(
        "case: on a machine with no GPU the worker registers nothing and starts no runner",
        flush=True,
    )
    empty = os.path.join(root, "no-gpu")
    os.makedirs(os.path.join(empty, "sys"))
    os.makedirs(os.path.join(empty, "dev"))
    state = os.path.join(root, "no-gpu-state")
    before = len(peertube.runners())
    env = dict(
        os.environ,
        MEDIA_CAP_SYSFS_ROOT=os.path.join(empty, "sys"),
        MEDIA_CAP_DEV_ROOT=os.path.join(empty, "dev"),
    )
    run = subprocess.run(
        [
            os.path.join(args.build, "media-capabilities"),
            "worker",
            "run",
            *ALLOW_ROOT,
            "--gpu",
            "0",
            "--state-dir",
            state,
            "--url",
            peertube.url,
            "--registration-token-file",
            registration_file,
            "--runner",
            args.node + " " + args.runner_js,
            "--gate-listen",
            "127.0.0.1:0",
            "--listen",
            "127.0.0.1:0",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    check(
        run.returncode == 3 and "GPU_UNAVAILABLE" in run.stderr,
        f"the worker stops GPU_UNAVAILABLE (exit {run.returncode}): {run.stderr.strip()[-300:]}",
    )
    check(not os.path.exists(os.path.join(state, "registration.json")), "it registered nothing")
    check(len(peertube.runners()) == before, "PeerTube has no new runner")


# Runner 0.2 and later send their version in the job request's body. The runner built here is 0.1.3;
# a copy beside it (where its imports resolve) sends the body as the later ones do.
REQUEST_FIELDS = 'fields: pick(options, ["runnerToken", "jobTypes"])'
LATER_REQUEST_FIELDS = (
    'fields: Object.assign(pick(options, ["runnerToken", "jobTypes"]), ' '{ version: "0.2.0" })'
)


def runner_with_later_bodies(runner_js):
    with open(runner_js) as f:
        source = f.read()
    if source.count(REQUEST_FIELDS) != 1:
        raise Failure(f"{runner_js}: the job request's fields are not where the e2e expects them")
    later = runner_js.replace(".js", ".later-bodies.js")
    with open(later, "w") as f:
        f.write(source.replace(REQUEST_FIELDS, LATER_REQUEST_FIELDS))
    return later


CASES = [
    "upload",
    "hostile-tags",
    "hostile-files",
    "honest-and-hostile-uploads",
    "drain",
    "gpu-fails",
    "two-workers",
    "intel-upload",
    "runner-killed",
    "worker-killed",
    "server-restarted",
    "no-gpu",
]


def main():
    global ARGS
    ARGS = args = parse_arguments(
        lambda parser: parser.add_argument("--case", action="append", choices=CASES)
    )
    cases = args.case or CASES
    root = new_root("mc-peertube-e2e-")
    kit = Kit(args, root)
    worker = None
    failed = None
    try:
        peertube = kit.connect(root)
        registration_file = args.registration_file = kit.registration_file
        fault_file = os.path.join(root, "fault")
        open(fault_file, "w").close()
        argv_log = argv_log_in(root)
        if "no-gpu" in cases:
            began = time.time()
            case_no_gpu(args, peertube, root, registration_file)
            print(f"  time: the case no-gpu took {time.time() - began:.0f} s", flush=True)
        if set(cases) - {"no-gpu"}:
            began = time.time()
            worker = Worker(
                args,
                root,
                "gpu0",
                peertube.url,
                registration_file,
                fault_file,
                argv_log,
                extra=FAST_ENCODES,
                runner_js=runner_with_later_bodies(args.runner_js),
            )
            print(
                f"  time: the worker started (its self-test, its registration) in "
                f"{time.time() - began:.0f} s",
                flush=True,
            )
            for name in (c for c in cases if c != "no-gpu"):
                began = time.time()
                run_case(
                    name, args, kit, peertube, worker, root, registration_file, fault_file, argv_log
                )
                print(f"  time: the case {name} took {time.time() - began:.0f} s", flush=True)
    except (Failure, urllib.error.URLError, subprocess.CalledProcessError, KeyError) as error:
        failed = error
    finally:
        if worker:
            worker.stop()
        kit.stop()
    return finish(failed, root, "worker", worker.tail if worker else None)


def run_case(name, args, kit, peertube, worker, root, registration_file, fault_file, argv_log):
    if name == "upload":
        case_upload(peertube, worker, root, argv_log)
    elif name == "hostile-tags":
        case_hostile_tags(peertube, worker, root, argv_log)
    elif name == "hostile-files":
        case_hostile_files(peertube, worker, root, argv_log)
    elif name == "honest-and-hostile-uploads":
        case_honest_and_hostile_uploads(peertube, worker, root, argv_log)
    elif name == "drain":
        case_drain(peertube, worker, root, argv_log)
    elif name == "gpu-fails":
        case_gpu_fails(peertube, worker, root, argv_log, fault_file)
    elif name == "two-workers":
        case_two_workers(args, peertube, worker, root, registration_file, fault_file, argv_log)
    elif name == "intel-upload":
        case_intel_upload(args, peertube, worker, root, registration_file, fault_file, argv_log)
    elif name == "runner-killed":
        case_runner_killed(peertube, worker, root, argv_log)
    elif name == "worker-killed":
        case_worker_killed(peertube, worker, root, argv_log)
    elif name == "server-restarted":
        case_server_restarted(kit, peertube, worker, root, argv_log)


if __name__ == "__main__":
    sys.exit(main())
