#!/usr/bin/env python3
"""Python `re` answers for patterns and probe strings (the engine python-jsonschema uses).

Usage: python3 regex_matches.py INPUT.json
INPUT.json: {"patterns": [str, ...], "probes": [str, ...]}
stdout: a JSON array with, per pattern, an array of booleans: re.search(pattern, probe) found a match.
"""
import json
import re
import sys


def main() -> int:
    with open(sys.argv[1], encoding="utf-8") as handle:
        data = json.load(handle)
    json.dump([[re.search(pattern, probe) is not None for probe in data["probes"]] for pattern in data["patterns"]], sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
