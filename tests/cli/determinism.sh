#!/usr/bin/env bash
# The same simulate command on 1 and on 2 threads must print byte-identical CSV.
#
#   determinism.sh BINARY [ARG...]     (ARG: the simulate command; --threads and --format are added)
set -u

if [ $# -lt 2 ]; then
  echo "usage: determinism.sh BINARY ARG..." >&2
  exit 2
fi
binary=$1
shift

tmp=$(mktemp -d "${TMPDIR:-/tmp}/hetstruct-det.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

failed=0
for t in 1 2; do
  "$binary" "$@" --format csv --threads "$t" </dev/null >"$tmp/out$t" 2>"$tmp/err$t"
  status=$?
  if [ "$status" != 0 ] || [ ! -s "$tmp/out$t" ]; then
    echo "FAIL: hetstruct $* --format csv --threads $t: exit $status, $(wc -c <"$tmp/out$t") bytes on stdout" >&2
    sed 's/^/| /' "$tmp/err$t" >&2
    failed=1
  fi
done
[ "$failed" = 0 ] || exit 1

if ! cmp -s "$tmp/out1" "$tmp/out2"; then
  echo "FAIL: hetstruct $* --format csv: --threads 1 and --threads 2 differ" >&2
  diff -u --label "threads 1" --label "threads 2" "$tmp/out1" "$tmp/out2" >&2
  exit 1
fi
echo "ok: identical on 1 and 2 threads: hetstruct $* --format csv"
sed 's/^/| /' "$tmp/out1"
