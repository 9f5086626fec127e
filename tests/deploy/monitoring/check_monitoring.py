#!/usr/bin/python3
"""check_monitoring.py [--promtool PROMTOOL] [--generate] SCRAPE...: holds deploy/monitoring/ to
what the binaries really export and to the conventions it follows (docs/monitoring.md):

  - every metric that a rule, a dashboard panel, a dashboard variable or a test's input series
    names is in the scrapes given (Prometheus text, as recorded by record_scrapes.py or saved by an
    end-to-end run), with every label it matches on, groups by or shows, and every label value it
    matches exactly; a test's input series carries exactly the scrape's labels, plus the target's;
  - the alerts: CamelCase names, a `severity` of critical, warning or info, a `summary` ending
    with a period, a `description`, a `runbook_url` whose anchor is a heading of
    docs/troubleshooting.md, and a test in which each fires and one in which it is silent;
  - the dashboards: a templated data source, a unit and a description on every panel,
    `$__rate_interval` in every rate, unique uids; every panel's expression parses
    (`promtool check rules` on the expressions wrapped as recording rules, given --promtool);
  - kustomization.yaml ships every dashboard in a ConfigMap labelled grafana_dashboard: "1", and
    prometheusrule.yaml is what --generate writes from the two rule files.

A scrape covers the metrics of its product (mc_agent_, pt_worker_, pt_pool_); the metrics of a
product with no scrape given, and of a family declared with no sample, are not checked, and the
output says so. Exit 0 when every check holds; each failure is printed."""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

import yaml
from prometheus_client.parser import text_string_to_metric_families

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "../../.."))
MONITORING = os.path.join(REPO, "deploy/monitoring")
RULE_FILES = ["prometheus_alerts.yaml", "prometheus_rules.yaml"]
TESTS = os.path.join(HERE, "alerts_test.yaml")
TROUBLESHOOTING = os.path.join(REPO, "docs/troubleshooting.md")
PRODUCTS = ("mc_agent_", "pt_worker_", "pt_pool_")
# Labels that Prometheus adds to every series of a target: its job and address, and the pod's
# own labels a ServiceMonitor or PodMonitor attaches in Kubernetes.
TARGET_LABELS = {"job", "instance", "namespace", "pod", "container", "service", "endpoint"}
SEVERITIES = {"critical", "warning", "info"}
# The PromQL words that are not metric names when they stand alone.
KEYWORDS = {
    "and",
    "or",
    "unless",
    "by",
    "without",
    "on",
    "ignoring",
    "group_left",
    "group_right",
    "bool",
    "offset",
    "inf",
    "nan",
    "atan2",
}
GROUPING = {"by", "without", "on", "ignoring", "group_left", "group_right"}

failures = []


def fail(message):
    failures.append(message)
    print(f"FAIL: {message}")


# --- The scrapes ------------------------------------------------------------------------------


class Scrapes:
    """Every sample name with the label names and values it was seen with."""

    def __init__(self, paths):
        self.labels = {}  # sample name -> {label: set of values}
        # Families a scrape declared without a sample (no job pending, say): their labels are
        # unknown, so only their names are checked.
        self.empty = set()
        for path in paths:
            with open(path) as f:
                text = f.read()
            try:
                for family in text_string_to_metric_families(text):
                    if not family.samples:
                        suffix = "_total" if family.type == "counter" else ""
                        self.empty.add(family.name + suffix)
                    for sample in family.samples:
                        seen = self.labels.setdefault(sample.name, {})
                        for label, value in sample.labels.items():
                            seen.setdefault(label, set()).add(value)
            except Exception as error:  # the parser's words are the finding
                fail(f"{path} does not parse as Prometheus text: {error}")
        self.empty -= set(self.labels)
        self.products = {p for p in PRODUCTS if any(name.startswith(p) for name in self.labels)}

    def covers(self, metric):
        return any(metric.startswith(p) for p in self.products)


# --- PromQL, read as far as these files need ---------------------------------------------------

TOKEN = re.compile(
    r"\s+|(?P<string>\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'|`[^`]*`)"
    r"|(?P<range>\[[^\]]*\])|(?P<name>[A-Za-z_:][A-Za-z0-9_:]*)"
    r"|(?P<number>[0-9][0-9.eE+]*)|(?P<op>=~|!~|!=|==|>=|<=|[-+*/%^<>=(){},])|(?P<var>\$\{?\w+\}?)"
)


def tokens(expr):
    out = []
    position = 0
    while position < len(expr):
        match = TOKEN.match(expr, position)
        if not match:
            raise ValueError(f"cannot read {expr[position:]!r}")
        position = match.end()
        if match.lastgroup:
            out.append((match.lastgroup, match.group(match.lastgroup)))
    return out


class Selector:
    def __init__(self, metric):
        self.metric = metric
        self.matchers = []  # (label, op, value)


def read_expr(expr):
    """The selectors of `expr` and the labels its grouping clauses name."""
    selectors, grouping = [], set()
    items = tokens(expr)
    i = 0
    while i < len(items):
        kind, text = items[i]
        following = items[i + 1][1] if i + 1 < len(items) else None
        if kind == "name" and text in GROUPING and following == "(":
            i += 2
            while items[i][1] != ")":
                if items[i][0] == "name":
                    grouping.add(items[i][1])
                i += 1
        elif kind == "name" and following == "(" or kind == "name" and text in KEYWORDS:
            pass  # a function, an aggregation or a keyword
        elif kind == "name":
            selector = Selector(text)
            selectors.append(selector)
            if following == "{":
                i += 2
                while items[i][1] != "}":
                    if items[i][0] == "name":
                        label, op, value = items[i][1], items[i + 1][1], items[i + 2][1]
                        selector.matchers.append((label, op, value[1:-1]))
                        i += 3
                    else:
                        i += 1
        i += 1
    return selectors, grouping


# --- The checks -------------------------------------------------------------------------------


def load_rules():
    groups = []
    for name in RULE_FILES:
        with open(os.path.join(MONITORING, name)) as f:
            groups += yaml.safe_load(f)["groups"]
    return groups


def recorded_labels(groups, scrapes):
    """Each recording rule's name and the labels its series carry."""
    records = {}
    for group in groups:
        for rule in group["rules"]:
            if "record" not in rule:
                continue
            selectors, grouping = read_expr(rule["expr"])
            if " by (" in rule["expr"] or rule["expr"].startswith(("sum by", "count by")):
                labels = set(grouping)
            else:
                labels = set(TARGET_LABELS)
                for s in selectors:
                    labels |= set(scrapes.labels.get(s.metric, {}))
            records[rule["record"]] = labels
    return records


def check_expr(where, expr, scrapes, records, shown=()):
    """The metrics and labels `expr` names exist; so do the labels `shown` (a legend's, an
    annotation's). Gives the labels its series may carry."""
    try:
        selectors, grouping = read_expr(expr)
    except (ValueError, IndexError) as error:
        fail(f"{where}: cannot read the expression {expr!r}: {error}")
        return set()
    available = set(TARGET_LABELS)
    unchecked = False
    for selector in selectors:
        metric = selector.metric
        if metric in records:
            labels = {label: None for label in records[metric]}
        elif not scrapes.covers(metric) or metric in scrapes.empty:
            unchecked = True
            continue
        elif metric not in scrapes.labels:
            fail(f"{where}: {metric} is in no scrape")
            continue
        else:
            labels = scrapes.labels[metric]
        available |= set(labels)
        for label, op, value in selector.matchers:
            if label in TARGET_LABELS:
                continue
            if label not in labels:
                fail(f"{where}: {metric} has no label {label} in the scrapes")
            elif op == "=" and labels[label] is not None and value not in labels[label]:
                fail(
                    f"{where}: {metric}{{{label}={value!r}}} is in no scrape "
                    f"(seen: {sorted(labels[label])})"
                )
    if unchecked:
        return None
    for label in set(grouping) | set(shown):
        if label not in available:
            fail(f"{where}: the label {label} is on none of {sorted(s.metric for s in selectors)}")
    return available


def check_alerts(groups, scrapes, records, headings):
    alerts = []
    for group in groups:
        for rule in group["rules"]:
            if "alert" in rule:
                alerts.append(rule["alert"])
                check_alert(rule, scrapes, records, headings)
            else:
                check_expr(f"record {rule['record']}", rule["expr"], scrapes, records)
    return alerts


def check_alert(rule, scrapes, records, headings):
    name = rule["alert"]
    where = f"alert {name}"
    if not re.fullmatch(r"(?:[A-Z][a-z0-9]*|GPU|NVENC|DRA)+", name):
        fail(f"{where}: the name is not CamelCase")
    if rule.get("labels", {}).get("severity") not in SEVERITIES:
        fail(f"{where}: severity must be one of {sorted(SEVERITIES)}")
    annotations = rule.get("annotations", {})
    if not annotations.get("summary", "").endswith("."):
        fail(f"{where}: the summary is missing or does not end with a period")
    if not annotations.get("description"):
        fail(f"{where}: no description")
    anchor = annotations.get("runbook_url", "").partition("docs/troubleshooting.md#")[2]
    if not anchor:
        fail(f"{where}: the runbook_url is not a section of docs/troubleshooting.md")
    elif anchor not in headings:
        fail(f"{where}: docs/troubleshooting.md has no section #{anchor}")
    elif anchor != name.lower():
        fail(f"{where}: the runbook's anchor is #{anchor}, not #{name.lower()}")
    shown = set()
    for text in annotations.values():
        shown |= set(re.findall(r"\$labels\.(\w+)", text))
    check_expr(where, rule["expr"], scrapes, records, shown)


def github_anchors(path):
    anchors = set()
    with open(path) as f:
        for line in f:
            heading = re.match(r"#+\s+(.*)", line)
            if heading:
                text = re.sub(r"[^\w\- ]", "", heading.group(1).strip().lower())
                anchors.add(text.replace(" ", "-"))
    return anchors


def check_tests(alerts, scrapes):
    with open(TESTS) as f:
        tests = yaml.safe_load(f)["tests"]
    fires, silent = set(), set()
    for number, test in enumerate(tests, 1):
        for series in test["input_series"]:
            selectors, _ = read_expr(series["series"])
            selector = selectors[0]
            metric = selector.metric
            if not scrapes.covers(metric) or metric in scrapes.empty:
                continue
            where = f"alerts_test.yaml test {number}: {series['series']}"
            if metric not in scrapes.labels:
                fail(f"{where}: {metric} is in no scrape")
                continue
            own = {label for label, _, _ in selector.matchers} - TARGET_LABELS
            if own != set(scrapes.labels[metric]):
                fail(
                    f"{where}: labels {sorted(own)}, a scrape has {sorted(scrapes.labels[metric])}"
                )
            for label, _, value in selector.matchers:
                seen = scrapes.labels[metric].get(label)
                # Every scrape lists every state and result; a vendor depends on the machine.
                if seen and label in {"state", "result"} and value not in seen:
                    fail(f"{where}: {label}={value!r} is in no scrape (seen: {sorted(seen)})")
        for case in test.get("alert_rule_test", []):
            (fires if case.get("exp_alerts") else silent).add(case["alertname"])
    for alert in alerts:
        if alert not in fires:
            fail(f"alert {alert}: no test in which it fires")
        if alert not in silent:
            fail(f"alert {alert}: no test in which it is silent")
    return len(tests)


def check_dashboards(scrapes, records):
    expressions = []
    uids = set()
    directory = os.path.join(MONITORING, "dashboards")
    for name in sorted(os.listdir(directory)):
        with open(os.path.join(directory, name)) as f:
            board = json.load(f)
        where = f"dashboards/{name}"
        if board.get("uid") in uids:
            fail(f"{where}: the uid {board.get('uid')} is taken")
        uids.add(board.get("uid"))
        variables = board.get("templating", {}).get("list", [])
        if not any(
            v.get("type") == "datasource" and v.get("name") == "datasource" for v in variables
        ):
            fail(f"{where}: no datasource variable")
        for variable in variables:
            query = variable.get("definition", "")
            found = re.fullmatch(r"label_values\((\w+), *(\w+)\)", query)
            if variable.get("type") == "query" and not found:
                fail(f"{where}: the variable {variable['name']} is not label_values(METRIC, LABEL)")
            elif found:
                check_expr(
                    f"{where} variable {variable['name']}",
                    found.group(1),
                    scrapes,
                    records,
                    {found.group(2)},
                )
        for panel in board["panels"]:
            if panel["type"] == "row":
                continue
            title = f"{where} panel {panel['title']!r}"
            if not panel.get("description"):
                fail(f"{title}: no description")
            if not panel.get("fieldConfig", {}).get("defaults", {}).get("unit"):
                fail(f"{title}: no unit")
            if panel.get("datasource", {}).get("uid") != "${datasource}":
                fail(f"{title}: its data source is not ${{datasource}}")
            for target in panel["targets"]:
                expr = target["expr"]
                if target.get("datasource", {}).get("uid") != "${datasource}":
                    fail(f"{title}: a target's data source is not ${{datasource}}")
                for window in re.findall(r"\b(?:rate|increase|irate)\([^\[]*\[([^\]]*)\]", expr):
                    if window != "$__rate_interval":
                        fail(f"{title}: a rate over [{window}], not [$__rate_interval]")
                shown = re.findall(r"\{\{\s*(\w+)\s*\}\}", target.get("legendFormat", ""))
                check_expr(title, expr, scrapes, records, shown)
                expressions.append((title, expr))
    return expressions, len(uids)


def check_records_are_read(records, expressions):
    """Each recording rule is there for a dashboard, and a test computes it."""
    with open(TESTS) as f:
        tested = {
            case["expr"]
            for test in yaml.safe_load(f)["tests"]
            for case in test.get("promql_expr_test", [])
        }
    for record in records:
        if not any(
            re.search(rf"(?<![\w:]){re.escape(record)}(?![\w:])", e) for _, e in expressions
        ):
            fail(f"record {record}: no dashboard panel reads it")
        if record not in tested:
            fail(f"record {record}: no promql_expr_test computes it")


def check_promql(promtool, expressions):
    """Every panel's expression parses: promtool checks them as recording rules."""
    rules = [
        {
            "record": f"dashboard:expression:{i}",
            "expr": re.sub(
                r"\$\{?\w+\}?", lambda m: "5m" if "rate_interval" in m.group(0) else ".*", expr
            ),
        }
        for i, (_, expr) in enumerate(expressions)
    ]
    with tempfile.NamedTemporaryFile("w", suffix=".yaml") as f:
        yaml.safe_dump({"groups": [{"name": "dashboards", "rules": rules}]}, f)
        f.flush()
        checked = subprocess.run(
            [promtool, "check", "rules", f.name], capture_output=True, text=True
        )
    if checked.returncode != 0:
        fail(f"a dashboard expression does not parse: {checked.stdout}{checked.stderr}")


def prometheus_rule(groups):
    header = (
        "# Generated from prometheus_alerts.yaml and prometheus_rules.yaml by\n"
        "# tests/deploy/monitoring/check_monitoring.py --generate: edit those, then generate.\n"
    )
    rule = {
        "apiVersion": "monitoring.coreos.com/v1",
        "kind": "PrometheusRule",
        "metadata": {
            "name": "media-capabilities",
            "namespace": "monitoring",
            "labels": {"app.kubernetes.io/part-of": "media-capabilities"},
        },
        "spec": {"groups": groups},
    }
    return header + yaml.safe_dump(rule, sort_keys=False, width=100)


def check_kustomization():
    with open(os.path.join(MONITORING, "kustomization.yaml")) as f:
        kustomization = yaml.safe_load(f)
    for resource in kustomization.get("resources", []):
        if not os.path.exists(os.path.join(MONITORING, resource)):
            fail(f"kustomization.yaml: the resource {resource} does not exist")
    shipped = set()
    for generator in kustomization.get("configMapGenerator", []):
        labels = generator.get("options", {}).get("labels", {})
        for entry in generator.get("files", []):
            path = entry.partition("=")[2] or entry
            shipped.add(os.path.basename(path))
            if labels.get("grafana_dashboard") != "1":
                fail(
                    f"kustomization.yaml: {path}'s ConfigMap lacks the label "
                    'grafana_dashboard: "1"'
                )
    for name in os.listdir(os.path.join(MONITORING, "dashboards")):
        if name not in shipped:
            fail(f"kustomization.yaml: the dashboard {name} is in no ConfigMap")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--promtool")
    parser.add_argument("--generate", action="store_true")
    parser.add_argument("scrapes", nargs="*")
    args = parser.parse_args()
    groups = load_rules()
    generated = os.path.join(MONITORING, "prometheusrule.yaml")
    if args.generate:
        with open(generated, "w") as f:
            f.write(prometheus_rule(groups))
        print(f"wrote {os.path.relpath(generated, REPO)}")
        return
    scrapes = Scrapes(args.scrapes)
    records = recorded_labels(groups, scrapes)
    alerts = check_alerts(groups, scrapes, records, github_anchors(TROUBLESHOOTING))
    tests = check_tests(alerts, scrapes)
    expressions, boards = check_dashboards(scrapes, records)
    check_records_are_read(records, expressions)
    if args.promtool:
        check_promql(args.promtool, expressions)
    with open(generated) as f:
        if f.read() != prometheus_rule(groups):
            fail(
                "prometheusrule.yaml is not what the rule files make: run "
                "tests/deploy/monitoring/check_monitoring.py --generate"
            )
    check_kustomization()
    missing = [p.rstrip("_") for p in PRODUCTS if p not in scrapes.products]
    missing += sorted(scrapes.empty)
    print(
        f"check_monitoring: {len(alerts)} alerts, {len(records)} recording rules, "
        f"{tests} test groups, {boards} dashboards with {len(expressions)} expressions; "
        f"metrics checked against {len(args.scrapes)} scrape(s)"
        + (f"; not checked, no sample in the scrapes: {', '.join(missing)}" if missing else "")
    )
    if failures:
        print(f"check_monitoring: {len(failures)} failure(s)")
        sys.exit(1)


main()
