#!/usr/bin/env bash
# Times the main job's tables (issue 11): Wilson's Tables 1-8, every cell at the precision of the
# paper's 10,000 plain replications (--target-reps 10000, the cap 10,000), with the best estimator
# per cell (--estimator auto). Prints seconds per table and in all, with the machine's cores and
# load, and the per-table summaries hetstruct prints (estimators, replications, variance factors).
#   tests/benchmarks/tables.sh [TABLES...]      default: 1 2 3 4 5 6 7 8
# Environment: HETSTRUCT (the binary, default build/hetstruct), HETSTRUCT_TARGET_REPS (10000),
# HETSTRUCT_SE_FLOOR (none; 0.05 is the variance study's rule: se <= max(0.05, the paper's)),
# HETSTRUCT_SEED (1), OUT (a folder for the CSVs, default a temporary one).
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${HETSTRUCT:-build/hetstruct}
target=${HETSTRUCT_TARGET_REPS:-10000}
floor=${HETSTRUCT_SE_FLOOR:-}
seed=${HETSTRUCT_SEED:-1}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
tables=("$@")
[ ${#tables[@]} -gt 0 ] || tables=(1 2 3 4 5 6 7 8)
[ -x "$bin" ] || { echo "tables.sh: $bin is not built (./build.sh test builds it)" >&2; exit 2; }

echo "# $($bin --version), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg) at start, target: the standard error of $target plain replications${floor:+ or $floor, whichever is larger}"
total_ms=0
for t in "${tables[@]}"; do
  start=$(date +%s%N)
  "$bin" table "$t" --estimator auto --target-reps "$target" --reps "$target" --seed "$seed" \
    ${floor:+--se-floor "$floor"} --out "$out/table$t.csv" 2> "$out/table$t.log"
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  total_ms=$((total_ms + ms))
  printf 'table %s: %d.%01d s\n' "$t" $((ms / 1000)) $((ms % 1000 / 100))
  sed -n 's/^  /  /p' "$out/table$t.log"
done
printf 'all: %d.%01d s (load %s at the end; CSVs in %s)\n' $((total_ms / 1000)) $((total_ms % 1000 / 100)) \
  "$(cut -d' ' -f1-3 /proc/loadavg)" "$out"
