#!/usr/bin/env python3
"""Independent JSON Schema verdicts for the svc manifest fixtures.

Usage: /usr/bin/python3 jsonschema_verdicts.py SCHEMA.json [SCHEMA.json ...] < documents.json

stdin:  a JSON array of documents (already parsed from YAML/TOML by the caller).
stdout: a JSON array, one entry per document: {"<schema path>": {"valid": bool, "errors": [...]}, ...}
        where "errors" holds up to five "<instance path>: <message>" strings.

Uses python3-jsonschema's Draft7Validator (Debian package `python3-jsonschema`), a JSON Schema
implementation that shares no code with ajv, so it checks the published schemas on their own.
Exits 2 with a message on stderr when jsonschema cannot be imported.
"""
import json
import sys

try:
    import jsonschema
    from jsonschema import Draft7Validator
except ImportError as error:  # pragma: no cover - reported by the vitest suite
    sys.stderr.write(
        "python3-jsonschema is not installed for %s (%s); install it with "
        "`apt-get install -y python3-jsonschema`\n" % (sys.executable, error)
    )
    sys.exit(2)


def main() -> int:
    if len(sys.argv) < 2:
        sys.stderr.write("usage: jsonschema_verdicts.py SCHEMA.json [SCHEMA.json ...] < documents.json\n")
        return 2
    validators = {}
    for path in sys.argv[1:]:
        with open(path, encoding="utf-8") as handle:
            schema = json.load(handle)
        Draft7Validator.check_schema(schema)
        validators[path] = Draft7Validator(schema)
    documents = json.load(sys.stdin)
    verdicts = []
    for document in documents:
        verdict = {}
        for path, validator in validators.items():
            errors = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
            verdict[path] = {
                "valid": not errors,
                "errors": [
                    "/" + "/".join(str(part) for part in error.absolute_path) + ": " + error.message
                    for error in errors[:5]
                ],
            }
        verdicts.append(verdict)
    json.dump(verdicts, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
