#!/usr/bin/env python3
"""The memory estimate that refuses a run too large (engine/driver/resources.cpp) against the
peak resident memory the run takes: within 25% on a regular structure of 10^6 processors and on
a DOT graph of 40,000 tasks, the estimate computed from the constants in resources.cpp as
model_bytes() computes it.

    tests/memory_estimate.py BINARY SOURCE_DIR
"""
import os
import random
import re
import resource
import subprocess
import sys
import tempfile

binary, source = sys.argv[1], sys.argv[2]
# Under a sanitizer every allocation carries the sanitizer's own: nothing to compare (77: skipped).
if re.search(r"lib[at]san", subprocess.run(["ldd", binary], capture_output=True, text=True).stdout):
    print("skipped: a sanitizer build")
    sys.exit(77)
text = open(os.path.join(source, "engine/driver/resources.cpp")).read()


def constant(name):
    match = re.search(r"constexpr double %s = ([0-9.]+)( \* 1024 \* 1024)?;" % name, text)
    if not match:
        sys.exit("FAIL: %s not found in resources.cpp" % name)
    return float(match.group(1)) * (1024 * 1024 if match.group(2) else 1)


per_processor, per_thread = constant("bytes_per_processor"), constant("bytes_per_processor_thread")
per_file_byte, base = constant("bytes_per_dag_file_byte"), constant("bytes_base")
threads = 2


def peak_of(args):
    """Peak RSS in bytes of one run (each run a fresh child: RUSAGE_CHILDREN's maximum is the
    largest child's so far, so the runs go from the smallest up)."""
    subprocess.run([binary] + args + ["--threads", str(threads), "--format", "csv"], check=True,
                   stdout=subprocess.DEVNULL)
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024.0


failed = False


def check(what, estimate, peak):
    global failed
    ratio = estimate / peak
    ok = 0.75 <= ratio <= 1.25
    failed |= not ok
    print("%s: %s: estimate %.0f MB, peak %.0f MB, ratio %.3f" % ("ok" if ok else "FAIL", what, estimate / 2**20,
                                                                  peak / 2**20, ratio))


with tempfile.TemporaryDirectory() as tmp:
    # A DOT graph of 40,000 tasks on 16 processors, two predecessors each among the 50 before.
    rng = random.Random(1)
    path = os.path.join(tmp, "graph.dot")
    with open(path, "w") as f:
        f.write("digraph g {\n")
        for i in range(40000):
            f.write('  t%d [law="u(0,%d)", processor=%d];\n' % (i, rng.randint(1, 9), rng.randint(0, 15)))
        for i in range(1, 40000):
            for j in rng.sample(range(max(0, i - 50), i), min(i, 2)):
                f.write("  t%d -> t%d;\n" % (j, i))
        f.write("}\n")
    size = os.path.getsize(path)
    check("a DOT file of %d bytes" % size, base + size * per_file_byte, peak_of(["simulate", "--graph", path, "--reps", "1"]))
    width = 1000000
    check("sync of %d processors" % width, base + width * (per_processor + threads * per_thread),
          peak_of(["simulate", "-s", "sync", "--n", str(width), "--reps", "1"]))
sys.exit(1 if failed else 0)
