#!/usr/bin/env bash
# Regenerates tests/data/platforms/simgrid_makespans.txt: SimGrid 3.32's makespan of each DAG on its
# platform (tests/reference/simgrid_platform.cpp), the values tests/platform_model_test.cpp and
# tests/cli/cases.txt compare `hetstruct simulate --platform ... --reps 1` to (1e-9 relative).
#   cmake --build build --target simgrid_platform && bash tests/reference/simgrid_platform.sh build/tests/simgrid_platform
# SimGrid's CM02 as it is, without correction factors, TCP window or cross-traffic; network/optim:Full
# because SimGrid 3.32's default lazy update gives fork_join.dot a message faster than its route's
# bottleneck (7.3807 instead of 8.160222, the sum by hand: docs/platform.md).
set -euo pipefail
bin=$(realpath "${1:?usage: simgrid_platform.sh PATH/TO/simgrid_platform}")
cd "$(dirname "$0")/../data/platforms"
cfg=(--cfg=network/model:CM02 --cfg=network/TCP-gamma:0 --cfg=network/crosstraffic:0 --cfg=network/optim:Full
     --log=root.thres:warning)
{
  echo "# platform dag simgrid-3.32-makespan (tests/reference/simgrid_platform.sh)"
  for pair in full_shared:fork_join full_rtt:rtt fatpipe:fatpipe cluster_backbone:cluster; do
    platform=${pair%%:*} dag=${pair##*:}
    echo "$platform.xml $dag.dot $("$bin" "$platform.xml" "$dag.dot" "${cfg[@]}" 2>/dev/null | tail -1)"
  done
} > simgrid_makespans.txt
cat simgrid_makespans.txt
