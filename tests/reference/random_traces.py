#!/usr/bin/python3
"""Writes random WfFormat traces that stress the ready dispatch's corners, for check_fcfs.sh:

    random_traces.py OUTDIR [COUNT=200] [SEED=1]

Each trace: 1 to 40 tasks, a random DAG listed in a shuffled order (children often before their
parents), a few machines of 1 to 4 cores (some without cpu.coreCount, some tasks on a machine the
list lacks, some on none), tasks of 1 to 3 cores, small integer runtimes with many zeros (ties
and zero-time chains at one instant), no recorded starts. Schema 1.5, or 1.4 / 1.0 layouts for
a fifth of them each.
"""

import json
import os
import random
import sys


def trace(rng, k):
    n = rng.randint(1, 40)
    names = [f"t{i}" for i in range(n)]
    p_edge = rng.choice([0.05, 0.15, 0.3])
    parents = {i: [j for j in range(i) if rng.random() < p_edge] for i in range(n)}
    nmach = rng.randint(1, 4)
    machines = []
    for m in range(nmach):
        e = {"nodeName": f"m{m}"}
        if rng.random() < 0.8:
            e["cpu"] = {"coreCount": rng.randint(1, 4)}
        machines.append(e)
    if rng.random() < 0.3:
        machines.append({"nodeName": "idle", "cpu": {"coreCount": 2}})   # runs nothing
    rng.shuffle(machines)
    caps = {e["nodeName"]: e.get("cpu", {}).get("coreCount") for e in machines}
    task_machine, task_cores = [], []
    for i in range(n):
        r = rng.random()
        if r < 0.08:
            m = None
        elif r < 0.14:
            m = "unlisted"
        else:
            m = f"m{rng.randrange(nmach)}"
        cap = caps.get(m) or 3
        task_machine.append(m)
        task_cores.append(rng.randint(1, min(cap, 3)) if rng.random() < 0.4 else 1)
    runtime = [rng.choice([0, 0, 1, 1, 2, 3, 5, 0.5, 0.1, 0.2, 0.3])
               if rng.random() < 0.9 else round(rng.uniform(0, 10), 3) for _ in range(n)]
    order = list(range(n))
    rng.shuffle(order)
    children = {i: [c for c in range(n) if i in parents[c]] for i in range(n)}
    layout = rng.choices(["1.5", "1.4", "1.0"], [3, 1, 1])[0]
    if layout == "1.5":
        spec, runs = [], []
        for i in order:
            spec.append({"name": names[i], "id": names[i],
                         "parents": [names[j] for j in parents[i]],
                         "children": [names[c] for c in children[i]]})
            r = {"id": names[i], "runtimeInSeconds": runtime[i]}
            if task_machine[i] is not None:
                r["machines"] = [task_machine[i]]
            if task_cores[i] != 1 or rng.random() < 0.5:
                r["coreCount"] = task_cores[i]
            runs.append(r)
        rng.shuffle(runs)
        wf = {"specification": {"tasks": spec, "files": []},
              "execution": {"makespanInSeconds": 0, "tasks": runs, "machines": machines}}
    else:
        old = "jobs" if layout == "1.0" else "tasks"
        rt, cc = ("runtime", "cores") if layout == "1.0" else ("runtimeInSeconds", "cores")
        for e in machines:
            if "cpu" in e:
                e["cpu"] = {"count": e["cpu"]["coreCount"]}
        tasks = []
        for i in order:
            t = {"name": names[i], "type": "compute", rt: runtime[i],
                 "parents": [names[j] for j in parents[i]],
                 "children": [names[c] for c in children[i]], "files": []}
            if task_machine[i] is not None:
                t["machine"] = task_machine[i]
            if task_cores[i] != 1:
                t[cc] = task_cores[i]
            tasks.append(t)
        wf = {old: tasks, "machines": machines,
              ("makespan" if layout == "1.0" else "makespanInSeconds"): 1}
    return {"name": f"random-{k}", "schemaVersion": layout, "workflow": wf}


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 1
    out = argv[1]
    count = int(argv[2]) if len(argv) > 2 else 200
    rng = random.Random(int(argv[3]) if len(argv) > 3 else 1)
    os.makedirs(out, exist_ok=True)
    for k in range(count):
        with open(os.path.join(out, f"random_{k:04d}.json"), "w") as f:
            json.dump(trace(rng, k), f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
