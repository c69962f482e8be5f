#!/usr/bin/env bash
# hetstruct's set-up in one place:
#   ./build.sh run    install, build, regenerate Wilson's Tables 1-8 and Figures 5-10, and the
#                     HBSP^1 predictions, into results/
#   ./build.sh test   install, build, run the whole test suite (what CI runs)
#   ./build.sh bench  install, build, run the engine benchmark
set -euo pipefail
cd "$(dirname "$0")"
what=${1:-}
case "$what" in run|test|bench) ;; *) echo "usage: ./build.sh run|test|bench" >&2; exit 2 ;; esac

./install-deps.sh
# Unity builds (a few sources per compiler run) halve a cold build; docs/testing.md.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_UNITY_BUILD=ON >/dev/null
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
    # Every cell and point at the paper's precision: a standard error no larger than 10,000 plain
    # replications give (--target-reps, measured per cell), with the best estimator per cell
    # (--estimator auto: control variates, the nn surrogate, antithetic pairs for ms); 10,000 is
    # also the cap, so no cell runs more than plain sampling would.
    reps=${HETSTRUCT_REPS:-10000}
    seed=${HETSTRUCT_SEED:-1}
    version=$(./build/hetstruct --version)
    provenance=results/PROVENANCE.txt
    echo "# Each file: the command that wrote it, hetstruct's version, the date and the wall time." > "$provenance.new"
    record() {  # file, command...
      local file=$1; shift
      local start; start=$(date +%s%N)
      "$@"
      local ms=$(( ($(date +%s%N) - start) / 1000000 ))
      printf '%s: %s (%s, %s, %d.%01d s on %s cores)\n' "$file" "${*/#.\/build\//}" "$version" "$(date -u +%F)" \
        $((ms / 1000)) $((ms % 1000 / 100)) "$(nproc)" >> "$provenance.new"
    }
    precision=(--estimator auto --target-reps "$reps" --reps "$reps" --seed "$seed")
    # HETSTRUCT_SE_FLOOR=0.05: the variance study's rule, se <= max(0.05, the paper's) (docs/estimators.md).
    [ -z "${HETSTRUCT_SE_FLOOR:-}" ] || precision+=(--se-floor "$HETSTRUCT_SE_FLOOR")
    for t in 1 2 3 4 5 6 7 8; do
      record "table$t.csv" ./build/hetstruct table "$t" "${precision[@]}" --out "results/table$t.csv"
    done
    for f in 5 6 7 8 9 10; do
      record "figure$f.{csv,gp,svg,png}" ./build/hetstruct figure "$f" "${precision[@]}" --out-dir results
    done
    record "hbsp/figure{4,6}.{csv,gp,svg,png}" ./build/hetstruct hbsp predict --out-dir results/hbsp
    mv "$provenance.new" "$provenance"
    echo "Wrote Tables 1-8, Figures 5-10 and the HBSP predictions into results/ (see $provenance)" >&2
    ;;
esac
