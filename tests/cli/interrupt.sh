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
grid=(sweep -s sync --n 4,8 --m 0:3 --levels 1000 --reps 40000 --seed 5 --quiet)
"$binary" "${grid[@]}" --out "$tmp/whole.csv" || fail "uninterrupted sweep"
interrupt_after 2 "$binary" "${grid[@]}" --out "$tmp/part.csv"
[ "$rc" -eq 130 ] || fail "sweep: exit status $rc, expected 130"
kept=$(grep -c ',mc,' "$tmp/part.csv" 2>/dev/null) || kept=0
"$binary" "${grid[@]}" --out "$tmp/part.csv" --resume || fail "resumed sweep"
cmp -s "$tmp/whole.csv" "$tmp/part.csv" || fail "the resumed sweep differs from the uninterrupted one"
echo "ok: sweep interrupted after $kept of 8 configurations; --resume wrote the same file"
