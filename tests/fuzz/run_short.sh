#!/usr/bin/env bash
# CI's short fuzz pass (issue 6): builds the libFuzzer harnesses with clang in build-fuzz/ (its
# own build directory) and runs each for 30 s from its committed corpus. Fails on any finding: a
# crash, a sanitizer report (ASan/UBSan), an exception other than InputError, a broken property
# (fuzz_targets.h), a hang (> 10 s on one input) or an out-of-memory (> 2 GB).
#
#   tests/fuzz/run_short.sh [HARNESS...]      (default: law dot stg wfformat machine program trace sweep)
#
# Environment: HETSTRUCT_FUZZ_SECONDS (default 30 per harness), HETSTRUCT_JOBS (build jobs,
# default nproc), HETSTRUCT_FUZZ_CXX (default clang++). Debian 12: clang and libclang-rt-14-dev.
# New interesting inputs go to a scratch directory, so the committed corpus is left as it is;
# a finding's input is kept in build-fuzz/fuzz-artifacts/ and printed (base64) in the log: add it
# to tests/fuzz/corpus/<harness>/ as crash-<what> once fixed (tests/fuzz_regression_test.cpp
# replays the corpus in every build).
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${HETSTRUCT_FUZZ_SECONDS:-30}
jobs=${HETSTRUCT_JOBS:-$(nproc)}
cxx=${HETSTRUCT_FUZZ_CXX:-clang++}
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(law dot stg wfformat machine program trace sweep)

if ! command -v "$cxx" >/dev/null; then
  echo "run_short: $cxx not found (Debian 12: apt-get install clang libclang-rt-14-dev)" >&2
  exit 2
fi

start=$SECONDS
cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_UNITY_BUILD=ON \
  -DHETSTRUCT_FUZZ=ON -DHETSTRUCT_TESTS=OFF -DHETSTRUCT_BENCHMARKS=OFF -DHETSTRUCT_PYTHON=OFF >/dev/null
cmake --build build-fuzz --target hetstruct_fuzzers -j"$jobs"
echo "run_short: build $((SECONDS - start)) s" >&2

artifacts=$PWD/build-fuzz/fuzz-artifacts
mkdir -p "$artifacts"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/hetstruct-fuzz.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

failed=()
for name in "${harnesses[@]}"; do
  [ -x "build-fuzz/fuzz/fuzz_$name" ] || { echo "run_short: no harness fuzz_$name" >&2; exit 2; }
  mkdir -p "$scratch/$name"
  log=$artifacts/$name.log
  if build-fuzz/fuzz/fuzz_"$name" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
       -dict="tests/fuzz/dict/$name.dict" -artifact_prefix="$artifacts/$name-" -print_final_stats=1 \
       "$scratch/$name" "tests/fuzz/corpus/$name" >"$log" 2>&1; then
    echo "run_short: $name ok: $(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | grep -o '[0-9]*$') runs in ${seconds} s" >&2
  else
    echo "run_short: $name FAILED (log $log):" >&2
    grep -E -A40 'ERROR|WARNING: |what\(\)|SUMMARY|deadly signal|timeout|out-of-memory' "$log" | head -80 >&2 || tail -40 "$log" >&2
    failed+=("$name")
  fi
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "run_short: findings in ${failed[*]}; inputs in $artifacts" >&2
  exit 1
fi
echo "run_short: ${#harnesses[@]} harnesses, ${seconds} s each, no finding ($((SECONDS - start)) s in all)" >&2
