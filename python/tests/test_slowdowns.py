# Correlated slowdowns from Python: simulate(slowdown=, machine_slowdown=) and sweep(...) are the
# command line's --slowdown and --machine-slowdown, the same records bit for bit on 1 and 2 threads;
# a bad law is a ValueError naming its keyword.
import pytest

import hetstruct
from conftest import ROOT, assert_same, cli_rows

DATA = ROOT / "tests" / "data"
THREADS = [1, 2]


@pytest.mark.parametrize("threads", THREADS)
def test_simulate_slowdowns(threads):
    records = hetstruct.simulate(structure="sync", n=4, m=2, a="1/2", levels=30, reps=300, seed=7, threads=threads,
                                 slowdown="u(1,2)", machine_slowdown="c(3/2)", quantiles=[0.5], deadline=40)
    header, rows = cli_rows("simulate", "-s", "sync", "--n", 4, "--m", 2, "--a", "1/2", "--levels", 30, "--reps", 300,
                            "--seed", 7, "--threads", threads, "--slowdown", "u(1,2)", "--machine-slowdown", "c(3/2)",
                            "--quantiles", 0.5, "--deadline", 40, "--format", "csv")
    assert_same(records, header, rows)
    assert records[0]["slowdown"] == "u(1,2)" and records[0]["machine_slowdown"] == "c(1.5)"


@pytest.mark.parametrize("threads", THREADS)
def test_simulate_slowdown_per_processor(threads):
    laws = ["c(1)", "mix(0.9:c(1),0.1:c(2))", "u(1,3)", "c(3/2)"]
    records = hetstruct.simulate(structure="async", n=4, m=2, levels=8, reps=300, seed=3, threads=threads,
                                 slowdown=laws, quantiles=[0.9])
    header, rows = cli_rows("simulate", "-s", "async", "--n", 4, "--m", 2, "--levels", 8, "--reps", 300, "--seed", 3,
                            "--threads", threads, "--slowdown", ",".join(laws), "--quantiles", 0.9, "--format", "csv")
    assert_same(records, header, rows)
    assert records[0]["slowdown"] == "c(1),mix(0.9:c(1),0.1:c(2)),u(1,3),c(1.5)"
    assert records == hetstruct.simulate(structure="async", n=4, m=2, levels=8, reps=300, seed=3, threads=threads,
                                         slowdown=",".join(laws), quantiles=[0.9])
    with pytest.raises(ValueError, match="slowdown: gives 2 laws, one per processor, but the model has 4"):
        hetstruct.simulate(structure="async", n=4, reps=10, slowdown=["c(1)", "c(2)"])


@pytest.mark.parametrize("threads", THREADS)
def test_simulate_graph_machine_slowdown(threads):
    path = str(DATA / "two_speeds.dot")
    records = hetstruct.simulate(graph=path, comm=0.25, reps=200, seed=11, threads=threads, machine_slowdown="u(1,3)")
    header, rows = cli_rows("simulate", "--graph", path, "--comm", 0.25, "--reps", 200, "--seed", 11, "--threads",
                            threads, "--machine-slowdown", "u(1,3)", "--format", "csv")
    assert_same(records, header, rows)
    assert "slowdown" not in records[0] and records[0]["machine_slowdown"] == "u(1,3)"


@pytest.mark.parametrize("threads", THREADS)
def test_sweep_slowdowns(threads):
    records = hetstruct.sweep(structure=["sync", "nn"], n=4, m=[0, 2], comm=[0, 0.05], levels=20, reps=150, seed=9,
                              threads=threads, compare_to="m=0", estimators="sd", slowdown="u(1,2)",
                              machine_slowdown="u(1,1.5)")
    header, rows = cli_rows("sweep", "-s", "sync,nn", "--n", 4, "--m", "0,2", "--comm", "0,0.05", "--levels", 20,
                            "--reps", 150, "--seed", 9, "--threads", threads, "--compare-to", "m=0", "--estimators",
                            "sd", "--slowdown", "u(1,2)", "--machine-slowdown", "u(1,1.5)", "--quiet")
    assert_same(records, header, rows)
    assert {r["slowdown"] for r in records} == {"u(1,2)"}
    # The closed forms and bounds assume independent times: no value beside the slowed simulation.
    assert all(r["value"] is None for r in records if r["method"] == "none_with_slowdowns")
    assert any(r["method"] == "none_with_slowdowns" for r in records)


def test_sweep_graph_slowdown():
    path = str(DATA / "diamond.dot")
    records = hetstruct.sweep(graph=path, comm=[0, 0.5], reps=100, seed=2, slowdown="u(1,2)")
    header, rows = cli_rows("sweep", "--graph", path, "--comm", "0,0.5", "--reps", 100, "--seed", 2, "--slowdown",
                            "u(1,2)", "--quiet")
    assert_same(records, header, rows)


def test_slowdowns_slow_the_mean():
    # The same seed's times, each processor slowed by the constant 2: every makespan doubles exactly.
    plain = hetstruct.simulate(structure="async", n=3, levels=10, reps=100, seed=5, estimator="mc")[0]
    slowed = hetstruct.simulate(structure="async", n=3, levels=10, reps=100, seed=5, slowdown="c(2)")[0]
    assert slowed["mean"] == 2 * plain["mean"]


@pytest.mark.parametrize("call, kwargs, keyword", [
    (hetstruct.simulate, dict(structure="sync", n=4, slowdown="nosuch(1)"), "slowdown"),
    (hetstruct.simulate, dict(structure="sync", n=4, slowdown="u(-1,1)"), "slowdown"),
    (hetstruct.simulate, dict(structure="sync", n=4, machine_slowdown="u(1,0)"), "machine_slowdown"),
    (hetstruct.simulate, dict(structure="sync", n=4, slowdown=""), "slowdown"),
    (hetstruct.simulate, dict(structure="sync", n=4, slowdown="u(1,2)", estimator="cv"), "estimator"),
    (hetstruct.simulate, dict(structure="sync", n=4, slowdown="u(1,2)", metrics=True), "metrics"),
    (hetstruct.sweep, dict(structure="sync", n=4, slowdown="nosuch(1)"), "slowdown"),
    (hetstruct.sweep, dict(structure="sync", n=4, machine_slowdown="n(0,1)"), "machine_slowdown"),
    (hetstruct.sweep, dict(structure="sync", n=4, machine_slowdown=""), "machine_slowdown"),
    (hetstruct.sweep, dict(structure="sync", n=4, slowdown="u(1,2)", estimator="cv"), "estimator"),
    (hetstruct.bounds, dict(structure="sync", n=4, slowdown="u(1,2)"), "slowdown"),
    (hetstruct.policies, dict(n=4, m=1, slowdown="u(1,2)"), "slowdown"),
])
def test_bad_slowdown_names_the_keyword(call, kwargs, keyword):
    with pytest.raises(ValueError) as e:
        call(**kwargs)
    assert str(e.value).startswith(keyword + ":") or str(e.value).startswith(keyword + " "), str(e.value)
