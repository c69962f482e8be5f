#!/usr/bin/env bash
# cmake --install into a temporary prefix, then from outside the source and build trees: the installed
# CLI, the installed Python package and a C++ project built against the installed CMake package
# (tests/install/) give the same mean, bit for bit, as the build's CLI on one model and seed.
# Usage: tests/install.sh SOURCE_DIR BUILD_DIR PYTHON (PYTHON empty: no Python module to check)
set -euo pipefail
source_dir=$1 build_dir=$2 python=${3:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
cmake --install "$build_dir" --prefix "$prefix" >"$work/install.log"
cd "$work"  # nothing below may reach the source or build tree

model=(simulate -s sync --n 4 --m 1 --a 1/2 --law uniform --estimator mc --reps 1000 --seed 1 --format csv)
mean_of() {  # the mean column of a simulate CSV
  /usr/bin/python3 -c 'import csv, sys; print(next(csv.DictReader(sys.stdin))["mean"])'
}
expected=$("$build_dir/hetstruct" "${model[@]}" | mean_of)
[ -n "$expected" ] || { echo "install: the build's CLI printed no mean" >&2; exit 1; }

installed=$("$prefix/bin/hetstruct" "${model[@]}" | mean_of)
[ "$installed" = "$expected" ] || { echo "install: installed CLI mean $installed, build's $expected" >&2; exit 1; }
echo "install: bin/hetstruct gives mean $installed as the build's"

if [ -n "$python" ]; then
  site=$(find "$prefix" -type d -name site-packages | head -n 1)
  [ -n "$site" ] && [ -f "$site/hetstruct/__init__.py" ] || { echo "install: no hetstruct package under $prefix" >&2; exit 1; }
  from_python=$(PYTHONPATH=$site PYTHONDONTWRITEBYTECODE=1 "$python" -c '
import hetstruct, sys
assert hetstruct.__file__.startswith(sys.argv[1]), hetstruct.__file__
r = hetstruct.simulate(structure="sync", n=4, m=1, a="1/2", law="uniform", estimator="mc", reps=1000, seed=1)[0]
print(repr(r["mean"]))' "$site")
  # repr gives the shortest text that reads back, as the CSV does
  [ "$from_python" = "$expected" ] || { echo "install: installed Python mean $from_python, CLI's $expected" >&2; exit 1; }
  echo "install: the Python package in $site gives mean $from_python"
fi

cmake -S "$source_dir/tests/install" -B "$work/consumer" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" >"$work/consumer.log" 2>&1 || { cat "$work/consumer.log" >&2; exit 1; }
cmake --build "$work/consumer" >>"$work/consumer.log" 2>&1 || { cat "$work/consumer.log" >&2; exit 1; }
from_cpp=$("$work/consumer/consumer")
awk -v a="$from_cpp" -v b="$expected" 'BEGIN { exit !(a + 0 == b + 0) }' ||
  { echo "install: find_package(hetstruct) project mean $from_cpp, CLI's $expected" >&2; exit 1; }
echo "install: a find_package(hetstruct) project gives mean $from_cpp"
