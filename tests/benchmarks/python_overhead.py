#!/usr/bin/env python3
"""The per-call overhead of the Python module against the CLI process, on a small model (sync,
n = 2, one task per processor, one replication, one thread): the median wall time of CALLS calls
of hetstruct.simulate and of CALLS runs of `build/hetstruct simulate ... --format csv` (process
start, parsing, the run, the CSV) read back by Python, alternated so that both see the same load.

    PYTHONPATH=build/python /usr/bin/python3 tests/benchmarks/python_overhead.py [CALLS] [BINARY]
"""
import statistics
import subprocess
import sys
import time

import hetstruct

calls = int(sys.argv[1]) if len(sys.argv) > 1 else 200
binary = sys.argv[2] if len(sys.argv) > 2 else "build/hetstruct"
args = [binary, "simulate", "--structure", "sync", "--n", "2", "--levels", "1", "--reps", "1", "--threads", "1",
        "--estimator", "mc", "--format", "csv"]
kwargs = dict(structure="sync", n=2, levels=1, reps=1, threads=1, estimator="mc")

module, cli = [], []
for _ in range(calls):
    t0 = time.perf_counter()
    hetstruct.simulate(**kwargs)
    module.append(time.perf_counter() - t0)
    t0 = time.perf_counter()
    subprocess.run(args, check=True, capture_output=True)
    cli.append(time.perf_counter() - t0)

q = lambda xs, p: sorted(xs)[int(p * (len(xs) - 1))]  # noqa: E731
print("calls %d: module median %.1f us (lower quartile %.1f), CLI process median %.1f us (lower quartile %.1f), "
      "ratio %.0f" % (calls, 1e6 * statistics.median(module), 1e6 * q(module, 0.25), 1e6 * statistics.median(cli),
                      1e6 * q(cli, 0.25), statistics.median(cli) / statistics.median(module)))
