#!/usr/bin/env bash
# The README's examples as transcripts (SimGrid's .tesh idea): every ```sh block that holds one
# `build/hetstruct` command (backslash continuations allowed) and is followed at once by a plain
# ``` block is run from the repository's root, and its stdout and stderr together must equal that
# block, after filtering the fields that belong to the machine: wall time, ns per task, threads.
#
#   readme.sh BINARY README
set -u
binary=$1 readme=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hetstruct-readme.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

# Split the README into $tmp/N.cmd and $tmp/N.out, one pair per transcript.
awk -v dir="$tmp" '
  function flush() { if (cmd != "" && out_done) { n++; printf "%s", cmd > (dir "/" n ".cmd"); printf "%s", out > (dir "/" n ".out"); close(dir "/" n ".cmd"); close(dir "/" n ".out") } cmd = ""; out = ""; out_done = 0 }
  state == "sh"  { if ($0 == "```") { state = "after"; if (lines != 1) cmd = ""; next } if (cont) { cmd = cmd $0 "\n"; cont = ($0 ~ /\\$/); next } lines++; cmd = cmd $0 "\n"; cont = ($0 ~ /\\$/); next }
  state == "after" { if ($0 == "```") { state = "out"; next } cmd = ""; state = ""; }
  state == "out" { if ($0 == "```") { out_done = 1; flush(); state = ""; next } out = out $0 "\n"; next }
  $0 == "```sh" { state = "sh"; cmd = ""; lines = 0; cont = 0; next }
  END { print n + 0 > (dir "/count") }
' "$readme"

filter() {
  sed -E -e 's/threads [0-9]+  [0-9]+(\.[0-9]+)? s  \([0-9.]+ ns\/task\)/threads <n>  <time>/g'
}

count=$(cat "$tmp/count")
if [ "$count" -lt 1 ]; then
  echo "FAIL: no transcript found in $readme" >&2
  exit 1
fi
failed=0
for i in $(seq 1 "$count"); do
  [ -f "$tmp/$i.cmd" ] || continue
  command=$(sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$tmp/$i.cmd")
  case $command in build/hetstruct\ *) ;; *) continue ;; esac
  eval "set -- ${command#build/hetstruct }"
  "$binary" "$@" </dev/null >"$tmp/$i.actual" 2>&1
  if cmp -s <(filter <"$tmp/$i.out") <(filter <"$tmp/$i.actual"); then
    echo "ok: $command"
  else
    failed=1
    echo "FAIL: README transcript differs (- README, + actual): $command" >&2
    diff -u <(filter <"$tmp/$i.out") <(filter <"$tmp/$i.actual") >&2
  fi
done
exit $failed
