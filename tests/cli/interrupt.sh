#!/usr/bin/env bash
# Ctrl-C (SIGINT) stops a long run within a second with exit status 130 and leaves no file
# behind, not even a temporary one; an interrupted sweep keeps its complete configurations, and
# --resume then writes the same file, byte for byte, as an uninterrupted sweep.
#
#   tests/cli/interrupt.sh BINARY
set -u
binary=${1:?usage: interrupt.sh BINARY}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hetstruct-interrupt.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# Sends SIGINT after $1 seconds to the command that follows; sets rc and ms (signal to exit).
interrupt_after() {
  local delay=$1; shift
  "$@" >"$tmp/stdout" 2>"$tmp/stderr" &
  local pid=$!
  sleep "$delay"
  kill -0 "$pid" 2>/dev/null || fail "'$*' ended before it could be interrupted"
  local t0; t0=$(date +%s%N)
  kill -INT "$pid"
  wait "$pid"; rc=$?
  ms=$(( ($(date +%s%N) - t0) / 1000000 ))
}

# 1. A simulation far too long to finish: status 130 within 1 s, one line on stderr, no output.
interrupt_after 1 "$binary" simulate --structure nn --n 16 --m 8 --comm 0.1 --reps 100000000 --format csv
[ "$rc" -eq 130 ] || fail "simulate: exit status $rc, expected 130"
[ "$ms" -le 1000 ] || fail "simulate: stopped $ms ms after SIGINT, expected at most 1000"
grep -q '^hetstruct: interrupted$' "$tmp/stderr" || fail "simulate: stderr was: $(cat "$tmp/stderr")"
[ ! -s "$tmp/stdout" ] || fail "simulate: printed a partial result: $(head -2 "$tmp/stdout")"
echo "ok: simulate stopped $ms ms after SIGINT"

# 2. A table with --out: no file and no temporary file.
interrupt_after 1 "$binary" table 4 --reps 1000000 --out "$tmp/table4.csv"
[ "$rc" -eq 130 ] || fail "table: exit status $rc, expected 130"
[ "$ms" -le 1000 ] || fail "table: stopped $ms ms after SIGINT"
leftovers=$(ls "$tmp" | grep -c table4) || true
[ "$leftovers" -eq 0 ] || fail "table: left $(ls "$tmp" | grep table4)"
echo "ok: table stopped $ms ms after SIGINT, nothing written"

# 3. A sweep: the complete configurations are kept; --resume completes the same file. The signal
#    comes once the first checkpoint (after the first configuration: --checkpoint-every 0) is
#    there, so that at least one configuration is kept whatever the machine's speed.
# One thread: about 6 s of work on an idle core (8 configurations). The sanitizer builds run it 10-15
# times slower, three times over: tests/sanitize.sh sets HETSTRUCT_INTERRUPT_REPS to 8000, which
# still leaves each configuration over a second there.
reps=${HETSTRUCT_INTERRUPT_REPS:-40000}
grid=(sweep -s sync --n 4,8 --m 0:3 --levels 1000 --reps "$reps" --seed 5 --threads 1 --checkpoint-every 0 --quiet)
"$binary" "${grid[@]}" --out "$tmp/whole.csv" || fail "uninterrupted sweep"

# Starts the sweep into $1, waits for its first checkpoint, sends signal $2; sets kept.
signal_after_checkpoint() {
  local out=$1 signal=$2
  "$binary" "${grid[@]}" --out "$out" 2>"$tmp/stderr" &
  local pid=$! waited=0
  until [ -s "$out" ] || ! kill -0 "$pid" 2>/dev/null; do
    sleep 0.05
    waited=$((waited + 1))
    [ "$waited" -lt 6000 ] || fail "no checkpoint after 300 s"
  done
  kill -0 "$pid" 2>/dev/null || fail "the sweep ended before its first checkpoint could be seen"
  kill "-$signal" "$pid"
  { wait "$pid"; } 2>/dev/null; rc=$?
  kept=$(grep -c ',mc,' "$out") || kept=0
  # A checkpoint is a whole CSV: the header, then complete configurations (each ends with its mc row).
  [ "$(tail -n 1 "$out" | grep -c ',mc,')" -eq 1 ] || fail "$signal: the file ends mid-configuration"
  [ "$kept" -ge 1 ] && [ "$kept" -le 7 ] || fail "$signal: $kept configurations kept, expected 1 to 7"
}

signal_after_checkpoint "$tmp/part.csv" INT
[ "$rc" -eq 130 ] || fail "sweep: exit status $rc after SIGINT, expected 130"
grep -q "complete configurations are in .*part.csv (--resume continues)" "$tmp/stderr" || fail "sweep: stderr was: $(cat "$tmp/stderr")"
"$binary" "${grid[@]}" --out "$tmp/part.csv" --resume || fail "resumed sweep"
cmp -s "$tmp/whole.csv" "$tmp/part.csv" || fail "the resumed sweep differs from the uninterrupted one"
echo "ok: sweep interrupted after $kept of 8 configurations; --resume wrote the same file"

# 4. Killed outright (SIGKILL: no handler runs), the sweep keeps its last checkpoint, whole.
signal_after_checkpoint "$tmp/killed.csv" KILL
"$binary" "${grid[@]}" --out "$tmp/killed.csv" --resume || fail "sweep resumed after SIGKILL"
cmp -s "$tmp/whole.csv" "$tmp/killed.csv" || fail "the sweep resumed after SIGKILL differs from the uninterrupted one"
echo "ok: sweep killed (SIGKILL) after $kept of 8 configurations; --resume wrote the same file"

# 5. Where nothing looks at the flag, Ctrl-C ends the process at once: waiting on a FIFO that no
#    one writes (an open that never returns), and validating a grid of a million configurations.
mkfifo "$tmp/graph.dot" || fail "mkfifo"
interrupt_after 1 "$binary" simulate --graph "$tmp/graph.dot" --reps 10
[ "$rc" -eq 130 ] || fail "simulate on a FIFO: exit status $rc, expected 130"
[ "$ms" -le 1000 ] || fail "simulate on a FIFO: stopped $ms ms after SIGINT, expected at most 1000"
grep -q '^hetstruct: interrupted$' "$tmp/stderr" || fail "simulate on a FIFO: stderr was: $(cat "$tmp/stderr")"
echo "ok: simulate waiting on a FIFO stopped $ms ms after SIGINT"
interrupt_after 1 "$binary" sweep -s sync --n 1:1000000 --reps 1 --out "$tmp/grid.csv"
[ "$rc" -eq 130 ] || fail "sweep validating a large grid: exit status $rc, expected 130"
[ "$ms" -le 1000 ] || fail "sweep validating a large grid: stopped $ms ms after SIGINT, expected at most 1000"
[ ! -e "$tmp/grid.csv" ] || fail "sweep validating a large grid: wrote $tmp/grid.csv"
echo "ok: sweep validating a grid of 10^6 configurations stopped $ms ms after SIGINT"
