#!/usr/bin/env python3
"""The admin's pages in a real browser: headless Chromium driven by Selenium.

One browser session loads every page it is given, at a phone's width, and checks:
  - a pool manager's page (--pool URL): every worker with its manager and admission states, and
    every row of the queue and of the jobs it does not serve, as the same server's /status
    reports them (read again and compared until they agree, since a cycle may fall between);
  - a worker's page (--worker URL): its state, the reason and its recent jobs, as its /status
    document says;
  - a page written to a file (--file PATH, with --file-workers NAME,...): the workers it names;
and on every page: nothing logged to the console, no request to another host, no script or
image element at all (a name holding markup shows as text: --hostile TEXT names a worker whose
name must appear exactly, as text, on every pool page whose report lists it, and at least one
does), and nothing wider than the phone's screen.

    check_pages.py [--pool URL]... [--worker URL]... [--file PATH --file-workers A,B]
                   [--hostile TEXT]

It runs under the virtual environment `make browser-deps` makes (Selenium pinned there), with
Debian's chromium and chromedriver. It prints a line per check and exits 1 on the first failure.
"""

import argparse
import json
import sys
import time
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
# The report and the page are read a moment apart; a cycle may change a state in between.
AGREE_TRIES = 8
# The pages whose report lists the worker named by --hostile.
HOSTILE_SHOWN = []


class Failure(Exception):
    pass


def check(condition, words):
    if not condition:
        raise Failure(words)
    print(f"  ok: {words}", flush=True)


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-extensions",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-default-apps",
        "--disable-sync",
    ):
        options.add_argument(flag)
    # A phone: the page's viewport applies, so a page too wide for it shows.
    options.add_experimental_option(
        "mobileEmulation", {"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 2}}
    )
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    return webdriver.Chrome(options=options, service=Service(executable_path=CHROMEDRIVER))


def read_json(url):
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.loads(response.read())


def load(driver, url):
    driver.get(url)
    # The page is whole once its last section is there; it has no script that adds more.
    for _ in range(50):
        if driver.execute_script("return document.readyState") == "complete":
            return
        time.sleep(0.1)
    raise Failure(f"{url} did not finish loading")


def check_page_hygiene(driver, url, allowed_origin):
    """No console message above info, no request beyond the page's own origin, no script or
    image element, and nothing wider than the screen."""
    logs = [entry for entry in driver.get_log("browser") if entry["level"] in ("SEVERE", "WARNING")]
    check(not logs, f"{url}: the console is quiet {logs if logs else ''}")
    foreign = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") != "Network.requestWillBeSent":
            continue
        request = message["params"]["request"]["url"]
        parsed = urllib.parse.urlsplit(request)
        if parsed.scheme in ("data", "about"):
            continue
        if f"{parsed.scheme}://{parsed.netloc}" != allowed_origin:
            foreign.append(request)
    check(not foreign, f"{url}: no request leaves {allowed_origin} {foreign if foreign else ''}")
    counts = driver.execute_script(
        "return [document.scripts.length, document.images.length, "
        "document.querySelectorAll('iframe,object,embed').length]"
    )
    check(counts == [0, 0, 0], f"{url}: no script, image or frame element in it: {counts}")
    wide = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    check(wide[0] <= wide[1] + 1, f"{url}: nothing is wider than a phone's screen: {wide}")


def origin_of(url):
    parsed = urllib.parse.urlsplit(url)
    return f"{parsed.scheme}://{parsed.netloc}"


def rows(driver, selector, attributes):
    """The attributes of every element `selector` matches, read in one turn of the page's own
    loop, so a reload (the page refreshes itself) cannot fall in between."""
    found = driver.execute_script(
        "return Array.from(document.querySelectorAll(arguments[0]))"
        ".map(e => arguments[1].map(a => e.getAttribute(a)))",
        selector,
        list(attributes),
    )
    return sorted(tuple(row) for row in found)


def pool_page_agrees(driver, url):
    """The workers and the queue on the page, and in /status read just before and after."""
    seen = {}
    for _ in range(AGREE_TRIES):
        before = read_json(url + "/status")
        load(driver, url + "/")
        after = read_json(url + "/status")
        workers = rows(
            driver,
            "#workers tr[data-worker]",
            ("data-worker", "data-manager-state", "data-admission-state"),
        )
        queue = rows(driver, "#queue tr[data-class]", ("data-class", "data-type", "data-count"))
        others = rows(driver, "#not-served tr[data-type]", ("data-type", "data-count"))
        seen = {"page": (workers, queue, others)}
        for name, report in (("before", before), ("after", after)):
            expected = (
                sorted(
                    (w["name"], w["manager_state"], w["admission_state"]) for w in report["workers"]
                ),
                sorted(
                    (r["class"], r["type"], str(r["count"])) for r in report["queue"]["by_class"]
                ),
                sorted(
                    (t, str(r["count"])) for t, r in report["queue"]["not_served_by_type"].items()
                ),
            )
            seen[name] = expected
            if expected == (workers, queue, others):
                return report, workers
        time.sleep(1)
    raise Failure(f"{url}: the page never showed what /status says: {seen}")


def check_pool(driver, url, hostile):
    report, workers = pool_page_agrees(driver, url)
    check(
        True,
        f"{url}: the page shows the {len(workers)} workers, their states and the queue that "
        f"/status reports ({sum(r['count'] for r in report['queue']['by_class'])} pending)",
    )
    charts = driver.execute_script("return document.querySelectorAll('#charts svg').length")
    check(charts == 4, f"{url}: four charts are drawn: {charts}")
    if hostile and any(w["name"] == hostile for w in report["workers"]):
        HOSTILE_SHOWN.append(url)
        names = driver.execute_script(
            "return Array.from(document.querySelectorAll('#workers td.name'))"
            ".map(e => e.textContent)"
        )
        check(hostile in names, f"{url}: the worker named {hostile!r} shows its name as text")
        pwned = driver.execute_script("return window.pwned === undefined")
        check(pwned, f"{url}: nothing in the name ran")
    check_page_hygiene(driver, url, origin_of(url))


def check_worker(driver, url):
    for _ in range(AGREE_TRIES):
        before = read_json(url + "/status")
        load(driver, url + "/")
        after = read_json(url + "/status")
        shown = tuple(
            driver.execute_script(
                "const s = document.getElementById('state');"
                "return [s.getAttribute('data-state'),"
                " document.getElementById('state-reason').textContent,"
                " document.querySelectorAll('#recent-jobs tr[data-job]').length]"
            )
        )
        state, reason, jobs = shown
        wanted = [(d["state"], d["state_reason"], len(d["recent_jobs"])) for d in (before, after)]
        if shown in wanted:
            break
        time.sleep(1)
    else:
        raise Failure(f"{url}: the page shows {shown}, /status says {wanted}")
    check(True, f"{url}: the page shows the state {state}, its reason and {jobs} recent jobs")
    title = driver.execute_script("return document.querySelector('h1').textContent")
    check(after["runner_name"] in title, f"{url}: the page names the runner {title!r}")
    check_page_hygiene(driver, url, origin_of(url))


def check_file(driver, path, names):
    url = "file://" + path
    load(driver, url)
    shown = sorted(row[0] for row in rows(driver, "#workers tr[data-worker]", ("data-worker",)))
    check(shown == sorted(names), f"{path}: the page shows the workers {shown}")
    charts = driver.execute_script("return document.querySelectorAll('#charts svg').length")
    check(charts == 4, f"{path}: four charts are drawn")
    check_page_hygiene(driver, url, "file://")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pool", action="append", default=[])
    parser.add_argument("--worker", action="append", default=[])
    parser.add_argument("--file")
    parser.add_argument("--file-workers", default="")
    parser.add_argument("--hostile")
    args = parser.parse_args()
    began = time.time()
    driver = None
    try:
        driver = browser()
        for url in args.pool:
            check_pool(driver, url.rstrip("/"), args.hostile)
        if args.hostile:
            check(HOSTILE_SHOWN, f"a pool's page names the worker {args.hostile!r}")
        for url in args.worker:
            check_worker(driver, url.rstrip("/"))
        if args.file:
            check_file(driver, args.file, [n for n in args.file_workers.split(",") if n])
    except (Failure, WebDriverException, OSError, KeyError) as error:
        print(f"FAILED: {error}", flush=True)
        return 1
    finally:
        if driver:
            driver.quit()
    print(f"  time: the browser's checks took {time.time() - began:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
