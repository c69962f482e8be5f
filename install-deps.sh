#!/usr/bin/env bash
# Installs exactly the Debian 12 packages hetstruct needs to build, test and plot, and clang for
# the libFuzzer harnesses (tests/fuzz), ccache for rebuilds, SimGrid for the reference check
# tests/reference/simgrid_fcfs.cpp (ctest reference.simgrid_fcfs). Idempotent.
set -euo pipefail
packages=(
  build-essential cmake ninja-build pkg-config
  libboost-graph-dev libboost-random-dev libboost-math-dev
  libtbb-dev catch2 libcli11-dev librandom123-dev libbenchmark-dev nlohmann-json3-dev libpugixml-dev
  gnuplot-nox libopenmpi-dev openmpi-bin python3
  pybind11-dev python3-dev python3-pytest python3-numpy python3-networkx python3-matplotlib python3-pandas
  clang libclang-rt-14-dev
  ccache
  libsimgrid-dev
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present" >&2
  exit 0
fi
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "install-deps: installing ${missing[*]}" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
