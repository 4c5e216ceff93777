#!/usr/bin/env python3
"""Reads TOML texts with Python's tomllib, for the differential test (reference-differential.test.ts).

stdin: JSON lines, each a JSON string (one TOML text). stdout: one JSON line per text, in order:
  {"value": <encoded>}    the text parses; its value encoded exactly (below)
  {"error": "<message>"}  tomllib refuses it
Encoding, so nothing is lost on the way to JavaScript: a table is a JSON object, an array a list,
a string and a boolean themselves; an integer {"$int": "<decimal digits>"} (any size); a float
{"$float": repr(x)} ("inf", "-inf", "nan" included); a date or time
{"$datetime": "<TOML type>", "value": "<canonical text>"}, where the canonical text is
YYYY-MM-DD, HH:MM:SS.ffffff, their join with "T", and for an offset date-time +HH:MM after it.
One process reads a whole batch.
"""
import datetime
import json
import sys
import tomllib


def time_text(value):
    return "%02d:%02d:%02d.%06d" % (value.hour, value.minute, value.second, value.microsecond)


def date_text(value):
    return "%04d-%02d-%02d" % (value.year, value.month, value.day)


def encode(value):
    if isinstance(value, dict):
        return {key: encode(item) for key, item in value.items()}
    if isinstance(value, list):
        return [encode(item) for item in value]
    if isinstance(value, bool) or isinstance(value, str):
        return value
    if isinstance(value, int):
        return {"$int": str(value)}
    if isinstance(value, float):
        return {"$float": repr(value)}
    if isinstance(value, datetime.datetime):
        text = date_text(value) + "T" + time_text(value)
        offset = value.utcoffset()
        if offset is None:
            return {"$datetime": "local-date-time", "value": text}
        minutes = int(offset.total_seconds()) // 60
        sign = "-" if minutes < 0 else "+"
        minutes = abs(minutes)
        return {"$datetime": "offset-date-time", "value": text + "%s%02d:%02d" % (sign, minutes // 60, minutes % 60)}
    if isinstance(value, datetime.date):
        return {"$datetime": "local-date", "value": date_text(value)}
    if isinstance(value, datetime.time):
        return {"$datetime": "local-time", "value": time_text(value)}
    raise TypeError("unexpected value %r" % (value,))


def main():
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        text = json.loads(line)
        try:
            result = {"value": encode(tomllib.loads(text))}
        except (tomllib.TOMLDecodeError, ValueError, RecursionError) as error:
            result = {"error": str(error) or type(error).__name__}
        out.write(json.dumps(result))
        out.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
