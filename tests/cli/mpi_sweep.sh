#!/usr/bin/env bash
# The two-rank MPI sweep writes the same CSV, byte for byte, as the one-process sweep.
#
#   tests/cli/mpi_sweep.sh BINARY [RANKS]
#
# BINARY is hetstruct built with HETSTRUCT_MPI=ON (the default when libopenmpi-dev is installed).
# Exit 0 when identical, 1 when not (with the first differing lines), 77 (skipped) without mpirun.
set -u
binary=${1:?usage: mpi_sweep.sh BINARY [RANKS]}
ranks=${2:-2}
command -v mpirun >/dev/null || { echo "mpi_sweep.sh: no mpirun, skipped"; exit 77; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/hetstruct-mpi.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
grid=(sweep -s sync,nn,ms --n 4,8 --m 0,3 --a 1/2 --law uniform,normal --comm 0:0.1:0.05 --levels 20
      --reps 300 --seed 11 --compare-to m=0 --quiet)
# The means estimated whole (control variates, antithetic pairs, the nn surrogate) and stopped on
# a target: each configuration's mean is one indivisible piece of one rank's.
estimated=(sweep -s sync,nn,ms --n 4,8 --m 3 --a 1/2 --law uniform,normal --comm 0.05,0.1 --levels 20
           --reps 2000 --seed 11 --compare-to m=0 --estimator auto --target-reps 10000 --quiet)
# Antithetic pairs alone, stopped on a relative half-width.
antithetic=(sweep -s sync,ms --n 4,8 --m 3 --a 1/2 --law uniform --comm 0,0.1 --levels 20 --reps 2000 --seed 11
            --estimator antithetic --target-rel 0.0005 --quiet)
# Paired quantile and deadline differences: the difference runs' pairs gathered, rank 0
# bootstrapping them; a schedule comparison beside a comm one (issue 38).
data=$(cd "$(dirname "$0")/../data" && pwd)
paired=(sweep --graph "$data/topcuoglu2002_cv30.dot,$data/diamond.dot" --schedule heft --comm 0,0.5
        --compare-to schedule=cpop --compare-to comm=0.2 --reps 700 --seed 11 --quantiles 0.5,0.95
        --deadline 90 --quiet)

status=0
for name in grid estimated antithetic paired; do
  declare -n args=$name
  "$binary" "${args[@]}" --out "$tmp/one.csv" || { echo "$name: one-process sweep failed"; exit 1; }
  mpirun -n "$ranks" --oversubscribe --allow-run-as-root --bind-to none \
    "$binary" "${args[@]}" --out "$tmp/mpi.csv" || { echo "$name: mpirun sweep failed"; exit 1; }
  if cmp -s "$tmp/one.csv" "$tmp/mpi.csv"; then
    echo "ok ($name): $ranks ranks and one process wrote the same $(wc -l <"$tmp/one.csv") lines"
  else
    echo "FAIL ($name): the $ranks-rank CSV differs from the one-process CSV"
    diff "$tmp/one.csv" "$tmp/mpi.csv" | head -20
    status=1
  fi
done
exit $status
