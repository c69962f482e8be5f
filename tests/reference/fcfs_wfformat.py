#!/usr/bin/python3
"""Independent reference simulation of hetstruct's work-conserving ("ready") dispatch on a
WfFormat trace, every task at its recorded runtime (constant), communication 0.

Written from docs/graphs.md ("Dispatch: stated order or work-conserving" and "WfFormat"), not
from the C++ code, and shaped differently from it on purpose: a discrete-event loop over a heap
of (time, seq) batches, one FIFO queue per processor.

    fcfs_wfformat.py TRACE.json            prints the makespan, repr() (17 significant digits)
    fcfs_wfformat.py -v TRACE.json         also each task's processor, start and finish
    fcfs_wfformat.py --info TRACE.json     one JSON line: makespan, recorded makespan, sizes

Exit status: 0 done, 2 the trace is refused (one line on stderr says why), 1 usage.

The machine (docs/graphs.md, "WfFormat"):
- processors: each machine a task ran on (the first of its `machines`, or its `machine`); the
  listed machines that ran tasks, in the machines list's order, then machines the list lacks in
  the order tasks first name them, then one processor for each task naming no machine;
- cores: the machine's cpu.coreCount (cpu.count before 1.5), else as many as its largest task
  takes; a task takes its coreCount (cores), default 1, a whole number; more than its machine has
  is refused;
- task time: runtimeInSeconds (or runtime); precedences: the union of parents and children;
- layouts: 1.5's workflow.specification.tasks + workflow.execution.tasks (joined by id), the
  older workflow.tasks or workflow.jobs.

The rule (ready dispatch):
- a task joins its processor's queue when its last parent finishes (communication 0), queues
  ordered by that time, ties within one batch of events in the listing order (the order of the
  specification's / the tasks list);
- after a batch is taken in, each queue's head starts while it fits in its processor's free
  cores (first come, first served: nothing overtakes the head), holding its cores until it ends;
- every finish at one instant is one batch, taken in before anything starts at that instant; a
  task ending at the instant it started (time 0) ends in a later batch of that instant (seq + 1);
- the makespan is the latest finish.
"""

import collections
import heapq
import json
import math
import sys


class Refused(Exception):
    """The trace is not one hetstruct reads (exit status 2)."""


def _number(value, what):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Refused(f"{what}: not a number ({json.dumps(value)})")
    value = float(value)
    if not math.isfinite(value):
        raise Refused(f"{what}: not finite")
    return value


def _whole(value, what):
    x = _number(value, what)
    if x != math.floor(x):
        raise Refused(f"{what}: {json.dumps(value)} is not a whole number")
    if x < 1:
        raise Refused(f"{what}: {json.dumps(value)} is below 1")
    return int(x)


def _first(d, *keys):
    """The first of keys that d holds (not None), or None."""
    for k in keys:
        if isinstance(d, dict) and d.get(k) is not None:
            return d[k]
    return None


def _machine_name(entry, what):
    if isinstance(entry, dict):
        entry = entry.get("nodeName")
    if not isinstance(entry, str):
        raise Refused(f"{what}: a machine that is not a name ({json.dumps(entry)})")
    return entry


class Trace:
    """names[i], runtime[i], cores[i], proc[i], parents[i] (sets of indices), children[i];
    proc_cores[p], proc_name[p]; recorded (or None); i is the listing order."""


def load(path):
    try:
        with open(path, "rb") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        raise Refused(f"cannot read JSON: {e}")
    if not isinstance(doc, dict) or not isinstance(doc.get("workflow"), dict):
        raise Refused("no 'workflow' object")
    wf = doc["workflow"]

    spec = wf.get("specification")
    execution = wf.get("execution")
    if isinstance(spec, dict):                          # schema 1.5
        listing = spec.get("tasks")
        if not isinstance(listing, list):
            raise Refused("workflow.specification.tasks is not a list")
        if not isinstance(execution, dict):
            raise Refused("a specification without execution (no runtimes)")
        runs = execution.get("tasks")
        if not isinstance(runs, list):
            raise Refused("workflow.execution.tasks is not a list")
        by_id = {}
        for r in runs:
            if isinstance(r, dict) and isinstance(r.get("id"), str):
                by_id.setdefault(r["id"], r)
        machines_list = execution.get("machines")
        recorded = _first(execution, "makespanInSeconds", "makespan")
        records = []
        for k, t in enumerate(listing):
            if not isinstance(t, dict):
                raise Refused(f"task #{k}: not an object")
            key = t.get("id", t.get("name"))
            if not isinstance(key, str):
                raise Refused(f"task #{k}: no id")
            records.append((key, t, by_id.get(key, {})))
    else:                                               # schema 1.0 to 1.4
        listing = wf.get("tasks", wf.get("jobs"))
        if not isinstance(listing, list):
            raise Refused("no workflow.tasks, workflow.jobs or workflow.specification")
        machines_list = wf.get("machines")
        recorded = _first(wf, "makespanInSeconds", "makespan")
        if recorded is None and isinstance(execution, dict):
            recorded = _first(execution, "makespanInSeconds", "makespan")
        records = []
        for k, t in enumerate(listing):
            if not isinstance(t, dict):
                raise Refused(f"task #{k}: not an object")
            key = t.get("id", t.get("name"))
            if not isinstance(key, str):
                raise Refused(f"task #{k}: no id or name")
            records.append((key, t, t))

    n = len(records)
    if n == 0:
        raise Refused("no tasks")
    index = {}
    for i, (key, _, _) in enumerate(records):
        if key in index:
            raise Refused(f"task '{key}' listed twice")
        index[key] = i
    # older traces may name parents by name when tasks carry both an id and a name
    by_name = {}
    for i, (_, t, _) in enumerate(records):
        nm = t.get("name")
        if isinstance(nm, str):
            by_name.setdefault(nm, []).append(i)

    def resolve(ref, who):
        if isinstance(ref, str):
            if ref in index:
                return index[ref]
            hits = by_name.get(ref, [])
            if len(hits) == 1:
                return hits[0]
        raise Refused(f"task '{who}' names a missing task {json.dumps(ref)}")

    tr = Trace()
    tr.names = [key for key, _, _ in records]
    tr.runtime = []
    tr.cores = []
    tr.parents = [set() for _ in range(n)]
    tr.children = [set() for _ in range(n)]
    machine_of = []
    for i, (key, t, run) in enumerate(records):
        rt = _first(run, "runtimeInSeconds", "runtime")
        if rt is None:
            rt = _first(t, "runtimeInSeconds", "runtime")
        if rt is None:
            raise Refused(f"task '{key}': no runtime")
        rt = _number(rt, f"task '{key}' runtime")
        if rt < 0:                  # hetstruct refuses it too (docs say nothing of a trace's)
            raise Refused(f"task '{key}': a negative runtime ({rt!r})")
        tr.runtime.append(rt)
        c = _first(run, "coreCount", "cores")
        if c is None:
            c = _first(t, "coreCount", "cores")
        tr.cores.append(1 if c is None else _whole(c, f"task '{key}' cores"))
        m = None
        ms = _first(run, "machines")
        if ms is None and run is not t:
            ms = _first(t, "machines")
        if isinstance(ms, list) and ms:
            m = _machine_name(ms[0], f"task '{key}'")
        elif ms is not None and not isinstance(ms, list):
            raise Refused(f"task '{key}': machines is not a list")
        if m is None:
            one = _first(run, "machine")
            if one is None and run is not t:
                one = _first(t, "machine")
            if one is not None:
                m = _machine_name(one, f"task '{key}'")
        machine_of.append(m)
        for field, mine in (("parents", True), ("children", False)):
            refs = t.get(field, [])
            if refs is None:
                refs = []
            if not isinstance(refs, list):
                raise Refused(f"task '{key}': {field} is not a list")
            for ref in refs:
                j = resolve(ref, key)
                if j == i:
                    raise Refused(f"task '{key}' is its own {field[:-1] if mine else 'child'}")
                p, ch = (j, i) if mine else (i, j)
                tr.parents[ch].add(p)
                tr.children[p].add(ch)

    # machines: the list's (in its order, those that ran tasks), then unlisted ones by first
    # naming, then one processor per task naming none
    listed = []
    listed_cores = {}
    if isinstance(machines_list, list):
        for e in machines_list:
            if isinstance(e, dict) and isinstance(e.get("nodeName"), str):
                nm = e["nodeName"]
                if nm in listed_cores:
                    continue
                listed.append(nm)
                cpu = e.get("cpu")
                cc = _first(cpu, "coreCount", "count") if isinstance(cpu, dict) else None
                listed_cores[nm] = None if cc is None else _whole(cc, f"machine '{nm}' cores")
    used = set(m for m in machine_of if m is not None)
    proc_names = [nm for nm in listed if nm in used]
    seen = set(proc_names)
    for m in machine_of:
        if m is not None and m not in seen:
            seen.add(m)
            proc_names.append(m)
    pnum = {nm: p for p, nm in enumerate(proc_names)}
    tr.proc = []
    tr.proc_name = list(proc_names)
    for i, m in enumerate(machine_of):
        if m is None:
            tr.proc.append(len(tr.proc_name))
            tr.proc_name.append(None)                   # a processor of its own
        else:
            tr.proc.append(pnum[m])
    largest = [0] * len(tr.proc_name)
    for i in range(n):
        largest[tr.proc[i]] = max(largest[tr.proc[i]], tr.cores[i])
    tr.proc_cores = []
    for p, nm in enumerate(tr.proc_name):
        cc = listed_cores.get(nm) if nm is not None else None
        tr.proc_cores.append(largest[p] if cc is None else cc)
    for i in range(n):
        if tr.cores[i] > tr.proc_cores[tr.proc[i]]:
            raise Refused(f"task '{tr.names[i]}' takes {tr.cores[i]} cores, its machine "
                          f"'{tr.proc_name[tr.proc[i]]}' has {tr.proc_cores[tr.proc[i]]}")

    if recorded is not None:
        recorded = _number(recorded, "recorded makespan")
        if recorded == 0:
            recorded = None                             # generated instances write 0
    tr.recorded = recorded
    return tr


def simulate(tr):
    """Returns (makespan, start, finish). Refused if the precedences close a cycle."""
    n = len(tr.names)
    missing = [len(tr.parents[i]) for i in range(n)]
    free = list(tr.proc_cores)
    queue = [collections.deque() for _ in tr.proc_cores]
    start = [None] * n
    finish = [None] * n

    batches = {}                  # (time, seq) -> tasks ending then, in the order they started
    heap = []

    def end_at(key, i):
        if key not in batches:
            batches[key] = []
            heapq.heappush(heap, key)
        batches[key].append(i)

    def dispatch(now, seq, procs):
        for p in sorted(procs):
            q = queue[p]
            while q and tr.cores[q[0]] <= free[p]:
                i = q.popleft()
                free[p] -= tr.cores[i]
                start[i] = now
                f = now + tr.runtime[i]
                finish[i] = f
                # a later instant: its first batch; this instant (or before: a negative
                # time), the batch after the current one
                end_at((f, 0) if f > now else (f, seq + 1), i)

    # time 0: the tasks without parents, in the listing order, before anything starts
    touched = set()
    for i in range(n):
        if missing[i] == 0:
            queue[tr.proc[i]].append(i)
            touched.add(tr.proc[i])
    dispatch(0.0, 0, touched)

    done = 0
    while heap:
        now, seq = heapq.heappop(heap)
        ending = batches.pop((now, seq))
        touched = set()
        ready = []
        for i in ending:                                # take in the whole batch first
            done += 1
            free[tr.proc[i]] += tr.cores[i]
            touched.add(tr.proc[i])
            for c in tr.children[i]:
                missing[c] -= 1
                if missing[c] == 0:
                    ready.append(c)
        for c in sorted(ready):                         # ties: the listing order
            queue[tr.proc[c]].append(c)
            touched.add(tr.proc[c])
        dispatch(now, seq, touched)

    if done != n:
        stuck = [tr.names[i] for i in range(n) if finish[i] is None]
        raise Refused(f"the precedences close a cycle ({len(stuck)} tasks never ready, "
                      f"'{stuck[0]}' first)")
    return max(finish), start, finish


def main(argv):
    verbose = info = False
    args = []
    for a in argv[1:]:
        if a in ("-v", "--verbose"):
            verbose = True
        elif a == "--info":
            info = True
        elif a.startswith("-"):
            print(__doc__, file=sys.stderr)
            return 1
        else:
            args.append(a)
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 1
    path = args[0]
    try:
        tr = load(path)
        makespan, start, finish = simulate(tr)
    except Refused as e:
        print(f"fcfs_wfformat.py: {path}: {e}", file=sys.stderr)
        return 2
    if info:
        print(json.dumps({"file": path, "makespan": makespan, "recorded": tr.recorded,
                          "tasks": len(tr.names), "processors": len(tr.proc_cores),
                          "cores": sum(tr.proc_cores)}))
        return 0
    if verbose:
        for p, nm in enumerate(tr.proc_name):
            print(f"# processor {p} {nm if nm is not None else '(own)'} cores {tr.proc_cores[p]}")
        order = sorted(range(len(tr.names)), key=lambda i: (start[i], finish[i], i))
        for i in order:
            print(f"# {tr.names[i]} p{tr.proc[i]} cores {tr.cores[i]} "
                  f"start {start[i]!r} finish {finish[i]!r}")
    print(repr(makespan))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
