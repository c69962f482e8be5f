#!/usr/bin/env bash
# Holds hetstruct's work-conserving dispatch (--dispatch ready) against the independent Python
# reference tests/reference/fcfs_wfformat.py, on WfFormat traces at constant task times, comm 0.
#
#   tests/reference/check_fcfs.sh [--root DIR] [--default-dispatch] [FOLDER_OR_FILE ...]
#
# Traces: every .json under each FOLDER (recursively; default tests/data/wfinstances
# relative to the repo root), plus the WfFormat traces under the repo's tests/data (a JSON file
# with a "workflow" object). For each it runs the reference and
#   build/hetstruct simulate --graph FILE --format csv --reps 1 --dispatch ready
# (without --dispatch ready under --default-dispatch, or when the binary has no --dispatch) and
# compares the makespans (the CSV's `mean` column, or `value`): equal, or a relative difference
# of at most 5e-16. It prints one row per trace (file, reference, hetstruct, ratio
# hetstruct/reference) and a summary; exit status 1 on any mismatch (a different makespan, a trace
# the reference refuses and hetstruct reads, a failure other than a refusal), else 0. A trace
# hetstruct refuses (exit 2) is skipped with a line saying so, and counted.
#
# Environment: HETSTRUCT (the binary; default ROOT/build/hetstruct), PYTHON (default
# /usr/bin/python3), REFERENCE (the reference script), TOLERANCE (default 5e-16).
set -u

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
default_dispatch=0
folders=()
while [ $# -gt 0 ]; do
  case "$1" in
    --root) root="$(cd "$2" && pwd)"; shift 2 ;;
    --default-dispatch) default_dispatch=1; shift ;;
    -h|--help) sed -n '2,20p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) folders+=("$1"); shift ;;
  esac
done
default_folder=0
if [ ${#folders[@]} -eq 0 ]; then folders=("$root/tests/data/wfinstances"); default_folder=1; fi

bin="${HETSTRUCT:-$root/build/hetstruct}"
py="${PYTHON:-/usr/bin/python3}"
tol="${TOLERANCE:-5e-16}"
ref="${REFERENCE:-$here/fcfs_wfformat.py}"
if [ ! -x "$bin" ]; then echo "check_fcfs: no binary at $bin (set HETSTRUCT)" >&2; exit 2; fi
if [ ! -f "$ref" ]; then echo "check_fcfs: no reference at $ref" >&2; exit 2; fi

dispatch=()
if [ $default_dispatch -eq 0 ]; then
  if "$bin" simulate --help 2>&1 | grep -q -- '--dispatch'; then
    dispatch=(--dispatch ready)
  else
    echo "# note: $bin has no --dispatch option; running its default rule"
  fi
fi

files=()
for d in "${folders[@]}"; do
  if [ -f "$d" ]; then files+=("$d"); continue; fi
  if [ ! -d "$d" ]; then
    if [ $default_folder -eq 1 ]; then echo "# note: no folder $d; the repo's tests/data only"; continue; fi
    echo "check_fcfs: no folder $d" >&2; exit 2
  fi
  while IFS= read -r f; do files+=("$f"); done < <(find "$d" -name '*.json' -type f | LC_ALL=C sort)
done
if [ -d "$root/tests/data" ]; then
  while IFS= read -r f; do
    if "$py" -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if isinstance(d,dict) and isinstance(d.get("workflow"),dict) else 1)' "$f" 2>/dev/null; then
      files+=("$f")
    fi
  done < <(find "$root/tests/data" -name '*.json' -type f | LC_ALL=C sort)
fi

echo "# binary    $bin ${dispatch[*]}"
echo "# reference $ref ($("$py" --version 2>&1))"
echo "# tolerance relative difference <= $tol"
printf '%-72s %-22s %-22s %s\n' file reference hetstruct ratio

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
agree=0; mismatch=0; skipped=0; both_refused=0
for f in "${files[@]}"; do
  shown="${f#"$root"/}"
  "$py" "$ref" "$f" >"$tmp/ref.out" 2>"$tmp/ref.err"; rrc=$?
  "$bin" simulate --graph "$f" --format csv --reps 1 "${dispatch[@]}" >"$tmp/cli.out" 2>"$tmp/cli.err"; crc=$?
  if [ $crc -eq 2 ]; then
    skipped=$((skipped + 1))
    if [ $rrc -eq 2 ]; then both_refused=$((both_refused + 1)); r="refused"; else r="$(tail -n 1 "$tmp/ref.out")"; fi
    printf '%-72s %-22s %-22s %s\n' "$shown" "$r" "refused" "skipped (hetstruct exit 2: $(head -n 1 "$tmp/cli.err" | cut -c1-160))"
    continue
  fi
  if [ $crc -ne 0 ]; then
    mismatch=$((mismatch + 1))
    printf '%-72s %-22s %-22s %s\n' "$shown" "-" "exit $crc" "MISMATCH (hetstruct failed: $(head -n 1 "$tmp/cli.err" | cut -c1-160))"
    continue
  fi
  if [ $rrc -ne 0 ]; then
    mismatch=$((mismatch + 1))
    printf '%-72s %-22s %-22s %s\n' "$shown" "exit $rrc" "-" "MISMATCH (reference refused, hetstruct read it: $(head -n 1 "$tmp/ref.err" | cut -c1-160))"
    continue
  fi
  line="$("$py" - "$tmp/ref.out" "$tmp/cli.out" "$tol" <<'EOF'
import csv, sys
ref_text = open(sys.argv[1]).read().split()
rows = list(csv.reader(open(sys.argv[2])))
tol = float(sys.argv[3])
try:
    ref = float(ref_text[-1])
    head = rows[0]
    col = head.index("mean") if "mean" in head else head.index("value")
    cli = float(rows[1][col])
except (IndexError, ValueError) as e:
    print(f"? ? MISMATCH (cannot read the outputs: {e})")
    sys.exit(1)
if ref == cli:
    ok, rel = True, 0.0
else:
    rel = abs(ref - cli) / max(abs(ref), abs(cli))
    ok = rel <= tol
ratio = repr(cli / ref) if ref != 0 else ("1" if cli == 0 else "inf")
print(f"{ref!r} {cli!r} {ratio}" + ("" if ok else f" MISMATCH (relative difference {rel:.3g})"))
sys.exit(0 if ok else 1)
EOF
)"; ok=$?
  read -r a b rest <<<"$line"
  printf '%-72s %-22s %-22s %s\n' "$shown" "$a" "$b" "$rest"
  if [ $ok -eq 0 ]; then agree=$((agree + 1)); else mismatch=$((mismatch + 1)); fi
done

total=${#files[@]}
echo "# $total traces: $agree agree, $mismatch mismatch, $skipped skipped (hetstruct refused; $both_refused of them refused by the reference too)"
[ $mismatch -eq 0 ]
