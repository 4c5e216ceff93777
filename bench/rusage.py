"""Runs a command once and prints, as JSON, its wall time and its CPU time (user + system, the
command and what it waited for) in milliseconds, and its exit status.

Why not /usr/bin/time: it prints CPU time in hundredths of a second, too coarse for runs of
60-100 ms (a median of such ratios lands on 1.29 or 1.33 by rounding). getrusage counts
microseconds. The bench harness (bench/cli-bench.ts) uses this when python3 is there.
"""

import json
import resource
import subprocess
import sys
import time

before = resource.getrusage(resource.RUSAGE_CHILDREN)
start = time.perf_counter()
status = subprocess.run(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
wall = time.perf_counter() - start
after = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
print(json.dumps({"ms": wall * 1000, "cpuMs": cpu * 1000, "status": status}))
