#!/usr/bin/env bash
# simulate --compare-to prints the one-configuration sweep's rows: the same bytes as the sweep of
# the same model, in every format.
#
#   compare_sweep.sh BINARY 'SIMULATE ARGS' 'SWEEP ARGS'   (--format and --threads are added; the
#   sweep gets --quiet)
set -u
binary=$1 simulate=$2 sweep=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hetstruct-cmp.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
failed=0
for format in csv json text; do
  # shellcheck disable=SC2086  # the argument lists are split on purpose
  "$binary" simulate $simulate --format "$format" --threads 1 </dev/null >"$tmp/simulate" 2>"$tmp/err" || {
    echo "FAIL: hetstruct simulate $simulate --format $format: exit $?" >&2; sed 's/^/| /' "$tmp/err" >&2; failed=1; continue; }
  # shellcheck disable=SC2086
  "$binary" sweep $sweep --format "$format" --threads 2 --quiet </dev/null >"$tmp/sweep" 2>"$tmp/err" || {
    echo "FAIL: hetstruct sweep $sweep --format $format: exit $?" >&2; sed 's/^/| /' "$tmp/err" >&2; failed=1; continue; }
  if [ ! -s "$tmp/simulate" ] || ! cmp -s "$tmp/simulate" "$tmp/sweep"; then
    echo "FAIL: --format $format: simulate and sweep differ" >&2
    diff "$tmp/simulate" "$tmp/sweep" | head -20 >&2
    failed=1
  else
    echo "ok: --format $format, $(wc -l <"$tmp/simulate") lines"
  fi
done
exit "$failed"
