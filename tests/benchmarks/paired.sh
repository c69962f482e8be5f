#!/usr/bin/env bash
# Paired timing of hetstruct_bench binaries on a noisy machine (issue 11's speed figures): runs
# each binary in turn, ROUNDS times, 3 repetitions a run, and prints per benchmark and binary the
# minimum and the lower quartile of the time per task in ns (the time_per_task counter). On a
# shared VM medians swing by 10-30% between runs; minima over alternated runs are what compare.
#   tests/benchmarks/paired.sh ROUNDS FILTER BINARY [BINARY ...]
#   tests/benchmarks/paired.sh 8 'event-available/16_8.*current' old/hetstruct_bench build/hetstruct_bench
# One binary gives its own figures: tests/benchmarks/paired.sh 10 'event-available/16_8' build/hetstruct_bench
# prints current and reference of the same runs.
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: tests/benchmarks/paired.sh ROUNDS FILTER BINARY [BINARY ...]" >&2; exit 2; }
rounds=$1 filter=$2
shift 2
for _ in $(seq "$rounds"); do
  for binary in "$@"; do
    "$binary" --benchmark_filter="$filter" --benchmark_repetitions=3 --benchmark_min_time=0.2 \
      --benchmark_format=csv 2>/dev/null |
      awk -F, -v binary="$binary" 'NR > 1 && $1 !~ /_(mean|median|stddev|cv)"?$/ {
        name = $1; gsub(/"/, "", name); printf "%s %s %.3f\n", name, binary, $NF * 1e9 }'
  done
done | sort -k1,1 -k2,2 -k3,3g | awk '
  function flush() { if (n) printf "%-60s %-28s min %7.1f  p25 %7.1f  (n=%d)\n", key1, key2, v[1], v[int((n - 1) / 4) + 1], n }
  $1 != key1 || $2 != key2 { flush(); key1 = $1; key2 = $2; n = 0 }
  { v[++n] = $3 }
  END { flush() }'
