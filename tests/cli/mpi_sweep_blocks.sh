#!/usr/bin/env bash
# MPI splits replication blocks, not only configurations: a sweep of one or two configurations
# with 20000 replications (313 blocks a run) on 2 and on 3 ranks writes the same CSV, byte for
# byte, as the one-process sweep, although every rank computes part of the same runs; and so do
# the distribution's rows (quantiles, sd, p_deadline) and the --compare-to ratio rows, of Wilson's
# structures and of a graph, on 1, 2 and 3 ranks and on 1 and 2 threads.
#
#   tests/cli/mpi_sweep_blocks.sh BINARY
#
# BINARY is hetstruct built with HETSTRUCT_MPI=ON. Exit 0 when identical, 1 when not (with the
# first differing lines), 77 (skipped) without mpirun.
set -u
binary=${1:?usage: mpi_sweep_blocks.sh BINARY}
command -v mpirun >/dev/null || { echo "mpi_sweep_blocks.sh: no mpirun, skipped"; exit 77; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/hetstruct-mpi-blocks.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
status=0
# Byte-compares two CSVs: FILE_A FILE_B OK_BEFORE_COUNT OK_AFTER_COUNT FAIL_MESSAGE.
same() {
  if cmp -s "$1" "$2"; then
    echo "ok: $3 $(wc -l <"$1") $4"
  else
    echo "FAIL: $5"
    diff "$1" "$2" | head -20
    status=1
  fi
}
compare() {  # NAME RANKS GRID...
  local name=$1 ranks=$2
  shift 2
  "$binary" "$@" --quiet --out "$tmp/$name-one.csv" || { echo "FAIL: $name: one-process sweep failed"; status=1; return; }
  mpirun -n "$ranks" --oversubscribe --allow-run-as-root --bind-to none \
    "$binary" "$@" --quiet --out "$tmp/$name-mpi.csv" || { echo "FAIL: $name: mpirun -n $ranks failed"; status=1; return; }
  same "$tmp/$name-one.csv" "$tmp/$name-mpi.csv" "$name on $ranks ranks: the same" "lines as one process" \
    "$name: the $ranks-rank CSV differs from the one-process CSV"
}

# One configuration, one run: its 313 blocks are all there is to share.
one=(sweep -s sync --n 8 --m 3 --levels 20 --reps 20000 --seed 13)
# Two configurations, five runs (nn's C = 0 run for Eq. 12, a paired difference each, mc each).
two=(sweep -s sync,nn --n 6 --m 2 --comm 0.05 --levels 20 --reps 20000 --seed 13 --compare-to n=n-m,m=0)
# The distribution's rows (every makespan gathered) and the paired ratio (paired moments per block).
dist=(sweep -s sync,async --n 6 --m 2 --levels 20 --reps 20000 --seed 13 --compare-to m=0
      --estimators quantile,sd,p_deadline --quantiles 0.01,0.5,0.99 --deadline 12,13)
# The same rows of a graph: four configurations, each with its paired difference and ratio to m=0.
data=$(cd "$(dirname "$0")" && pwd)/data
graph=(sweep --graph "$data/dag.dot" --m 0,1 --comm 0,0.1 --reps 20000 --seed 13 --compare-to m=0
       --estimators quantile,sd,p_deadline --quantiles 0.01,0.5,0.99 --deadline 2)
for ranks in 2 3; do
  compare "one-config" "$ranks" "${one[@]}"
  compare "two-configs" "$ranks" "${two[@]}"
  compare "distribution" "$ranks" "${dist[@]}"
  compare "graph-distribution" "$ranks" "${graph[@]}"
done
compare "distribution" 1 "${dist[@]}"
compare "graph-distribution" 1 "${graph[@]}"

# One process on 1 and on 2 threads: the same bytes.
threads() {  # NAME GRID...
  local name=$1
  shift
  for t in 1 2; do
    "$binary" "$@" --quiet --threads "$t" --out "$tmp/$name-t$t.csv" || { echo "FAIL: $name: --threads $t failed"; status=1; return; }
  done
  same "$tmp/$name-t1.csv" "$tmp/$name-t2.csv" "$name: the same" "lines on 1 and 2 threads" \
    "$name: --threads 1 and --threads 2 differ"
}
threads "distribution" "${dist[@]}"
threads "graph-distribution" "${graph[@]}"
exit $status
