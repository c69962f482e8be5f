# SimGrid platforms from Python: simulate(platform=, sharing=) is the command line's --platform and
# --sharing, the same records bit for bit; the makespans SimGrid 3.32 gives (tests/data/platforms/
# simgrid_makespans.txt) at 1e-9; a keyword the platform already gives is a ValueError naming it.
import pytest

import hetstruct
from conftest import ROOT, assert_same, cli_rows

PLATFORMS = ROOT / "tests" / "data" / "platforms"


def simgrid_rows():
    for line in (PLATFORMS / "simgrid_makespans.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            platform, dag, makespan = line.split()
            yield platform, dag, float(makespan)


@pytest.mark.parametrize("platform,dag,makespan", list(simgrid_rows()))
def test_platform_equals_simgrid(platform, dag, makespan):
    records = hetstruct.simulate(graph=str(PLATFORMS / dag), platform=str(PLATFORMS / platform), reps=1)
    assert abs(records[0]["mean"] - makespan) <= 1e-9 * makespan
    assert records[0]["protocol"] == "platform-rtt"


@pytest.mark.parametrize("sharing", ["rtt", "max-min", "none"])
def test_platform_same_bits_as_cli(sharing):
    dag, platform = str(PLATFORMS / "rtt.dot"), str(PLATFORMS / "full_rtt.xml")
    records = hetstruct.simulate(graph=dag, platform=platform, sharing=sharing, reps=3, seed=5)
    header, rows = cli_rows("simulate", "--graph", dag, "--platform", platform, "--sharing", sharing, "--reps", 3,
                            "--seed", 5, "--format", "csv")
    assert_same(records, header, rows)


def test_platform_refuses_scales():
    with pytest.raises(ValueError, match="scales: does not apply beside a platform"):
        hetstruct.simulate(graph=str(PLATFORMS / "rtt.dot"), platform=str(PLATFORMS / "full_rtt.xml"), scales=[1, 1, 1, 1])
