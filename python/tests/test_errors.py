# Bad input from Python: ValueError naming the keyword (the command line's option without its
# dashes), never another exception, never a crash; Ctrl-C stops a long run cleanly.
import os
import re
import signal
import subprocess
import sys
import time

import numpy
import pytest

import hetstruct
from conftest import ROOT


@pytest.mark.parametrize("call, kwargs, keyword", [
    (hetstruct.simulate, dict(structure="sync", n=0), "n"),
    (hetstruct.simulate, dict(structure="sync", n=4, m=5), "m"),
    (hetstruct.simulate, dict(structure="sync", n=4, m=2, a=-1), "a"),
    (hetstruct.simulate, dict(structure="sync", n=4, a="1/0"), "a"),
    (hetstruct.simulate, dict(structure="sync", n=4, comm=-0.5), "comm"),
    (hetstruct.simulate, dict(structure="sync", n=4, law="u(1,0)"), "law"),
    (hetstruct.simulate, dict(structure="sync", n=4, law="nosuch(1)"), "law"),
    (hetstruct.simulate, dict(structure="sync", n=4, levels="many"), "levels"),
    (hetstruct.simulate, dict(structure="sync", n=4.5), "n"),
    (hetstruct.simulate, dict(structure="sync", n=True), "n"),
    (hetstruct.simulate, dict(structure="sync", n=numpy.array([1, 2])), "n"),
    (hetstruct.simulate, dict(structure="sync", n=4, a=numpy.array([0.5, 0.25])), "a"),
    (hetstruct.simulate, dict(structure="sync"), "n"),
    (hetstruct.simulate, dict(structure="tree", n=4), "structure"),
    (hetstruct.simulate, dict(structure="sync", n=4, reps=0), "reps"),
    (hetstruct.simulate, dict(structure="sync", n=4, seed=-1), "seed"),
    (hetstruct.simulate, dict(structure="sync", n=4, threads=1000), "threads"),
    (hetstruct.simulate, dict(structure="sync", n=4, estimator="best"), "estimator"),
    (hetstruct.simulate, dict(structure="sync", n=4, quantiles=[1.5]), "quantiles"),
    (hetstruct.simulate, dict(structure="sync", n=4, keep=1), "keep"),
    (hetstruct.simulate, dict(structure="sync", n=4, estimator="cv", keep=True), "estimator"),
    (hetstruct.simulate, dict(structure="sync", n=4, nosuch=1), "nosuch"),
    (hetstruct.simulate, dict(structure="sync", n=4, scales="1,1"), "scales"),
    (hetstruct.simulate, dict(structure="sync", n=4, exchange="plain"), "exchange"),
    (hetstruct.simulate, dict(graph="nowhere.dot"), "nowhere.dot"),
    (hetstruct.simulate, dict(graph=str(ROOT / "tests/data/diamond.dot"), n=3), "n"),
    (hetstruct.simulate, dict(graph=str(ROOT / "tests/data/diamond.dot"), structure="sync"), "graph"),
    (hetstruct.bounds, dict(n=4, comm=0.1, estimates=True), "comm"),
    (hetstruct.bounds, dict(n=4, protocol="x"), "protocol"),
    (hetstruct.policies, dict(n=4, structure="ms"), "structure"),
    (hetstruct.policies, dict(n=4, m=1, policy="equal"), "policy"),
    (hetstruct.sweep, dict(n=4), "structure"),
    (hetstruct.sweep, dict(structure="sync", n="4:2"), "n"),
    (hetstruct.sweep, dict(structure="sync", n=4, compare_to="m==0"), "compare_to"),
    (hetstruct.simulate, dict(graph=str(ROOT / "tests/data/topcuoglu2002.dot"), compare_to="schedule=cpop"), "compare_to"),
    (hetstruct.simulate, dict(graph=str(ROOT / "tests/data/topcuoglu2002.dot"), schedule="heft",
                              compare_to=["schedule=cpop", "m=0"]), "compare_to"),
    (hetstruct.simulate, dict(graph=str(ROOT / "tests/data/topcuoglu2002.dot"), schedule="heft",
                              compare_to="schedule=fast"), "compare_to"),
    (hetstruct.simulate, dict(graph=str(ROOT / "tests/data/topcuoglu2002.dot"), schedule="heft",
                              compare_to="schedule=cpop", estimator="cv"), "estimator"),
    (hetstruct.sweep, dict(graph=str(ROOT / "tests/data/topcuoglu2002.dot"), compare_to="schedule=cpop"), "compare_to"),
    (hetstruct.sweep, dict(structure="sync", n=4, max_configs=0), "max_configs"),
    (hetstruct.sweep, dict(structure="sync", n=4, estimators="mode"), "estimators"),
    (hetstruct.table, dict(), None),
    (hetstruct.hbsp_replay, dict(algorithm="scatter"), "machine"),
    (hetstruct.hbsp_replay, dict(machine=str(ROOT / "tests/cli/data/hbsp-cluster-2001.txt"), algorithm="scatter",
                                 size="-1"), "size"),
    (hetstruct.hbsp_replay, dict(machine=str(ROOT / "tests/cli/data/hbsp-cluster-2001.txt"), algorithm="scatter",
                                 item_size=0), "item_size"),
    (hetstruct.hbsp_replay, dict(machine=str(ROOT / "tests/cli/data/hbsp-cluster-2001.txt"), algorithm="scatter",
                                 reps=10), "reps"),
    (hetstruct.hbsp_replay, dict(machine=str(ROOT / "tests/cli/data/hbsp-cluster-2001.txt"), algorithm="scatter",
                                 seed=3), "seed"),
])
def test_value_error_names_the_keyword(call, kwargs, keyword):
    if call is hetstruct.table:
        with pytest.raises(ValueError, match=r"^table: '9' is not a table"):
            hetstruct.table(9)
        with pytest.raises(ValueError, match=r"^figure: "):
            hetstruct.figure(4)
        return
    with pytest.raises(ValueError) as e:
        call(**kwargs)
    assert str(e.value).startswith(keyword + ":") or str(e.value).startswith(keyword + " "), str(e.value)


def test_an_array_for_one_value_is_a_value_error():
    # numpy's arrays have __index__ and __float__ that refuse arrays of several numbers: the
    # keyword is refused by name, not a SystemError or a '<NULL>' text (issue 38).
    with pytest.raises(ValueError, match=r"^law: takes a number or a text, not ndarray"):
        hetstruct.figure(6, law=numpy.array([1, 2]))
    # numpy's scalars are numbers as any other.
    assert hetstruct.simulate(structure="sync", n=numpy.int64(3), a=numpy.float64(0.5), reps=10) == \
        hetstruct.simulate(structure="sync", n=3, a=0.5, reps=10)


def test_graph_hints_name_keywords():
    # The library names its parameters (fast_count, processor_scale, comm_cost); a Python caller
    # reads the keywords.
    dag = str(ROOT / "tests/data/diamond.dot")
    with pytest.raises(ValueError, match=r"^levels: has no effect on a graph \(a graph's width, laws and levels are "
                                         r"its file's; give m, a, scales, comm, port\)$"):
        hetstruct.simulate(graph=dag, levels=5)
    with pytest.raises(ValueError, match=r"^n: has no effect on a graph \(a graph's width, laws and levels are its "
                                         r"file's, and it communicates by its port model; vary m, a, comm or port\)$"):
        hetstruct.sweep(graph=dag, n=4, reps=10)


def test_a_graph_that_is_not_a_digraph():
    nx = pytest.importorskip("networkx")
    with pytest.raises(ValueError, match="^graph: a networkx DiGraph"):
        hetstruct.simulate(graph=nx.Graph([(1, 2)]))


@pytest.mark.parametrize("first, second, task", [(1, "1", '"1"'), ((0, 1), "0,1", '"0,1"'), (1.5, "1.5", '"1.5"')])
def test_nodes_of_one_name_are_refused(first, second, task):
    # Issue 38: nodes 1 and "1" became one task of the DOT text (their edges merged), silently.
    g = pytest.importorskip("networkx").DiGraph()
    g.add_node(first, processor=0, law="u(0,1)")
    g.add_node(second, processor=1, law="u(0,1)")
    message = "^graph: nodes %s and %s are both the task %s: give them names that differ as text$" % (
        re.escape(repr(first)), re.escape(repr(second)), re.escape(task))
    with pytest.raises(ValueError, match=message):
        hetstruct.to_dot(g)
    with pytest.raises(ValueError, match=message):
        hetstruct.simulate(graph=g, reps=10)
    # Nodes of distinct texts stay distinct tasks: 1 and "01", as two tasks side by side.
    g = pytest.importorskip("networkx").DiGraph()
    g.add_node(1, processor=0, law="c(1)")
    g.add_node("01", processor=1, law="c(2)")
    assert hetstruct.simulate(graph=g, reps=10)[0]["mean"] == 2


def test_dot_errors_name_the_line():
    g = pytest.importorskip("networkx").DiGraph()
    g.add_node("a", processor=0, law="u(0,1)")
    g.add_node("b", processor=0)  # no law
    # The error names the graph and the line of its DOT text (hetstruct.to_dot), not a temporary file.
    with pytest.raises(ValueError, match=r"^networkx graph 'networkx' \(as DOT, hetstruct.to_dot\):3: vertex 'b'"):
        hetstruct.simulate(graph=g)


def test_warnings_in_keywords():
    # The library's warnings are RuntimeWarnings, in the keywords' words (cores=, not processor_cores).
    path = ROOT / "tests" / "fuzz" / "corpus" / "wfformat" / "sample_wf_old.json"
    with pytest.warns(RuntimeWarning, match=r"the processors' cores \(cores=\) set them"):
        hetstruct.simulate(graph=str(path), reps=2)
    with pytest.warns(RuntimeWarning, match=r"draws a negative task time"):
        hetstruct.simulate(structure="sync", n=2, law="n(0.5,1/4)", levels=5, reps=64)


def test_ctrl_c_stops_a_long_run():
    # A run of minutes, interrupted after a second: KeyboardInterrupt within a replication, the
    # interpreter alive to print it and exit by it.
    script = ("import hetstruct, sys\n"
              "print('start', flush=True)\n"
              "try:\n"
              "    hetstruct.simulate(structure='ms', n=64, m=32, levels=5000, reps=1000000000, threads=1)\n"
              "except KeyboardInterrupt as e:\n"
              "    print('interrupted', e, flush=True)\n"
              "    r = hetstruct.simulate(structure='sync', n=3, levels=10, reps=64, estimator='mc')\n"
              "    print('after', r[0]['reps'], flush=True)\n")
    env = dict(os.environ)
    p = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=env)
    assert p.stdout.readline().strip() == "start"
    time.sleep(1.0)
    t0 = time.monotonic()
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 0, err
    assert "interrupted" in out and "after 64" in out, (out, err)
    assert time.monotonic() - t0 < 30
