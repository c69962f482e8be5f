# hetstruct.fit: the records of `hetstruct fit --format csv` field for field (samples, sacct and a
# trace), out_graph= as --out-graph byte for byte, and bad input as ValueError naming the keyword.
import pytest

import hetstruct
from conftest import ROOT, assert_same, cli_rows, run_cli

DATA = ROOT / "tests" / "data"
EXP = str(DATA / "fit" / "exp.txt")
SACCT = str(DATA / "fit" / "sacct.txt")
MONTAGE = str(DATA / "wfinstances" / "pegasus_montage_montage-chameleon-2mass-01d-001.json")


def test_samples_are_the_clis():
    records = hetstruct.fit(samples=EXP, laws="exp,gamma,tn", seed=3)
    assert_same(records, *cli_rows("fit", "--samples", EXP, "--laws", "exp,gamma,tn", "--seed", 3, "--format", "csv"))
    assert [r["best"] for r in records] == [True, False, False]


def test_sacct_small_groups():
    records = hetstruct.fit(sacct=SACCT)
    assert_same(records, *cli_rows("fit", "--sacct", SACCT, "--format", "csv"))
    assert records[0]["law"] == "mix(1/2:c(65),1/2:c(3723))"


def test_out_graph_is_the_clis(tmp_path):
    ours, theirs = tmp_path / "ours.json", tmp_path / "theirs.json"
    records = hetstruct.fit(graph=[MONTAGE], laws=["gamma", "lognormal"], out_graph=str(ours))
    assert_same(records, *cli_rows("fit", "--graph", MONTAGE, "--laws", "gamma,lognormal", "--format", "csv",
                                   "--out-graph", theirs))
    assert ours.read_bytes() == theirs.read_bytes()


@pytest.mark.parametrize("kwargs, keyword", [
    (dict(samples=EXP, laws="exp,pareto"), "laws"),
    (dict(samples=EXP, by="name"), "by"),
    (dict(samples=EXP, sacct=SACCT), "fit"),
    (dict(samples=EXP, out_graph="x.json"), "out_graph"),
])
def test_bad_input(kwargs, keyword):
    with pytest.raises(ValueError, match=keyword):
        hetstruct.fit(**kwargs)
