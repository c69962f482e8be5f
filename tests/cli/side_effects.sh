#!/usr/bin/env bash
# What a command writes beside its output, and how it fails when the system lacks a program:
#  - `figure N` and `hbsp predict` asked for their rows (--format, --out) write no files unless
#    --out-dir is given, so that a look at the numbers does not replace the committed results/;
#  - without gnuplot, a figure writes its CSV and script and says to install gnuplot, exit 1, in
#    one line that is not an "internal error".
#
#   tests/cli/side_effects.sh BINARY
set -u
binary=$(realpath "${1:?usage: side_effects.sh BINARY}")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hetstruct-side-effects.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$tmp" || exit 2

# 1. The rows on stdout, no results/ folder.
"$binary" figure 5 --reps 20 --format csv >rows.csv 2>stderr || fail "figure 5 --format csv: $(cat stderr)"
head -1 rows.csv | grep -q '^figure,' || fail "figure 5 --format csv printed: $(head -2 rows.csv)"
[ ! -e results ] || fail "figure 5 --format csv wrote $(find results)"
"$binary" hbsp predict --format csv >predict.csv 2>stderr || fail "hbsp predict --format csv: $(cat stderr)"
[ -s predict.csv ] || fail "hbsp predict --format csv printed nothing"
[ ! -e results ] || fail "hbsp predict --format csv wrote $(find results)"
echo "ok: figure and hbsp predict asked for their rows write no files"

# 2. With --out-dir as well, the files too; the same rows either way.
"$binary" figure 5 --reps 20 --format csv --out-dir figs >rows2.csv 2>stderr || fail "figure 5 --out-dir: $(cat stderr)"
for f in figs/figure5.csv figs/figure5.gp; do [ -s "$f" ] || fail "figure 5 --format csv --out-dir figs did not write $f"; done
cmp -s rows.csv rows2.csv || fail "figure 5's rows differ with --out-dir"
cmp -s rows.csv figs/figure5.csv || fail "figure 5's printed rows differ from figs/figure5.csv"
echo "ok: given --out-dir, the files are written too, with the printed rows"

# 3. No gnuplot on the PATH: exit 1, one line naming gnuplot and the package, the CSV and script kept.
PATH=/nonexistent "$binary" figure 5 --reps 20 --out-dir nognuplot >stdout 2>stderr
rc=$?
[ "$rc" -eq 1 ] || fail "figure without gnuplot: exit status $rc, expected 1 ($(cat stderr))"
[ "$(wc -l <stderr)" -eq 1 ] || fail "figure without gnuplot: stderr was: $(cat stderr)"
grep -q '^hetstruct: cannot run gnuplot.*install it (Debian: gnuplot-nox)' stderr || fail "figure without gnuplot: stderr was: $(cat stderr)"
! grep -q 'internal error' stderr || fail "figure without gnuplot calls it an internal error: $(cat stderr)"
[ -s nognuplot/figure5.csv ] && [ -s nognuplot/figure5.gp ] || fail "figure without gnuplot: the CSV or the script is missing"
[ ! -e nognuplot/figure5.png ] || fail "figure without gnuplot: an image appeared"
[ -z "$(find nognuplot -name '*.tmp.*')" ] || fail "figure without gnuplot left $(find nognuplot -name '*.tmp.*')"
echo "ok: without gnuplot, exit 1 naming the package; the CSV and the script are kept"

# 4. A run larger than the memory the system gives (ulimit -v) past the memory check: exit 2, one
#    line saying so, not an "internal error". Not under AddressSanitizer or ThreadSanitizer, whose shadow memory
#    needs more address space than any such limit leaves.
if ldd "$binary" 2>/dev/null | grep -qE 'lib(a|t)san' || nm "$binary" 2>/dev/null | grep -qE '__(a|t)san_init'; then
  echo "skipped: the memory limit under a sanitizer"
else
  ( ulimit -v 1500000; "$binary" simulate -s sync --n 100000000 --reps 1 --no-memory-check >stdout 2>stderr )
  rc=$?
  [ "$rc" -eq 2 ] || fail "a run past the memory limit: exit status $rc, expected 2 ($(cat stderr))"
  [ "$(wc -l <stderr)" -eq 1 ] && grep -q '^hetstruct: not enough memory for this run' stderr ||
    fail "a run past the memory limit: stderr was: $(cat stderr)"
  [ ! -s stdout ] || fail "a run past the memory limit printed: $(head -2 stdout)"
  echo "ok: a run past the memory limit is refused as too large (exit 2)"
fi
