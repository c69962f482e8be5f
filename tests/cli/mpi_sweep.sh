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

"$binary" "${grid[@]}" --out "$tmp/one.csv" || { echo "one-process sweep failed"; exit 1; }
mpirun -n "$ranks" --oversubscribe --allow-run-as-root --bind-to none \
  "$binary" "${grid[@]}" --out "$tmp/mpi.csv" || { echo "mpirun sweep failed"; exit 1; }
if cmp -s "$tmp/one.csv" "$tmp/mpi.csv"; then
  echo "ok: $ranks ranks and one process wrote the same $(wc -l <"$tmp/one.csv") lines"
  exit 0
fi
echo "FAIL: the $ranks-rank CSV differs from the one-process CSV"
diff "$tmp/one.csv" "$tmp/mpi.csv" | head -20
exit 1
