#!/usr/bin/env bash
# One golden case: run hetstruct with ARGS (each @OUT@ replaced by a fresh folder), and compare
# its exit status, stdout, stderr and the .csv/.gp/.txt files it wrote under @OUT@ with EXPECTED,
# byte for byte after filtering the timing fields (wall time, ns per task, thread count).
#
#   run.sh BINARY EXPECTED ARG...        HETSTRUCT_GOLDEN_UPDATE=1 writes EXPECTED instead
set -u
binary=$1 expected=$2
shift 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hetstruct-golden.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/out"
args=()
for a in "$@"; do args+=("${a//@OUT@/$tmp/out}"); done

"$binary" "${args[@]}" </dev/null >"$tmp/stdout" 2>"$tmp/stderr"
status=$?

# The only fields that may differ from run to run: times, their rates, and the default thread count.
filter() {
  sed -E -e 's/[0-9]+(\.[0-9]+)? s( |,|\)|$)/<time> s\2/g' \
         -e 's/\([0-9.]+ ns\/task\)/(<ns> ns\/task)/g' \
         -e "s#$tmp/out#@OUT@#g"
}
{
  echo "exit $status"
  echo "---- stdout"
  filter <"$tmp/stdout"
  echo "---- stderr"
  filter <"$tmp/stderr"
  (cd "$tmp/out" && find . -type f \( -name '*.csv' -o -name '*.gp' -o -name '*.txt' \) | LC_ALL=C sort) |
    while read -r f; do
      echo "---- file ${f#./}"
      filter <"$tmp/out/$f"
    done
} >"$tmp/actual"

if [ "${HETSTRUCT_GOLDEN_UPDATE:-0}" = 1 ]; then
  cp "$tmp/actual" "$expected"
  echo "updated $expected"
  exit 0
fi
if cmp -s "$tmp/actual" "$expected"; then
  echo "ok: hetstruct $*"
  exit 0
fi
echo "FAIL: hetstruct $* differs from $expected (- expected, + actual):" >&2
diff -u "$expected" "$tmp/actual" | head -60 >&2
exit 1
