#!/usr/bin/env bash
# Every data command's --format json loads with a standard JSON parser (python3's json module, the
# bytes decoded as strict UTF-8, as RFC 8259 asks),
# for every structure and every protocol the help lists (so a new protocol is covered at once),
# and an infinite result is an error, never an `inf` token.
#   json_valid.sh BINARY   (run from tests/cli/data)
set -u
bin=$1
fail=0
check() {  # description, command...
  local what=$1; shift
  local out
  if ! out=$("$bin" "$@" 2>/dev/null); then echo "FAIL ($what): exit status $? from: $*" >&2; fail=1; return; fi
  if ! printf '%s' "$out" | python3 -c 'import json,sys; json.loads(sys.stdin.buffer.read().decode("utf-8"))' 2>/dev/null; then
    echo "FAIL ($what): not valid JSON from: $*" >&2; printf '%s\n' "$out" | head -5 >&2; fail=1
  fi
}
small=(--levels 5 --reps 20 --threads 1 --format json)
for s in async sync nn ms; do
  check "simulate $s" simulate -s "$s" --n 4 --m 1 "${small[@]}"
  check "simulate $s metrics" simulate -s "$s" --n 4 --m 1 --metrics "${small[@]}"
  check "bounds $s" bounds -s "$s" --n 4 --m 1 --comm 0.1 --levels 5 --reps 20 --format json
done
check "simulate dag" simulate --graph dag.dot --reps 20 --format json
check "simulate distribution" simulate -s sync --n 4 --m 1 --deadline 3,4 --quantiles 0.1,0.9 "${small[@]}"
check "simulate distribution, one replication" simulate -s sync --n 3 --levels 5 --reps 1 --distribution --format json
check "simulate dag estimates" simulate --graph dag.dot --reps 20 --estimates --format json
check "simulate estimates, one replication" simulate -s sync --n 3 --levels 5 --reps 1 --estimates --format json
check "bounds dag" bounds --graph dag.dot --format json
check "bounds estimates" bounds --n 4 --m 1 --levels 5 --estimates --format json
check "one replication" simulate -s sync --n 3 --levels 5 --reps 1 --format json
# The protocols as `simulate --help` lists them: "sync: a | b; nn: c | d; ms: e | f".
help=$("$bin" simulate --help | tr -s ' \n' ' ')
for s in sync nn ms; do
  names=$(printf '%s' "$help" | grep -oE " $s: [-a-z| ]+" | head -1 | sed -E "s/^ $s: //" | tr '|' ' ' |
          tr ' ' '\n' | grep -E '^[a-z][-a-z]*$' | tr '\n' ' ')
  [ -n "$names" ] || { echo "FAIL: no $s protocols found in --help" >&2; fail=1; }
  for p in $names; do check "simulate $s $p" simulate -s "$s" --n 4 --m 1 --comm 0.1 --protocol "$p" "${small[@]}"; done
done
check "policies" policies --n 4 --m 1 --comm 0.1 "${small[@]}"
check "table" table 1 --reps 5 --threads 1 --format json
check "sweep" sweep -s sync,nn,ms --n 4 --m 0,1 --comm 0,0.1 --levels 5 --reps 20 --quiet --compare-to m=0 --format json
check "sweep distribution" sweep -s sync,async --n 4 --m 1 --levels 5 --reps 20 --quiet --estimators quantile,sd,p_deadline --deadline 3 --format json
check "bounds all" bounds --n 4 --m 1 --format json
predict_dir=$(mktemp -d "${TMPDIR:-/tmp}/hetstruct-json.XXXXXX")
check "hbsp predict" hbsp predict --out-dir "$predict_dir" --format json
rm -rf "$predict_dir"
check "hbsp replay" hbsp replay --machine hbsp-cluster-2001.txt --algorithm scatter --size 100KB --format json
# A path that is not UTF-8 (issue 38: the byte 0xFF went in raw): U+FFFD, still valid JSON.
bytes_dir=$(mktemp -d "${TMPDIR:-/tmp}/hetstruct-json.XXXXXX")
bytes_graph="$bytes_dir/$(printf 'g\xff\xc3(.dot')"
cp dag.dot "$bytes_graph"
check "simulate, a graph path not UTF-8" simulate --graph "$bytes_graph" --reps 20 --format json
if ! "$bin" simulate --graph "$bytes_graph" --reps 20 --format json 2>/dev/null | grep -qF 'g\ufffd\ufffd(.dot"'; then
  echo "FAIL: the bytes 0xFF 0xC3 of a path are not \\ufffd\\ufffd in the JSON" >&2; fail=1
fi
rm -rf "$bytes_dir"
# No inf in any format: an overflowing model is an error.
if "$bin" simulate -s sync --n 2 --law "c(1e308)" --levels 10 --reps 2 --format json >/dev/null 2>&1; then
  echo "FAIL: an infinite result printed with exit 0" >&2; fail=1
fi
[ $fail = 0 ] && echo "ok: every JSON output parses"
exit $fail
