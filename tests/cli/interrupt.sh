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

# 3. A sweep: the complete configurations are kept; --resume completes the same file.
# One thread: about 6 s on an idle core, long enough to interrupt at 2 s and to kill after the
# first 2 s checkpoint, short enough for the sanitizer builds.
grid=(sweep -s sync --n 4,8 --m 0:3 --levels 1000 --reps 40000 --seed 5 --threads 1 --quiet)
"$binary" "${grid[@]}" --out "$tmp/whole.csv" || fail "uninterrupted sweep"
interrupt_after 2 "$binary" "${grid[@]}" --out "$tmp/part.csv"
[ "$rc" -eq 130 ] || fail "sweep: exit status $rc, expected 130"
kept=$(grep -c ',mc,' "$tmp/part.csv" 2>/dev/null) || kept=0
"$binary" "${grid[@]}" --out "$tmp/part.csv" --resume || fail "resumed sweep"
cmp -s "$tmp/whole.csv" "$tmp/part.csv" || fail "the resumed sweep differs from the uninterrupted one"
echo "ok: sweep interrupted after $kept of 8 configurations; --resume wrote the same file"

# 4. A sweep killed outright (SIGKILL: no handler runs) keeps its last checkpoint, written whole
#    at most every 2 s; --resume completes the same file.
"$binary" "${grid[@]}" --out "$tmp/killed.csv" 2>/dev/null &
pid=$!
sleep 3.5
kill -KILL "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
kept=$(grep -c ',mc,' "$tmp/killed.csv" 2>/dev/null) || kept=0
if [ -f "$tmp/killed.csv" ]; then
  # A checkpoint is a whole CSV: the header, then complete configurations (each ends with its mc row).
  [ "$(tail -n 1 "$tmp/killed.csv" | grep -c ',mc,')" -eq 1 ] || fail "killed sweep: the checkpoint ends mid-configuration"
fi
"$binary" "${grid[@]}" --out "$tmp/killed.csv" --resume || fail "sweep resumed after SIGKILL"
cmp -s "$tmp/whole.csv" "$tmp/killed.csv" || fail "the sweep resumed after SIGKILL differs from the uninterrupted one"
echo "ok: sweep killed (SIGKILL) after $kept of 8 configurations; --resume wrote the same file"
