"""hetstruct in Python: the library's simulate, bounds, schedule, sweep, table, figure, policies
and HBSP replay, with keyword arguments named as the command line's options (structure=, n=, m=, a=,
law=, comm=, graph=, reps=, seed=, estimator=, quantiles=, deadline=, ...).

Every function returns its records: a list of dicts with the CSV's field names (an empty CSV
field is None), the same numbers bit for bit as `hetstruct ... --format csv` for the same model and
seed. simulate(..., keep=True) returns (records, makespans), the makespans a numpy array.
graph= takes a file (.dot, .gv, .stg, .json) or a networkx DiGraph whose node and edge attributes
are the DOT reader's (law, processor, order, cores, costs; comm on edges; processor_scale on the
graph; a list or tuple value, such as costs=[14, 16, 9], is written comma-separated):
it is written as DOT text and read by the library's DOT reader, so both give the same bits.
Bad input raises ValueError naming the keyword; Ctrl-C stops a run within a replication
(KeyboardInterrupt). See docs/python.md.
"""

import math
import os
import tempfile

from . import _hetstruct

__all__ = ["simulate", "bounds", "schedule", "compare", "fit", "sweep", "table", "figure", "policies", "hbsp_replay", "to_dot", "frame"]


def _dot_id(value):
    """A DOT identifier or value: always quoted, so that any name or law text reads back as itself."""
    if isinstance(value, bool):
        raise ValueError("graph: an attribute of True or False has no meaning for hetstruct")
    if isinstance(value, (list, tuple)):  # costs=[14, 16, 9]: the DOT reader's comma-separated list
        return '"' + ",".join(_dot_id(item)[1:-1] for item in value) + '"'

    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError("graph: attribute value %r is not finite" % value)
        value = repr(value)  # the shortest text that reads back to the same double
    text = str(value)
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _attributes(attrs):
    return ", ".join("%s=%s" % (_dot_id(k), _dot_id(v)) for k, v in attrs.items())


def to_dot(graph):
    """The DOT text of a networkx DiGraph: its graph attributes (but name), then its nodes and its
    edges in networkx's order (a processor runs its tasks in the order the file first names them,
    unless they have an order attribute)."""
    if not (hasattr(graph, "is_directed") and hasattr(graph, "nodes") and hasattr(graph, "edges")):
        raise ValueError("graph: give a file path or a networkx DiGraph")
    if not graph.is_directed() or graph.is_multigraph():
        raise ValueError("graph: a networkx DiGraph is needed (directed, one edge per pair)")
    lines = ["digraph %s {" % _dot_id(graph.graph.get("name") or "networkx")]
    extra = {k: v for k, v in graph.graph.items() if k != "name"}
    if extra:
        lines.append("  graph [%s];" % _attributes(extra))
    # A task is named by its node's text: two nodes of one text (1 and "1", (0, 1) and "0,1") would
    # be one task of the DOT file, their edges and attributes merged. They are refused.
    ids, owner = {}, {}
    for node in graph.nodes:
        text = _dot_id(node)
        if text in owner:
            raise ValueError("graph: nodes %r and %r are both the task %s: give them names that differ as text"
                             % (owner[text], node, text))
        owner[text] = node
        ids[node] = text
    for node, attrs in graph.nodes(data=True):
        lines.append("  %s%s;" % (ids[node], " [%s]" % _attributes(attrs) if attrs else ""))
    for u, v, attrs in graph.edges(data=True):
        lines.append("  %s -> %s%s;" % (ids[u], ids[v], " [%s]" % _attributes(attrs) if attrs else ""))
    lines.append("}")
    return "\n".join(lines) + "\n"


def _is_graph_object(value):
    return hasattr(value, "is_directed") and hasattr(value, "nodes")


class _Graphs:
    """Writes the networkx graphs among `graph=` to DOT files in a temporary folder for the call;
    the records' structure column then names the graph (its name, else 'networkx'), not the file."""

    def __init__(self, kwargs):
        self.kwargs = dict(kwargs)
        self.folder = None
        self.names = {}

    def __enter__(self):
        value = self.kwargs.get("graph")
        if value is None:
            return self.kwargs
        items = value if isinstance(value, (list, tuple)) else [value]
        if not any(_is_graph_object(g) for g in items):
            return self.kwargs
        self.folder = tempfile.TemporaryDirectory(prefix="hetstruct-")
        paths = []
        for i, g in enumerate(items):
            if not _is_graph_object(g):
                paths.append(g)
                continue
            name = str(g.graph.get("name") or "networkx")
            path = os.path.join(self.folder.name, "%d.dot" % i)
            with open(path, "w", encoding="utf-8") as out:
                out.write(to_dot(g))
            self.names[path] = name
            paths.append(path)
        self.kwargs["graph"] = paths if isinstance(value, (list, tuple)) else paths[0]
        return self.kwargs

    def relabel(self, records):
        for r in records:
            for field in ("structure", "graph"):
                if r.get(field) in self.names:
                    r[field] = self.names[r[field]]
        return records

    def __exit__(self, *exc):
        if self.folder is not None:
            self.folder.cleanup()
        return False


def _records(function, *args, **options):
    g = _Graphs(options)
    with g as kwargs:
        try:
            result = function(*args, **kwargs)
        except ValueError as e:
            message = str(e)
            if not any(path in message for path in g.names):
                raise
            for path, name in g.names.items():  # the graph's name, not its temporary file
                message = message.replace(path, "networkx graph '%s' (as DOT, hetstruct.to_dot)" % name)
            raise ValueError(message) from None
        if isinstance(result, tuple):
            g.relabel(result[0])
        else:
            g.relabel(result)
    return result


def simulate(**options):
    """One model's Monte Carlo estimate: [record] with the fields of `hetstruct simulate --format
    csv`; with keep=True, ([record], makespans as a numpy array, in replication order); with
    histogram=BINS, the histogram's records after them ([record], histogram) or ([record],
    makespans, histogram), the rows of --histogram-out (histogram_out=FILE writes them there too);
    with estimates=True, the rows of --estimates (the analytic DAG estimates beside the mean)."""
    return _records(_hetstruct.simulate, **options)


def bounds(**options):
    """Closed forms and Wilson's bounds per structure, or DAG estimates (graph= or estimates=True):
    the records of `hetstruct bounds`."""
    return _records(_hetstruct.bounds, **options)


def fit(**options):
    """Task-time laws fitted by maximum likelihood to measured runs: samples=FILE, graph=FILE or a
    list of WfFormat traces (by='category' or 'name'), or sacct=FILE; laws= (a comma-separated text
    or a list), seed=, out_graph=FILE (with graph=). The records of `hetstruct fit`, one per law and
    group (docs/fit.md)."""
    return _records(_hetstruct.fit, **options)


def schedule(**options):
    """A static schedule of graph= (a file or a networkx DiGraph; a vertex's costs= give its time on
    each processor) computed from the mean times: algorithm='heft' (default), 'cpop' or 'heft-sd'
    (with sd_weight=k), comm=, scales=; output_mapping=FILE also writes it as a mapping file for
    simulate(mapping=FILE); gantt=BASE draws its Gantt chart with matplotlib to BASE.svg and
    BASE.png (the command line's --gantt draws it with gnuplot). The records of `hetstruct
    schedule`, one per task."""
    gantt = options.pop("gantt", None)
    if gantt is not None:
        gantt = os.fspath(gantt)
        if not isinstance(gantt, str) or not gantt:
            raise ValueError("gantt: give the base name of the chart's files (BASE.svg, BASE.png)")
        folder = os.path.dirname(gantt) or "."
        if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
            raise ValueError("gantt: the folder '%s' is missing or not writable" % folder)
    records = _records(_hetstruct.schedule, **options)
    if gantt is not None:
        _draw_gantt(records, gantt)
    return records


def compare(**options):
    """Several schedules of graph= (a file or a networkx DiGraph) on the same draws:
    schedules=['heft', 'peft', 'min-min', ...] (or one text 'heft,peft'), each against
    baseline= (default the first), with simulate()'s model, sampling (reps=, seed=, threads=) and
    distribution (quantiles=, deadline=, distribution=True) keywords. The records of `hetstruct
    compare`: each schedule's rows, then per other schedule the paired difference (baseline minus
    it), ratio, quantile and deadline differences with their 95% intervals, and excludes_0 on each
    difference (docs/schedule.md)."""
    return _records(_hetstruct.compare, **options)


def _draw_gantt(records, base):
    """The schedule's tasks as bars on their processors, as `hetstruct schedule --gantt` draws them;
    each image written whole (a temporary beside it, renamed)."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(9, 4.2))
    axes = figure.add_subplot()
    processors = 1 + max(int(r["processor"]) for r in records)
    for r in records:
        start, finish, p = float(r["start"]), float(r["finish"]), int(r["processor"])
        axes.barh(p, finish - start, left=start, height=0.7, color="#1f4e79", alpha=0.3, edgecolor="#1f4e79")
        axes.text((start + finish) / 2, p, str(r["task"]), ha="center", va="center", fontsize=9)
    makespan = float(records[0]["makespan"])
    axes.set_xlim(0, makespan if makespan > 0 else 1)
    axes.set_ylim(-0.6, processors - 0.4)
    axes.set_yticks(range(processors))
    axes.set_xlabel("time")
    axes.set_ylabel("processor")
    axes.grid(axis="x")
    axes.set_title("%s schedule of %s: makespan %r at the mean times" % (records[0]["algorithm"], records[0]["graph"],
                                                                         makespan))
    for ext in ("svg", "png"):
        path = "%s.%s" % (base, ext)
        temporary = "%s.tmp.%d.%s" % (base, os.getpid(), ext)
        try:
            figure.savefig(temporary, format=ext)
            os.replace(temporary, path)
        finally:
            if os.path.exists(temporary):
                os.remove(temporary)


def sweep(**options):
    """The product grid of the options, each a value, a list or the command line's text ('0:0.25:0.025'):
    the records of `hetstruct sweep` (graph= a list of files or DiGraphs)."""
    return _records(_hetstruct.sweep, **options)


def table(number, **options):
    """Wilson's Table `number` (1..8 or 'all') regenerated: the records of `hetstruct table`."""
    return _hetstruct.table(number, **options)


def figure(number, **options):
    """Wilson's Figure `number` (5..10): its points, the records of `hetstruct figure --format csv`
    (no file is written)."""
    return _hetstruct.figure(number, **options)


def policies(**options):
    """The master-slave dealing policies side by side: the records of `hetstruct policies`."""
    return _hetstruct.policies(**options)


def hbsp_replay(**options):
    """A superstep program (program=FILE or algorithm=NAME) replayed on machine=FILE: the records of
    `hetstruct hbsp replay`, one per superstep and the total."""
    return _hetstruct.hbsp_replay(**options)


def frame(records):
    """The records as a pandas DataFrame, columns in the records' order (needs pandas)."""
    try:
        import pandas
    except ImportError as e:
        raise ImportError("hetstruct.frame needs pandas (Debian: python3-pandas)") from e
    columns = []
    for r in records:
        for name in r:
            if name not in columns:
                columns.append(name)
    return pandas.DataFrame.from_records(records, columns=columns)
