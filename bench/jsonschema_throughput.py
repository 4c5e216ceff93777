"""The Python anchor of bench/throughput-bench.ts: python-jsonschema with PyYAML (and tomllib for
TOML), the engine check-jsonschema wraps, validating every manifest of a tree against the
published schema in one process. Prints the number of files and how many the schema refused."""
import json
import os
import sys
import tomllib

import jsonschema
import yaml

schema_path, root = sys.argv[1], sys.argv[2]
with open(schema_path, encoding="utf-8") as handle:
    validator = jsonschema.Draft7Validator(json.load(handle))
files = refused = 0
for folder, dirs, names in os.walk(root):
    dirs.sort()
    for name in sorted(names):
        if name not in ("svc.yaml", "svc.yml", "svc.toml"):
            continue
        path = os.path.join(folder, name)
        with open(path, "rb") as handle:
            data = handle.read()
        files += 1
        try:
            value = tomllib.loads(data.decode("utf-8")) if name.endswith(".toml") else yaml.safe_load(data)
        except Exception:
            refused += 1
            continue
        if next(validator.iter_errors(value), None) is not None:
            refused += 1
print(json.dumps({"files": files, "refused": refused}))
