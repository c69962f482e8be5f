# The module's records equal the CLI's CSV fields bit for bit, for every command, on 1 and 2
# threads (the same seed gives the same bits on any thread count).
import csv

import pytest

import hetstruct
from conftest import ROOT, assert_same, cli_rows

DATA = ROOT / "tests" / "data"
CLI_DATA = ROOT / "tests" / "cli" / "data"
THREADS = [1, 2]


@pytest.mark.parametrize("threads", THREADS)
def test_simulate_sync(threads):
    records = hetstruct.simulate(structure="sync", n=4, m=2, a="1/2", law="uniform", levels=50, reps=300, seed=7,
                                 threads=threads)
    header, rows = cli_rows("simulate", "--structure", "sync", "--n", 4, "--m", 2, "--a", "1/2", "--law", "uniform",
                            "--levels", 50, "--reps", 300, "--seed", 7, "--threads", threads, "--format", "csv")
    assert_same(records, header, rows)


@pytest.mark.parametrize("threads", THREADS)
def test_simulate_numbers_as_floats(threads):
    # a=0.8 and comm=0.05 as Python floats: the texts that read back to the same doubles.
    records = hetstruct.simulate(structure="nn", n=5, m=2, a=0.8, law="normal", comm=0.05, levels=40, reps=200,
                                 seed=3, threads=threads, estimator="mc", quantiles=[0.1, 0.9], deadline=30)
    header, rows = cli_rows("simulate", "-s", "nn", "--n", 5, "--m", 2, "--a", "0.8", "--law", "normal", "--comm",
                            "0.05", "--levels", 40, "--reps", 200, "--seed", 3, "--threads", threads, "--estimator",
                            "mc", "--quantiles", "0.1,0.9", "--deadline", 30, "--format", "csv")
    assert_same(records, header, rows)


@pytest.mark.parametrize("threads", THREADS)
def test_simulate_graph_metrics(threads):
    path = str(DATA / "two_speeds.dot")
    records = hetstruct.simulate(graph=path, reps=200, seed=11, threads=threads, metrics=True, comm=0.25)
    header, rows = cli_rows("simulate", "--graph", path, "--reps", 200, "--seed", 11, "--threads", threads,
                            "--metrics", "--comm", 0.25, "--format", "csv")
    assert_same(records, header, rows)


@pytest.mark.parametrize("threads", THREADS)
def test_simulate_keep_makespans(threads):
    records, makespans = hetstruct.simulate(structure="async", n=3, m=1, levels=10, reps=130, seed=5, threads=threads,
                                            keep=True)
    header, rows = cli_rows("simulate", "-s", "async", "--n", 3, "--m", 1, "--levels", 10, "--reps", 130, "--seed", 5,
                            "--threads", threads, "--format", "csv")
    # Keeping the makespans runs plain Monte Carlo: the CLI's mc estimate of the same seed.
    mc = cli_rows("simulate", "-s", "async", "--n", 3, "--m", 1, "--levels", 10, "--reps", 130, "--seed", 5,
                  "--threads", threads, "--estimator", "mc", "--format", "csv")
    assert_same(records, *mc)
    assert makespans.shape == (130,)
    assert makespans.mean() == pytest.approx(records[0]["mean"], rel=1e-12)
    assert makespans.min() == records[0]["min"] and makespans.max() == records[0]["max"]


@pytest.mark.parametrize("threads", THREADS)
def test_bounds(threads):
    for kwargs, args in [
        (dict(structure="sync", n=4, m=2, a=0.8), ["-s", "sync", "--n", 4, "--m", 2, "--a", "0.8"]),
        (dict(n=6, m=3, a="1/2", law="normal", comm="1/10"), ["--n", 6, "--m", 3, "--a", "1/2", "--law", "normal",
                                                             "--comm", "1/10"]),
        (dict(structure="nn", n=4, m=1, levels=30, reps=100, seed=2), ["-s", "nn", "--n", 4, "--m", 1, "--levels", 30,
                                                                       "--reps", 100, "--seed", 2]),
        (dict(n=3, m=1, estimates=True), ["--n", 3, "--m", 1, "--estimates"]),
        (dict(graph=str(DATA / "diamond.dot")), ["--graph", str(DATA / "diamond.dot")]),
    ]:
        records = hetstruct.bounds(threads=threads, **kwargs)
        header, rows = cli_rows("bounds", *args, "--threads", threads, "--format", "csv")
        assert_same(records, header, rows)


@pytest.mark.parametrize("threads", THREADS)
def test_sweep(threads):
    records = hetstruct.sweep(structure=["sync", "nn", "ms"], n=4, m="0:2", comm=[0, 0.05], levels=20, reps=150,
                              seed=9, threads=threads, compare_to=["m=0"], estimators="quantile,sd")
    header, rows = cli_rows("sweep", "-s", "sync,nn,ms", "--n", 4, "--m", "0:2", "--comm", "0,0.05", "--levels", 20,
                            "--reps", 150, "--seed", 9, "--threads", threads, "--compare-to", "m=0", "--estimators",
                            "quantile,sd", "--quiet")
    assert_same(records, header, rows)


@pytest.mark.parametrize("threads", THREADS)
def test_sweep_graphs_estimator(threads):
    graphs = [str(DATA / "diamond.dot"), str(DATA / "fork_join.dot")]
    records = hetstruct.sweep(graph=graphs, m=1, a=[0.5, 0.25], comm=0.1, reps=100, seed=4, threads=threads,
                              estimator="auto", target_reps=50)
    header, rows = cli_rows("sweep", "--graph", ",".join(graphs), "--m", 1, "--a", "0.5,0.25", "--comm", 0.1, "--reps",
                            100, "--seed", 4, "--threads", threads, "--estimator", "auto", "--target-reps", 50, "--quiet")
    assert_same(records, header, rows)


@pytest.mark.parametrize("threads", THREADS)
def test_table(threads):
    records = hetstruct.table(1, reps=20, seed=2, threads=threads)
    header, rows = cli_rows("table", 1, "--reps", 20, "--seed", 2, "--threads", threads, "--format", "csv")
    assert_same(records, header, rows)


@pytest.mark.parametrize("threads", THREADS)
def test_figure(threads, tmp_path):
    records = hetstruct.figure(5, reps=20, levels=20, seed=3, threads=threads)
    header, rows = cli_rows("figure", 5, "--reps", 20, "--levels", 20, "--seed", 3, "--threads", threads, "--out-dir",
                            tmp_path, "--format", "csv")
    assert_same(records, header, rows)


@pytest.mark.parametrize("threads", THREADS)
def test_policies(threads):
    records = hetstruct.policies(n=4, m=2, a="1/2", law="normal", comm=0.025, levels=30, reps=200, seed=6,
                                 threads=threads)
    header, rows = cli_rows("policies", "--n", 4, "--m", 2, "--a", "1/2", "--law", "normal", "--comm", 0.025,
                            "--levels", 30, "--reps", 200, "--seed", 6, "--threads", threads, "--format", "csv")
    assert_same(records, header, rows)


def test_hbsp_replay_static():
    machine = str(CLI_DATA / "hbsp-cluster-2001.txt")
    for kwargs, args in [
        (dict(algorithm="scatter", size="100KB", processors=4), ["--algorithm", "scatter", "--size", "100KB",
                                                                 "--processors", 4]),
        (dict(algorithm="broadcast", size=5000, metrics=True), ["--algorithm", "broadcast", "--size", 5000,
                                                               "--metrics"]),
        (dict(program=str(ROOT / "tests/fuzz/corpus/program/cluster-example.csv"), form="cj"),
         ["--program", str(ROOT / "tests/fuzz/corpus/program/cluster-example.csv"), "--form", "cj"]),
    ]:
        records = hetstruct.hbsp_replay(machine=machine, **kwargs)
        header, rows = cli_rows("hbsp", "replay", "--machine", machine, *args, "--format", "csv")
        assert_same(records, header, rows)


@pytest.mark.parametrize("threads", THREADS)
def test_hbsp_replay_monte_carlo(threads):
    machine = str(CLI_DATA / "hbsp-cluster-2001.txt")
    trace = str(ROOT / "bounds" / "data" / "hbsp-example-trace.txt")
    records = hetstruct.hbsp_replay(machine=machine, algorithm="scatter", size="100KB", processors=4, trace=trace,
                                    reps=300, seed=8, threads=threads)
    header, rows = cli_rows("hbsp", "replay", "--machine", machine, "--algorithm", "scatter", "--size", "100KB",
                            "--processors", 4, "--trace", trace, "--reps", 300, "--seed", 8, "--threads", threads,
                            "--format", "csv")
    assert_same(records, header, rows)


NETWORKX_DOT = """digraph "pipeline" {
  "a" ["processor"="0", "law"="u(0,1)", "order"="1"];
  "b" ["processor"="1", "law"="n(1/2,1/12)"];
  "c" ["processor"="0", "law"="exp(0.5)", "order"="2"];
  "d" ["processor"="1", "law"="gamma(2,0.25)"];
  "a" -> "b" ["comm"="0.125"];
  "a" -> "c";
  "b" -> "d" ["comm"="u(0,0.2)"];
  "c" -> "d";
}
"""


# The same graph as a person writes it: numbers unquoted, one edge attribute list per edge.
HAND_DOT = """digraph pipeline {
  a [processor=0, law="u(0,1)", order=1];
  b [processor=1, law="n(1/2,1/12)"];
  c [processor=0, law="exp(0.5)", order=2];
  d [processor=1, law="gamma(2,0.25)"];
  a -> b [comm=0.125];
  a -> c;
  b -> d [comm="u(0,0.2)"];
  c -> d;
}
"""


def pipeline_graph():
    import networkx as nx
    g = nx.DiGraph(name="pipeline")
    g.add_node("a", processor=0, law="u(0,1)", order=1)
    g.add_node("b", processor=1, law="n(1/2,1/12)")
    g.add_node("c", processor=0, law="exp(0.5)", order=2)
    g.add_node("d", processor=1, law="gamma(2,0.25)")
    g.add_edge("a", "b", comm=0.125)
    g.add_edge("a", "c")
    g.add_edge("b", "d", comm="u(0,0.2)")
    g.add_edge("c", "d")
    return g


@pytest.mark.parametrize("threads", THREADS)
def test_networkx_graph_is_its_dot_file(threads, tmp_path):
    g = pipeline_graph()
    assert hetstruct.to_dot(g) == NETWORKX_DOT
    path = tmp_path / "pipeline.dot"
    path.write_text(HAND_DOT)
    options = dict(reps=500, seed=21, threads=threads, comm=0.3, quantiles=[0.5, 0.95])
    from_graph = hetstruct.simulate(graph=g, **options)
    from_file = hetstruct.simulate(graph=str(path), **options)
    header, rows = cli_rows("simulate", "--graph", path, "--reps", 500, "--seed", 21, "--threads", threads, "--comm",
                            0.3, "--quantiles", "0.5,0.95", "--format", "csv")
    assert_same(from_file, header, rows)
    # The structure column names the source (the graph's name, the file's path); every other field is the same.
    assert from_graph[0]["structure"] == "pipeline"
    assert_same(from_graph, header, rows, skip=("structure",))
    est_graph = hetstruct.bounds(graph=g)
    est_file = hetstruct.bounds(graph=str(path))
    assert [dict(r, structure=None) for r in est_graph] == [dict(r, structure=None) for r in est_file]
    swept = hetstruct.sweep(graph=[g], comm=[0, 0.5], reps=100, seed=2, threads=threads)
    assert {r["structure"] for r in swept} == {"pipeline"}


def test_frame():
    pandas = pytest.importorskip("pandas")
    records = hetstruct.sweep(structure="sync", n=3, m=[0, 1], levels=10, reps=64)
    df = hetstruct.frame(records)
    assert isinstance(df, pandas.DataFrame)
    assert list(df.columns) == list(records[0])
    assert len(df) == len(records)


@pytest.mark.parametrize("threads", THREADS)
@pytest.mark.parametrize("dispatch", [None, "ready", "ordered"])
def test_simulate_trace_dispatch(threads, dispatch):
    # A trace's machine without recorded starts: ready by default, ordered on request (issue 38).
    path = str(DATA / "wfinstances" / "pegasus_srasearch_srasearch-chameleon-10a-002.json")
    extra = {} if dispatch is None else {"dispatch": dispatch}
    records = hetstruct.simulate(graph=path, reps=200, seed=5, threads=threads, task_cv=0.2, **extra)
    flags = [] if dispatch is None else ["--dispatch", dispatch]
    header, rows = cli_rows("simulate", "--graph", path, "--reps", 200, "--seed", 5, "--threads", threads,
                            "--task-cv", 0.2, *flags, "--format", "csv")
    assert_same(records, header, rows)
    expected = 15710.326 if dispatch == "ordered" else 3011.61
    assert abs(records[0]["mean"] / expected - 1) < 0.05


@pytest.mark.parametrize("threads", THREADS)
def test_simulate_criticality(threads):
    # simulate(criticality=True): one record per task, the CLI's --criticality CSV bit for bit.
    path = str(DATA / "fork_join.dot")
    records = hetstruct.simulate(graph=path, reps=500, seed=3, threads=threads, criticality=True)
    header, rows = cli_rows("simulate", "--graph", path, "--reps", 500, "--seed", 3, "--threads", threads,
                            "--criticality", "--format", "csv")
    assert_same(records, header, rows)
    assert [r["task"] for r in records] == ["fork", "w0", "w1", "join"]
    with pytest.raises(ValueError, match="^metrics: does not go with criticality"):
        hetstruct.simulate(graph=path, reps=10, criticality=True, metrics=True)


@pytest.mark.parametrize("threads", THREADS)
def test_simulate_estimates_and_histogram(threads, tmp_path):
    # simulate(estimates=True): the rows of --estimates; histogram=BINS: the --histogram-out CSV's
    # rows after the record (issue 38), and histogram_out=FILE the same bytes as the CLI's file.
    path = str(DATA / "fork_join.dot")
    records = hetstruct.simulate(graph=path, reps=400, seed=5, threads=threads, estimates=True)
    header, rows = cli_rows("simulate", "--graph", path, "--reps", 400, "--seed", 5, "--threads", threads,
                            "--estimates", "--format", "csv")
    assert_same(records, header, rows)
    assert "clark_canonical" in [r["method"] for r in records]
    ours, theirs = tmp_path / "ours.csv", tmp_path / "theirs.csv"
    result = hetstruct.simulate(graph=path, reps=400, seed=5, threads=threads, histogram=6, histogram_out=str(ours))
    header, rows = cli_rows("simulate", "--graph", path, "--reps", 400, "--seed", 5, "--threads", threads,
                            "--histogram", 6, "--histogram-out", theirs, "--format", "csv")
    assert len(result) == 2
    assert_same(result[0], header, rows)
    assert ours.read_bytes() == theirs.read_bytes()
    with open(theirs, newline="") as f:
        lines = list(csv.reader(f))
    assert_same(result[1], lines[0], lines[1:])
    assert sum(r["count"] for r in result[1]) == 400
    kept = hetstruct.simulate(graph=path, reps=400, seed=5, threads=threads, histogram=6, keep=True)
    assert len(kept) == 3 and len(kept[1]) == 400 and kept[2] == result[1]
    with pytest.raises(ValueError, match="^histogram_out: needs histogram=BINS"):
        hetstruct.simulate(graph=path, reps=10, histogram_out=str(ours))
    with pytest.raises(ValueError, match="^estimates: does not go with criticality"):
        hetstruct.simulate(graph=path, reps=10, estimates=True, criticality=True)


@pytest.mark.parametrize("threads", THREADS)
def test_simulate_compare_to(threads):
    # simulate(compare_to=...): the paired rows of simulate --compare-to, bit for bit (issue 38).
    records = hetstruct.simulate(structure="nn", n=6, m=2, levels=50, comm=0.05, reps=2000, seed=7, threads=threads,
                                 compare_to=["m=0", "n=n-m,m=0"])
    header, rows = cli_rows("simulate", "-s", "nn", "--n", 6, "--m", 2, "--levels", 50, "--comm", 0.05, "--reps", 2000,
                            "--seed", 7, "--threads", threads, "--compare-to", "m=0", "--compare-to", "n=n-m,m=0",
                            "--format", "csv")
    assert_same(records, header, rows)
    path = str(DATA / "wfinstances" / "pegasus_srasearch_srasearch-chameleon-10a-002.json")
    # A trace under ready dispatch against its machine at m = 0, paired.
    records = hetstruct.simulate(graph=path, task_cv=0.2, reps=500, seed=7, threads=threads, compare_to=["m=0"])
    header, rows = cli_rows("simulate", "--graph", path, "--task-cv", 0.2, "--reps", 500, "--seed", 7, "--threads",
                            threads, "--compare-to", "m=0", "--format", "csv")
    assert_same(records, header, rows)


@pytest.mark.parametrize("threads", THREADS)
def test_simulate_compare_to_quantiles(threads):
    # compare_to with quantiles and a deadline: the paired quantile and deadline differences,
    # their bootstrap and Newcombe intervals, bit for bit (issue 38).
    records = hetstruct.simulate(structure="sync", n=5, m=2, levels=20, reps=600, seed=4, threads=threads,
                                 compare_to=["m=0"], quantiles=[0.5, 0.95], deadline=12)
    header, rows = cli_rows("simulate", "-s", "sync", "--n", 5, "--m", 2, "--levels", 20, "--reps", 600, "--seed", 4,
                            "--threads", threads, "--compare-to", "m=0", "--quantiles", "0.5,0.95", "--deadline", 12,
                            "--format", "csv")
    assert_same(records, header, rows)
    assert [r["estimator"] for r in records].count("quantile_difference") == 2


@pytest.mark.parametrize("threads", THREADS)
def test_simulate_compare_to_schedules(threads):
    # compare_to=['schedule=B']: simulate --compare-to schedule=B's rows, with the distribution's
    # and the paired ones (issue 38).
    path = str(DATA / "topcuoglu2002_cv30.dot")
    for extra, args in [({}, []), (dict(quantiles=[0.5, 0.95], deadline=90), ["--quantiles", "0.5,0.95", "--deadline", 90])]:
        records = hetstruct.simulate(graph=path, schedule="heft", reps=400, seed=3, threads=threads,
                                     compare_to=["schedule=cpop", "schedule=heft-sd"], **extra)
        header, rows = cli_rows("simulate", "--graph", path, "--schedule", "heft", "--reps", 400, "--seed", 3,
                                "--threads", threads, "--compare-to", "schedule=cpop", "--compare-to", "schedule=heft-sd",
                                *args, "--format", "csv")
        assert_same(records, header, rows)
    assert [r["quantity"] for r in records].count("quantile_difference") == 4


@pytest.mark.parametrize("threads", THREADS)
def test_sweep_compare_to_schedule(threads):
    path = str(DATA / "topcuoglu2002_cv30.dot")
    records = hetstruct.sweep(graph=path, schedule="heft", reps=300, seed=2, threads=threads,
                              compare_to=["schedule=cpop"], quantiles=[0.9], deadline=90)
    header, rows = cli_rows("sweep", "--graph", path, "--schedule", "heft", "--reps", 300, "--seed", 2, "--threads",
                            threads, "--compare-to", "schedule=cpop", "--quantiles", 0.9, "--deadline", 90, "--quiet")
    assert_same(records, header, rows)
