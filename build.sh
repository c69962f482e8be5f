#!/usr/bin/env bash
# hetstruct's set-up in one place:
#   ./build.sh run    install, build, regenerate the paper's tables into results/, print a summary
#   ./build.sh test   install, build, run the whole test suite (what CI runs)
#   ./build.sh bench  install, build, run the engine benchmark
set -euo pipefail
cd "$(dirname "$0")"
what=${1:-}
case "$what" in run|test|bench) ;; *) echo "usage: ./build.sh run|test|bench" >&2; exit 2 ;; esac

./install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"

case "$what" in
  test)
    cd build
    ctest --output-on-failure -j"$(nproc)"
    ;;
  bench)
    ./build/hetstruct_bench --benchmark_counters_tabular=true
    ;;
  run)
    reps=${HETSTRUCT_REPS:-10000}
    seed=${HETSTRUCT_SEED:-1}
    version=$(./build/hetstruct --version)
    provenance=results/PROVENANCE.txt
    {
      echo "# Each file: the command that wrote it, with hetstruct's version, the date and the wall time."
    } > "$provenance.new"
    for t in 1 2; do
      start=$(date +%s%N)
      ./build/hetstruct table "$t" --reps "$reps" --seed "$seed" --out "results/table$t.csv"
      ms=$(( ($(date +%s%N) - start) / 1000000 ))
      printf 'table%s.csv: hetstruct table %s --reps %s --seed %s (%s, %s, %d.%01d s on %s cores)\n' \
        "$t" "$t" "$reps" "$seed" "$version" "$(date -u +%F)" $((ms / 1000)) $((ms % 1000 / 100)) "$(nproc)" >> "$provenance.new"
    done
    mv "$provenance.new" "$provenance"
    echo "Wrote results/table1.csv, results/table2.csv and $provenance" >&2
    ;;
esac
