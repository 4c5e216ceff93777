#!/usr/bin/env python3
"""Independent JSON Schema verdicts for the svc manifest fixtures.

Usage: python3 jsonschema_verdicts.py DOCUMENTS.json SCHEMA.json [SCHEMA.json ...]

DOCUMENTS.json: a JSON array; each entry is {"json": <value>} (a YAML fixture the caller parsed)
or {"toml": "<path>"} (a TOML file, parsed here with Python's own tomllib, so TOML dates and times
stay datetime/date/time values, which no JSON Schema type accepts).
stdout: a JSON array, one entry per document:
  {"parseError": str | null, "version": 1 | 2 | null,
   "verdicts": {"<schema path>": {"valid": bool, "count": int, "errors": [...]}, ...}}
where "errors" holds up to five "<instance path>: <message>" strings and "count" is the number of
errors python-jsonschema reports (iter_errors).

Uses python3-jsonschema's Draft7Validator (Debian package `python3-jsonschema`), a JSON Schema
implementation that shares no code with ajv, so it checks the published schemas on their own.
Exits 2 with a message on stderr when jsonschema or tomllib cannot be imported.
"""
import json
import sys

try:
    import tomllib
    from jsonschema import Draft7Validator
except ImportError as error:  # pragma: no cover - reported by the vitest suite
    sys.stderr.write(
        "python3-jsonschema (and Python >= 3.11 for tomllib) is needed by %s (%s); install it with "
        "`apt-get install -y python3-jsonschema`\n" % (sys.executable, error)
    )
    sys.exit(2)


def load(entry):
    if "toml" in entry:
        with open(entry["toml"], "rb") as handle:
            return tomllib.load(handle)
    return entry["json"]


def main() -> int:
    if len(sys.argv) < 3:
        sys.stderr.write("usage: jsonschema_verdicts.py DOCUMENTS.json SCHEMA.json [SCHEMA.json ...]\n")
        return 2
    validators = {}
    for path in sys.argv[2:]:
        with open(path, encoding="utf-8") as handle:
            schema = json.load(handle)
        Draft7Validator.check_schema(schema)
        validators[path] = Draft7Validator(schema)
    with open(sys.argv[1], encoding="utf-8") as handle:
        entries = json.load(handle)
    results = []
    for entry in entries:
        try:
            document = load(entry)
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
            results.append({"parseError": str(error), "version": None, "verdicts": {}})
            continue
        version = document.get("svc_version") if isinstance(document, dict) else None
        if isinstance(version, bool) or version not in (1, 2):
            version = None
        verdicts = {}
        for path, validator in validators.items():
            errors = sorted(validator.iter_errors(document), key=lambda e: list(map(str, e.absolute_path)))
            verdicts[path] = {
                "valid": not errors,
                "count": len(errors),
                "errors": [
                    "/" + "/".join(str(part) for part in error.absolute_path) + ": " + error.message
                    for error in errors[:5]
                ],
            }
        results.append({"parseError": None, "version": version, "verdicts": verdicts})
    json.dump(results, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
