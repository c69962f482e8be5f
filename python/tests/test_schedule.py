# hetstruct.schedule: the records of `hetstruct schedule --format csv` field for field (the paper's
# example: HEFT 80, CPOP 86), its mapping file byte for byte, simulate(schedule=) as the CLI's
# --schedule, and bad input as ValueError naming the keyword.
import pytest

import hetstruct
from conftest import ROOT, assert_same, cli_rows, run_cli

DATA = ROOT / "tests" / "data"
CLI_DATA = ROOT / "tests" / "cli" / "data"
TOPCUOGLU = str(DATA / "topcuoglu2002.dot")


@pytest.mark.parametrize("algorithm, makespan", [("heft", 80), ("cpop", 86)])
def test_paper_example(algorithm, makespan):
    records = hetstruct.schedule(graph=TOPCUOGLU, algorithm=algorithm)
    header, rows = cli_rows("schedule", "--graph", TOPCUOGLU, "--algorithm", algorithm, "--format", "csv")
    assert_same(records, header, rows)
    assert len(records) == 10
    assert {r["makespan"] for r in records} == {makespan}
    assert max(r["finish"] for r in records) == makespan


def test_default_is_heft():
    assert hetstruct.schedule(graph=TOPCUOGLU) == hetstruct.schedule(graph=TOPCUOGLU, algorithm="heft")


def test_heft_sd_comm_and_scales():
    costs = str(CLI_DATA / "costs.dot")
    records = hetstruct.schedule(graph=costs, algorithm="heft-sd", sd_weight=2, comm=0.5)
    assert_same(records, *cli_rows("schedule", "--graph", costs, "--algorithm", "heft-sd", "--sd-weight", 2, "--comm",
                                   0.5, "--format", "csv"))
    stg = str(DATA / "sample.stg")
    records = hetstruct.schedule(graph=stg, scales=[1, 0.5], algorithm="cpop")
    assert_same(records, *cli_rows("schedule", "--graph", stg, "--scales", "1,0.5", "--algorithm", "cpop", "--format",
                                   "csv"))


def test_output_mapping_is_the_clis(tmp_path):
    ours, theirs = tmp_path / "ours.map", tmp_path / "theirs.map"
    hetstruct.schedule(graph=TOPCUOGLU, algorithm="cpop", output_mapping=ours)
    run_cli("schedule", "--graph", TOPCUOGLU, "--algorithm", "cpop", "--output-mapping", theirs)
    assert ours.read_bytes() == theirs.read_bytes()
    # The mapping file places the tasks as the schedule does: the same simulation, bit for bit.
    options = dict(graph=TOPCUOGLU, reps=200, seed=4)
    assert hetstruct.simulate(mapping=str(ours), **options) == hetstruct.simulate(schedule="cpop", **options)
    costs = str(CLI_DATA / "costs.dot")  # random times: b's are laws
    hetstruct.schedule(graph=costs, algorithm="heft-sd", sd_weight=2, output_mapping=ours)
    options = dict(graph=costs, reps=200, seed=4)
    placed = hetstruct.simulate(schedule="heft-sd", sd_weight=2, **options)
    assert hetstruct.simulate(mapping=str(ours), **options) == placed
    assert placed[0]["max"] > placed[0]["min"]


def test_gantt_draws_the_schedule(tmp_path):
    # schedule(gantt=BASE): the records as without it, and BASE.svg, BASE.png drawn (matplotlib).
    base = tmp_path / "heft"
    records = hetstruct.schedule(graph=TOPCUOGLU, gantt=base)
    assert records == hetstruct.schedule(graph=TOPCUOGLU)
    assert (tmp_path / "heft.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert b"<svg" in (tmp_path / "heft.svg").read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["heft.png", "heft.svg"]  # no temporary left
    with pytest.raises(ValueError, match="^gantt: the folder .* is missing or not writable"):
        hetstruct.schedule(graph=TOPCUOGLU, gantt=tmp_path / "missing" / "heft")


def test_networkx_costs_pass_through():
    nx = pytest.importorskip("networkx")
    g = nx.DiGraph(name="paper")
    for line in (DATA / "topcuoglu2002.dot").read_text().splitlines():
        line = line.strip().rstrip(";")
        if "costs=" in line:
            name, costs = line.split(None, 1)
            g.add_node(name, costs=[int(c) for c in costs.split('"')[1].split(",")])
        elif "->" in line:
            u, rest = line.split(" -> ")
            v, comm = rest.split(None, 1)
            g.add_edge(u, v, comm=int(comm.strip("[]").split("=")[1]))
    records = hetstruct.schedule(graph=g)
    header, rows = cli_rows("schedule", "--graph", TOPCUOGLU, "--format", "csv")
    assert {r["graph"] for r in records} == {"paper"}
    assert_same(records, header, rows, skip=("graph",))


@pytest.mark.parametrize("algorithm", ["heft", "cpop"])
def test_simulate_with_a_schedule_is_the_clis(algorithm):
    records = hetstruct.simulate(graph=TOPCUOGLU, schedule=algorithm, comm=1, reps=300, seed=9, threads=2)
    header, rows = cli_rows("simulate", "--graph", TOPCUOGLU, "--schedule", algorithm, "--comm", 1, "--reps", 300,
                            "--seed", 9, "--threads", 2, "--format", "csv")
    assert_same(records, header, rows)
    constant = hetstruct.simulate(graph=TOPCUOGLU, schedule=algorithm, reps=10)[0]
    assert constant["mean"] == {"heft": 80, "cpop": 86}[algorithm]


def test_heft_sd_on_simulate_and_bounds():
    options = dict(graph=str(CLI_DATA / "costs.dot"), schedule="heft-sd", sd_weight=2, comm=0.5)
    records = hetstruct.simulate(reps=200, seed=5, **options)
    assert records[0]["max"] > records[0]["min"]
    assert_same(records, *cli_rows("simulate", "--graph", CLI_DATA / "costs.dot", "--schedule", "heft-sd", "--sd-weight",
                                   2, "--comm", 0.5, "--reps", 200, "--seed", 5, "--format", "csv"))
    assert_same(hetstruct.bounds(**options),
                *cli_rows("bounds", "--graph", CLI_DATA / "costs.dot", "--schedule", "heft-sd", "--sd-weight", 2,
                          "--comm", 0.5, "--format", "csv"))


def test_sweep_with_a_schedule_is_the_clis():
    records = hetstruct.sweep(graph=[TOPCUOGLU, str(CLI_DATA / "costs.dot")], schedule="cpop", comm=[0, 1], reps=50,
                              seed=3)
    header, rows = cli_rows("sweep", "--graph", TOPCUOGLU, "--graph", CLI_DATA / "costs.dot", "--schedule", "cpop",
                            "--comm", "0,1", "--reps", 50, "--seed", 3, "--format", "csv", "--quiet")
    assert_same(records, header, rows)
    assert records[0]["value"] == 86


CV30 = str(DATA / "topcuoglu2002_cv30.dot")


def test_compare_is_the_clis():
    records = hetstruct.compare(graph=CV30, schedules=["heft", "peft", "olb"], reps=300, seed=4, quantiles=0.95,
                                deadline=90)
    header, rows = cli_rows("compare", "--graph", CV30, "--schedules", "heft,peft,olb", "--reps", 300, "--seed", 4,
                            "--quantiles", 0.95, "--deadline", 90, "--format", "csv")
    assert_same(records, header, rows)
    # The rows of simulate(compare_to=...) with the flag beside them.
    plain = hetstruct.simulate(graph=CV30, schedule="heft", compare_to=["schedule=peft", "schedule=olb"], reps=300,
                               seed=4, quantiles=0.95, deadline=90)
    assert [{k: v for k, v in r.items() if k != "excludes_0"} for r in records] == plain
    for r in records:
        if r["quantity"].endswith("difference"):
            assert r["excludes_0"] == (r["ci_low"] > 0 or r["ci_high"] < 0)
        else:
            assert r["excludes_0"] is None
    olb = [r for r in records if r["against"] == "olb" and r["quantity"] == "difference"]
    assert olb[0]["excludes_0"] is True  # 80 planned against 111


def test_compare_baseline_and_text_list():
    a = hetstruct.compare(graph=CV30, schedules="heft,cpop", baseline="cpop", reps=100)
    b = hetstruct.compare(graph=CV30, schedules=["cpop", "heft"], reps=100)
    assert a == b
    assert a[-2]["schedule"] == "cpop" and a[-2]["against"] == "heft"


@pytest.mark.parametrize("call, kwargs, keyword", [
    (hetstruct.schedule, dict(graph=TOPCUOGLU, algorithm="hefty"), "algorithm"),
    (hetstruct.schedule, dict(graph=TOPCUOGLU, algorithm="heft-sd", sd_weight=-1), "sd_weight"),
    (hetstruct.schedule, dict(graph=TOPCUOGLU, sd_weight=2), "sd_weight"),
    (hetstruct.schedule, dict(n=3), "graph"),
    (hetstruct.schedule, dict(graph=TOPCUOGLU, port="one-port"), "port"),
    (hetstruct.schedule, dict(graph=TOPCUOGLU, overlap=True), "overlap"),
    (hetstruct.schedule, dict(graph=TOPCUOGLU, cores="2,2"), "cores"),
    (hetstruct.schedule, dict(graph=TOPCUOGLU, scales="1,1,1"), "scales"),
    (hetstruct.schedule, dict(graph=TOPCUOGLU, m=1), "m"),
    (hetstruct.schedule, dict(graph=TOPCUOGLU, reps=10), "reps"),
    (hetstruct.schedule, dict(graph=TOPCUOGLU, schedule="heft"), "schedule"),
    (hetstruct.schedule, dict(graph=TOPCUOGLU, output_mapping=""), "output_mapping"),
    (hetstruct.schedule, dict(graph=TOPCUOGLU, output_mapping="/nonexistent/folder/x.map"), "output_mapping"),
    (hetstruct.schedule, dict(graph=str(DATA / "sample.stg")), "graph"),
    (hetstruct.simulate, dict(graph=TOPCUOGLU, schedule="hefty"), "schedule"),
    (hetstruct.simulate, dict(structure="sync", n=3, schedule="heft"), "schedule"),
    (hetstruct.simulate, dict(graph=TOPCUOGLU, sd_weight=1), "sd_weight"),
    (hetstruct.simulate, dict(graph=TOPCUOGLU, schedule="heft", mapping=str(DATA / "sample_two.map")), "mapping"),
    (hetstruct.policies, dict(n=4, m=1, schedule="heft"), "schedule"),
    (hetstruct.sweep, dict(structure="sync", n=4, schedule="heft"), "schedule"),
    (hetstruct.sweep, dict(graph=TOPCUOGLU, schedule="cpop", sd_weight=2), "sd_weight"),
    (hetstruct.sweep, dict(graph=TOPCUOGLU, schedule="x"), "schedule"),
    (hetstruct.compare, dict(graph=TOPCUOGLU), "schedules"),
    (hetstruct.compare, dict(graph=TOPCUOGLU, schedules="heft"), "schedules"),
    (hetstruct.compare, dict(graph=TOPCUOGLU, schedules="heft,heft"), "schedules"),
    (hetstruct.compare, dict(graph=TOPCUOGLU, schedules=[1, 2]), "schedules"),
    (hetstruct.compare, dict(graph=TOPCUOGLU, schedules="heft,cpop", baseline="peft"), "baseline"),
    (hetstruct.compare, dict(graph=TOPCUOGLU, schedules="heft,none", baseline="none"), "baseline"),
    (hetstruct.compare, dict(graph=TOPCUOGLU, schedules="heft,cpop", metrics=True), "metrics"),
    (hetstruct.compare, dict(graph=TOPCUOGLU, schedules="heft,cpop", schedule="heft"), "schedule"),
    (hetstruct.compare, dict(graph=TOPCUOGLU, schedules="heft,cpop", estimator="cv"), "estimator"),
])
def test_value_error_names_the_keyword(call, kwargs, keyword):
    with pytest.raises(ValueError) as e:
        call(**kwargs)
    assert str(e.value).startswith(keyword + ":"), str(e.value)
