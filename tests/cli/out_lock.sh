#!/usr/bin/env bash
# --out is locked for the whole run (issue 38): a second sweep (or table) writing the same file is
# refused at once with exit status 2, naming the first's PID, and the first's rows are intact; a
# lock left by a killed run (its PATH.lock stays, unlocked: the kernel released it) does not block;
# a write that fails (here a file-size limit: EFBIG) says why and what the file keeps; and, where
# strace runs, every write flushes the temporary file (fsync) before its rename and the folder after.
#
#   tests/cli/out_lock.sh BINARY
set -u
binary=${1:?usage: out_lock.sh BINARY}
binary=$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")  # absolute: part 4 runs in the temporary folder
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hetstruct-out-lock.XXXXXX") || exit 2
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# Four configurations of about 0.3 s each on one thread: long enough to meet a second writer.
grid=(sweep -s sync --n 4,8 --m 0,3 --levels 1000 --reps 8000 --threads 1 --checkpoint-every 0 --quiet)

# Waits (at most 60 s) until $1 exists while process $2 runs.
wait_for() {
  local waited=0
  until [ -e "$1" ]; do
    kill -0 "$2" 2>/dev/null || fail "process $2 ended before $1 appeared"
    sleep 0.02
    waited=$((waited + 1))
    [ "$waited" -lt 3000 ] || fail "no $1 after 60 s"
  done
}

# 1. Two sweeps on one --out: the second is refused at once, the first's rows stay its own.
out=$tmp/r.csv
"$binary" "${grid[@]}" --seed 5 --out "$out" 2>"$tmp/first.err" &
first=$!
wait_for "$out.lock" "$first"
t0=$(date +%s%N)
"$binary" "${grid[@]}" --seed 6 --out "$out" 2>"$tmp/second.err"
rc=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
[ "$rc" -eq 2 ] || fail "the second sweep on one --out: exit status $rc, expected 2 (stderr: $(cat "$tmp/second.err"))"
[ "$ms" -le 2000 ] || fail "the second sweep was refused after $ms ms, expected at once"
expected="hetstruct: --out: '$out' is being written by process $first (hetstruct), which holds its lock '$out.lock': a second writer would replace that run's rows (wait for it to end, or give another --out)"
[ "$(cat "$tmp/second.err")" = "$expected" ] || fail "the second sweep said: $(cat "$tmp/second.err")"
# A command that writes its --out once, at the end, is refused the same way (before any work).
"$binary" table 1 --reps 20000 --out "$out" 2>"$tmp/table.err"
rc=$?
[ "$rc" -eq 2 ] || fail "table --out on a locked file: exit status $rc, expected 2"
grep -qF "is being written by process $first (hetstruct)" "$tmp/table.err" || fail "table said: $(cat "$tmp/table.err")"
wait "$first" || fail "the first sweep failed: $(cat "$tmp/first.err")"
# Every row with a seed is the first sweep's (seed 5): 4 configurations, each ending with its mc row.
seed_column=$(head -1 "$out" | tr ',' '\n' | grep -nx seed | cut -d: -f1)
[ -n "$seed_column" ] || fail "no seed column in $(head -1 "$out")"
seeds=$(tail -n +2 "$out" | cut -d, -f"$seed_column" | grep -v "^$" | sort -u | tr '\n' ' ')
[ "$seeds" = "5 " ] || fail "the file holds the seeds $seeds, expected only the first sweep's 5"
[ "$(grep -c ',mc,' "$out")" -eq 4 ] || fail "the first sweep's file has $(grep -c ',mc,' "$out") configurations, expected 4"
[ ! -e "$out.lock" ] || fail "the first sweep left $out.lock behind"
ls "$tmp" | grep -q 'tmp\.' && fail "a temporary file was left: $(ls "$tmp")"
echo "ok: a second writer of one --out was refused in $ms ms naming process $first; the first's 4 configurations are intact"

# 2. Ctrl-C removes PATH.lock (whether the sweep stops cooperatively or the handler ends it at once).
stopped=$tmp/stopped.csv
"$binary" "${grid[@]}" --seed 5 --out "$stopped" 2>/dev/null &
pid=$!
wait_for "$stopped.lock" "$pid"
kill -INT "$pid"
{ wait "$pid"; } 2>/dev/null
rc=$?
[ "$rc" -eq 130 ] || fail "the interrupted sweep: exit status $rc, expected 130"
[ ! -e "$stopped.lock" ] || fail "the interrupted sweep left $stopped.lock behind"
# Interrupted while it validates a grid of 10^6 configurations, where the handler ends it at once.
"$binary" sweep -s sync --n 1:1000000 --reps 1 --out "$tmp/grid.csv" 2>/dev/null &
pid=$!
wait_for "$tmp/grid.csv.lock" "$pid"
kill -INT "$pid"
{ wait "$pid"; } 2>/dev/null
rc=$?
[ "$rc" -eq 130 ] || fail "the sweep interrupted while validating: exit status $rc, expected 130"
[ ! -e "$tmp/grid.csv.lock" ] || fail "the sweep interrupted while validating left its lock file behind"
echo "ok: an interrupted sweep (SIGINT), between its runs or before them, removed its lock file"

# A lock left by a killed sweep: PATH.lock stays, but the kernel released the lock.
stale=$tmp/stale.csv
"$binary" "${grid[@]}" --seed 5 --out "$stale" 2>/dev/null &
killed=$!
wait_for "$stale.lock" "$killed"
kill -KILL "$killed"
{ wait "$killed"; } 2>/dev/null
[ -e "$stale.lock" ] || fail "the killed sweep's lock file is gone (expected it to stay)"
"$binary" sweep -s sync --n 4 --levels 10 --reps 100 --seed 5 --quiet --out "$stale" 2>"$tmp/stale.err" ||
  fail "a sweep after a killed one was refused: $(cat "$tmp/stale.err")"
[ "$(grep -c ',mc,' "$stale")" -eq 1 ] || fail "the sweep after a killed one wrote $(cat "$stale")"
[ ! -e "$stale.lock" ] || fail "the sweep after a killed one left $stale.lock behind"
echo "ok: the lock file of a killed sweep (SIGKILL) did not block the next sweep, which removed it"

# 3. A write that fails says why and what the file keeps: a file-size limit of 1 KiB (SIGXFSZ
#    ignored, so that write() fails with EFBIG), with no file yet and with an earlier file.
small=(sweep -s sync --n 4,8 --m 0,1 --levels 10 --reps 100 --seed 5 --quiet)
big=$tmp/big.csv
(trap '' XFSZ; ulimit -f 1; exec "$binary" "${small[@]}" --out "$big") 2>"$tmp/big.err"
rc=$?
[ "$rc" -eq 2 ] || fail "a write over the file-size limit: exit status $rc, expected 2"
[ "$(cat "$tmp/big.err")" = "hetstruct: $big: cannot write the output file: File too large; nothing was written" ] ||
  fail "a write over the file-size limit said: $(cat "$tmp/big.err")"
printf 'earlier\n' >"$big"
(trap '' XFSZ; ulimit -f 1; exec "$binary" "${small[@]}" --out "$big") 2>"$tmp/big.err"
[ "$(cat "$tmp/big.err")" = "hetstruct: $big: cannot write the output file: File too large; '$big' keeps its previous contents" ] ||
  fail "a write over the file-size limit, with an earlier file, said: $(cat "$tmp/big.err")"
[ "$(cat "$big")" = earlier ] || fail "the earlier file changed: $(head -2 "$big")"
ls "$tmp" | grep -q 'tmp\.' && fail "a failed write left a temporary file: $(ls "$tmp")"
echo "ok: a write over the file-size limit reported 'File too large' and kept the earlier file"

# 4. fsync: the temporary file's data before the rename, the folder after it (strace, if it runs here).
if command -v strace >/dev/null && strace -f -o /dev/null true 2>/dev/null; then
  # LeakSanitizer (the sanitizer build) cannot stop the world under a tracer: off for this run.
  (cd "$tmp" && ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -o "$tmp/trace" -e trace=openat,fsync,rename,renameat,renameat2 \
    "$binary" sweep -s sync --n 4,8 --levels 10 --reps 100 --seed 5 --quiet --checkpoint-every 0 --out s.csv) ||
    fail "the sweep under strace failed"
  # Each write as letters: T the temporary file opened, F an fsync of the descriptor just opened,
  # R the rename onto s.csv, D the folder opened; three writes (two checkpoints, the end) read TFRDF.
  events=$(awk '
    /openat\(.*"s\.csv\.tmp\.[0-9]+"/ { split($0, a, "= "); fd = a[2] + 0; printf "T"; next }
    /openat\(AT_FDCWD, "\.", .*O_DIRECTORY/ { split($0, a, "= "); fd = a[2] + 0; printf "D"; next }
    /fsync\(/ { match($0, /fsync\([0-9]+/); if (substr($0, RSTART + 6, RLENGTH - 6) + 0 == fd) printf "F"; next }
    /rename.*"s\.csv\.tmp\.[0-9]+".*"s\.csv"/ { printf "R" }' "$tmp/trace")
  [ "$events" = TFRDFTFRDFTFRDF ] || fail "the writes' system calls were $events, expected TFRDF three times (trace: $(grep -E 'fsync|rename|s\.csv|"\."' "$tmp/trace" | head -20))"
  echo "ok: strace: each of the 3 writes fsyncs the temporary file before its rename and the folder after it"
else
  echo "ok: strace does not run here: the fsync order is not checked"
fi
