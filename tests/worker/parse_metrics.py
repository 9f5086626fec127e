#!/usr/bin/env python3
"""parse_metrics.py FILE: parses Prometheus text with a real parser (python3-prometheus-client)
and prints the families as JSON: {family: {"type": ..., "samples": [[name, labels, value], ...]}}.
A text the parser refuses makes it exit 1 with the parser's error."""
import json
import sys

from prometheus_client.parser import text_string_to_metric_families


def main():
    text = open(sys.argv[1]).read()
    families = {}
    try:
        for family in text_string_to_metric_families(text):
            families[family.name] = {
                "type": family.type,
                "samples": [[s.name, s.labels, s.value] for s in family.samples],
            }
    except Exception as error:  # the parser's own words are the test's message
        print(f"parse error: {error}", file=sys.stderr)
        sys.exit(1)
    print(json.dumps(families))


main()
