#!/usr/bin/env bash
# Holds hetstruct's default makespan on WfFormat traces (ready dispatch where a trace records no
# starts, constant times, comm 0) against two independent simulations of the rule of docs/graphs.md:
# the Python reference tests/reference/fcfs_wfformat.py and the SimGrid program
# tests/reference/simgrid_fcfs.cpp (issue 38), the latter twice: a host per processor of its cores,
# and a host per core (--host-per-core).
#
#   tests/reference/check_simgrid.sh [--root DIR] [--summary] FOLDER_OR_FILE ...
#
# Traces: every .json under each FOLDER (recursively). For each it runs
#   build/hetstruct simulate --graph FILE --reps 1 --format csv      (the `mean` field)
#   fcfs_wfformat.py FILE
#   simgrid_fcfs FILE
#   simgrid_fcfs --host-per-core FILE
# and prints one row (file, the four makespans, the largest relative difference between any two).
# They agree when hetstruct, the reference and SimGrid with a host per core are within a relative
# difference of TOLERANCE of one another (each finish is its start plus its runtime; SimGrid's
# clock, moved by the difference to the next event, may round it once more: bit-identical on the
# 167 WfInstances traces, one unit in the last place on one of 200 random traces) and SimGrid with
# a host per processor is within
# SIMGRID_TOLERANCE of all three: on a host that runs several Execs SimGrid keeps a task's
# remaining work as its runtime less rate x elapsed at every start and finish on the host, which
# leaves a few units in the last place of the clock (4 at most on the 167 WfInstances traces:
# 5.94e-16 on srasearch-chameleon-50a-005); a trace
# all of them refuse (exit 2) is counted as refused; a trace one refuses and another reads is a
# mismatch. --summary adds one line per workflow family (the folder under FOLDER, or the file
# name's first word) with its count and largest difference. Exit status 1 on any mismatch, else 0.
#
# Environment: HETSTRUCT (default ROOT/build/hetstruct), SIMGRID_FCFS (default
# ROOT/build/tests/simgrid_fcfs), PYTHON (default /usr/bin/python3), TOLERANCE (default 5e-16),
# SIMGRID_TOLERANCE (default 1e-15).
set -u

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
summary=0
folders=()
while [ $# -gt 0 ]; do
  case "$1" in
    --root) root="$(cd "$2" && pwd)"; shift 2 ;;
    --summary) summary=1; shift ;;
    -h|--help) sed -n '2,31p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) folders+=("$1"); shift ;;
  esac
done
if [ ${#folders[@]} -eq 0 ]; then echo "check_simgrid: no folder or file given" >&2; exit 2; fi

bin="${HETSTRUCT:-$root/build/hetstruct}"
sim="${SIMGRID_FCFS:-$root/build/tests/simgrid_fcfs}"
py="${PYTHON:-/usr/bin/python3}"
tol="${TOLERANCE:-5e-16}"
sim_tol="${SIMGRID_TOLERANCE:-1e-15}"
ref="$here/fcfs_wfformat.py"
if [ ! -x "$bin" ]; then echo "check_simgrid: no binary at $bin (set HETSTRUCT)" >&2; exit 2; fi
if [ ! -x "$sim" ]; then echo "check_simgrid: no SimGrid program at $sim (set SIMGRID_FCFS)" >&2; exit 2; fi

files=()
for d in "${folders[@]}"; do
  if [ -f "$d" ]; then files+=("$d"); continue; fi
  if [ ! -d "$d" ]; then echo "check_simgrid: no folder $d" >&2; exit 2; fi
  while IFS= read -r f; do files+=("$f"); done < <(find "$d" -name '*.json' -type f | LC_ALL=C sort)
done

echo "# hetstruct $bin (default dispatch)"
echo "# reference $ref ($("$py" --version 2>&1))"
echo "# simgrid   $sim"
echo "# tolerance relative difference <= $tol (hetstruct, reference, SimGrid a host per core), <= $sim_tol (SimGrid a host per processor)"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/rows"
for f in "${files[@]}"; do
  "$bin" simulate --graph "$f" --reps 1 --format csv >"$tmp/cli.out" 2>"$tmp/cli.err"; crc=$?
  "$py" "$ref" "$f" >"$tmp/ref.out" 2>"$tmp/ref.err"; rrc=$?
  "$sim" "$f" >"$tmp/sim.out" 2>"$tmp/sim.err"; src=$?
  "$sim" --host-per-core "$f" >"$tmp/core.out" 2>"$tmp/core.err"; orc=$?
  # One tab-separated row: file, then each program's exit status; the outputs by row number.
  printf '%s\t%s\t%s\t%s\t%s\n' "$f" "$crc" "$rrc" "$src" "$orc" >>"$tmp/rows"
  mkdir -p "$tmp/out"
  n=$(wc -l <"$tmp/rows")
  for kind in cli ref sim core; do
    cp "$tmp/$kind.out" "$tmp/out/$n.$kind"; head -n 1 "$tmp/$kind.err" >"$tmp/out/$n.$kind.err"
  done
done

"$py" - "$tmp" "$tol" "$sim_tol" "$summary" "${folders[@]}" <<'EOF'
import csv, os, sys
tmp, tol, sim_tol, summary = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4] == "1"
folders = sys.argv[5:]

def family(path):
    for d in folders:
        d = os.path.abspath(d)
        p = os.path.abspath(path)
        if os.path.isdir(d) and p.startswith(d + os.sep):
            rest = os.path.relpath(p, d).split(os.sep)
            if len(rest) > 1:
                return "/".join(rest[:-1])
    return os.path.basename(path).split("_")[0].split("-")[0]

def value(kind, k):
    text = open(os.path.join(tmp, "out", f"{k}.{kind}")).read()
    if kind == "cli":
        rows = list(csv.reader(text.splitlines()))
        return float(rows[1][rows[0].index("mean")])
    return float(text.split()[-1])

def rel(a, b):
    return 0.0 if a == b else abs(a - b) / max(abs(a), abs(b))

agree = mismatch = refused = 0
families = {}
print(f"{'file':<72} {'hetstruct':<22} {'reference':<22} {'simgrid':<22} {'simgrid_per_core':<22} max_rel")
pair_worst = 0.0
for k, line in enumerate(open(os.path.join(tmp, "rows")), start=1):
    path, *codes = line.rstrip("\n").split("\t")
    codes = [int(c) for c in codes]
    kinds = ["cli", "ref", "sim", "core"]
    fam = families.setdefault(family(path), [0, 0, 0.0, 0.0])
    fam[0] += 1
    if all(c == 2 for c in codes):
        refused += 1
        print(f"{path:<72} refused by all ({open(os.path.join(tmp, 'out', f'{k}.cli.err')).read().strip()[:120]})")
        continue
    if any(c != 0 for c in codes):
        mismatch += 1
        fam[1] += 1
        why = "; ".join(f"{n} exit {c}: {open(os.path.join(tmp, 'out', f'{k}.{kind}.err')).read().strip()[:120]}"
                        for n, kind, c in zip(["hetstruct", "reference", "simgrid", "simgrid --host-per-core"], kinds, codes) if c != 0)
        print(f"{path:<72} MISMATCH ({why})")
        continue
    try:
        vals = [value(kind, k) for kind in kinds]
    except (IndexError, ValueError) as e:
        mismatch += 1
        fam[1] += 1
        print(f"{path:<72} MISMATCH (cannot read the outputs: {e})")
        continue
    exact = max(rel(vals[0], vals[1]), rel(vals[0], vals[3]), rel(vals[1], vals[3]))
    shared = max(rel(v, vals[2]) for v in (vals[0], vals[1], vals[3]))
    worst = max(exact, shared)
    fam[2] = max(fam[2], worst)
    fam[3] = max(fam[3], exact)
    ok = exact <= tol and shared <= sim_tol
    pair_worst = max(pair_worst, exact)
    print(f"{path:<72} {vals[0]!r:<22} {vals[1]!r:<22} {vals[2]!r:<22} {vals[3]!r:<22} {worst:.3g}"
          + ("" if ok else " MISMATCH"))
    if ok:
        agree += 1
    else:
        mismatch += 1
        fam[1] += 1
if summary:
    for name in sorted(families):
        n, bad, worst, exact = families[name]
        print(f"# family {name:<28} {n:>4} traces, {bad} mismatch, largest relative difference {worst:.3g} "
              f"({exact:.3g} without SimGrid's host per processor)")
total = agree + mismatch + refused
print(f"# {total} traces: {agree} agree, {mismatch} mismatch, {refused} refused by all; "
      f"largest relative difference {max([f[2] for f in families.values()] + [0.0]):.3g} "
      f"(among hetstruct, the reference and SimGrid with a host per core {pair_worst:.3g})")
sys.exit(1 if mismatch else 0)
EOF
