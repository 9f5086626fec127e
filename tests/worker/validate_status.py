#!/usr/bin/env python3
"""validate_status.py SCHEMA DOCUMENT...: checks each status document against the JSON Schema
with a real validator (python3-jsonschema); prints one line per document, exits 1 on any error."""
import json
import sys

import jsonschema


def main():
    schema = json.load(open(sys.argv[1]))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    failed = False
    for path in sys.argv[2:]:
        errors = sorted(validator.iter_errors(json.load(open(path))), key=lambda e: list(e.path))
        for error in errors:
            print(f"{path}: {'/'.join(str(p) for p in error.path)}: {error.message}")
        if not errors:
            print(f"{path}: valid")
        failed |= bool(errors)
    sys.exit(1 if failed else 0)


main()
