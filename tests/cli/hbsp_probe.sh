#!/usr/bin/env bash
# `hbsp probe` on two MPI ranks writes a machine file and an r_j trace that `hbsp replay` reads.
#
#   tests/cli/hbsp_probe.sh BINARY [RANKS]
#
# BINARY is hetstruct built with HETSTRUCT_MPI=ON. Checks: both files exist; in the machine file
# and in every round of the trace the fastest rank has r = 1 exactly and every r >= 1; g > 0 and
# every L > 0; `hbsp replay` (static and Monte Carlo) runs on them; without mpirun the command
# refuses with one line and exit 2. Exit 0 when all hold, 1 when not, 77 (skipped) without mpirun.
set -u
binary=${1:?usage: hbsp_probe.sh BINARY [RANKS]}
ranks=${2:-2}
command -v mpirun >/dev/null || { echo "hbsp_probe.sh: no mpirun, skipped"; exit 77; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/hetstruct-probe.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# Not under mpirun: one line, exit 2.
"$binary" hbsp probe --machine "$tmp/m.txt" --trace "$tmp/t.txt" >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" -eq 2 ] || fail "without mpirun: exit $status, expected 2"
[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q '^hetstruct: hbsp probe: not started by mpirun' "$tmp/err" ||
  fail "without mpirun: stderr is not the one expected line: $(cat "$tmp/err")"

mpirun -n "$ranks" --oversubscribe --allow-run-as-root --bind-to none \
  "$binary" hbsp probe --rounds 3 --interval 0 --repeats 3 --message-kb 256 \
  --machine "$tmp/machine.txt" --trace "$tmp/trace.txt" || fail "mpirun hbsp probe failed"
for f in machine.txt trace.txt; do [ -s "$tmp/$f" ] || fail "$f was not written"; done

# The machine file: `processor NAME r=R index=I`, `g G`, `L p=P V`.
awk -v ranks="$ranks" '
  { sub(/#.*/, "") }
  $1 == "processor" { n++; r = substr($3, 3) + 0; if ($3 !~ /^r=/) bad = bad " field3=" $3;
                      if (r < 1) bad = bad " r<1:" $2; if ($3 == "r=1") ones++ }
  $1 == "g" { g = $2 + 0 }
  $1 == "L" { nl++; if (!($3 + 0 > 0)) bad = bad " L<=0:" $0 }
  END {
    if (n != ranks) bad = bad " processors=" n;
    if (ones < 1) bad = bad " no processor with r=1";
    if (!(g > 0)) bad = bad " g<=0";
    if (nl != ranks) bad = bad " L-lines=" nl;
    if (bad != "") { print "machine file:" bad; exit 1 }
  }' "$tmp/machine.txt" || { cat "$tmp/machine.txt"; fail "machine file"; }

# The trace: every round (the k-th measurement of every section) has min r = 1 exactly, all r >= 1.
awk -v ranks="$ranks" '
  { sub(/#.*/, "") }
  NF == 0 { next }
  $1 == "clock" { next }
  $1 == "processor" { sections++; k = 0; next }
  { k++; rounds = k > rounds ? k : rounds; r = $2 + 0;
    if (r < 1) bad = bad " r<1:" $0;
    if (!(k in low) || r < low[k]) low[k] = r; count[k]++ }
  END {
    if (sections != ranks) bad = bad " sections=" sections;
    if (rounds != 3) bad = bad " rounds=" rounds;
    for (k = 1; k <= rounds; k++) if (low[k] != 1 || count[k] != ranks) bad = bad " round" k;
    if (bad != "") { print "trace:" bad; exit 1 }
  }' "$tmp/trace.txt" || { cat "$tmp/trace.txt"; fail "trace"; }

"$binary" hbsp replay --machine "$tmp/machine.txt" --trace "$tmp/trace.txt" --algorithm scatter --size 1MB \
  >"$tmp/replay.csv" || fail "hbsp replay on the probed machine"
grep -q ',total,' "$tmp/replay.csv" || fail "hbsp replay printed no total row"
"$binary" hbsp replay --machine "$tmp/machine.txt" --trace "$tmp/trace.txt" --algorithm broadcast2 --size 1MB \
  --reps 200 --threads 1 >"$tmp/bootstrap.csv" || fail "Monte Carlo hbsp replay on the probed machine"
echo "ok: $ranks ranks probed; hbsp replay reads the machine file and the trace"
grep -v '^#' "$tmp/machine.txt" | grep .
exit 0
