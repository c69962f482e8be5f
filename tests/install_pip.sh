#!/usr/bin/env bash
# pip install of a copy of the clone (its tracked and new files, as git lists them) into a fresh
# virtual environment that sees Debian's packages, offline (no build isolation, no dependencies),
# reusing BUILD_DIR's CMake build; then, from outside both trees, the installed `hetstruct` script and
# `import hetstruct` give the same mean, bit for bit, as the build's CLI (docs/install.md).
# Usage: tests/install_pip.sh SOURCE_DIR BUILD_DIR PYTHON
set -euo pipefail
source_dir=$1 build_dir=$2 python=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/src"
(cd "$source_dir" && git ls-files -co --exclude-standard -z | xargs -0 cp --parents -t "$work/src")
"$python" -m venv --system-site-packages "$work/venv"
HETSTRUCT_CMAKE_BUILD_DIR=$build_dir PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
  "$work/venv/bin/pip" install -q --no-build-isolation --no-deps "$work/src" >"$work/pip.log" 2>&1 ||
  { cat "$work/pip.log" >&2; exit 1; }
cd "$work"
rm -rf "$work/src"  # what runs now is the installed copy alone

model=(simulate -s nn --n 6 --m 2 --a 1/2 --law "tn(0.5,1/12)" -C 0.1 --estimator mc --reps 500 --seed 3 --format csv)
expected=$("$build_dir/hetstruct" "${model[@]}")
from_script=$("$work/venv/bin/hetstruct" "${model[@]}")
[ "$from_script" = "$expected" ] ||
  { echo "install_pip: the installed hetstruct script printed"$'\n'"$from_script"$'\n'"the build's CLI"$'\n'"$expected" >&2; exit 1; }
"$work/venv/bin/hetstruct" --version | grep -q '^hetstruct ' || { echo "install_pip: no version from the script" >&2; exit 1; }
mean=$(/usr/bin/python3 -c 'import csv, sys; print(next(csv.DictReader(sys.stdin))["mean"])' <<<"$expected")
PYTHONDONTWRITEBYTECODE=1 "$work/venv/bin/python" - "$work/venv" "$mean" <<'PY'
import sys
import hetstruct
venv, mean = sys.argv[1], sys.argv[2]
assert hetstruct.__file__.startswith(venv), "imported %s, not the venv's" % hetstruct.__file__
r = hetstruct.simulate(structure="nn", n=6, m=2, a="1/2", law="tn(0.5,1/12)", comm=0.1, estimator="mc", reps=500, seed=3)[0]
assert repr(r["mean"]) == mean, (repr(r["mean"]), mean)
print("install_pip: the venv's hetstruct (%s) gives mean %s as the CLI" % (hetstruct.__file__, mean))
PY
