#!/usr/bin/env python3
"""How communication cost slows a stencil: a 4 x 4 five-point stencil over 10 iterations, built
in networkx, its grid cut into 2 x 2 quadrants on 4 processors; the communication cost C of every
message between processors swept from 0 to 2; the mean makespan and its 95th percentile (with
their 95% confidence intervals) plotted against C beside the analytic DAG estimates (Clark's
canonical approximation, the critical path of the means, Kamburowski's bounds).

    PYTHONPATH=build/python /usr/bin/python3 examples/stencil_comm.py --out stencil_comm.png
"""
import argparse

import matplotlib

matplotlib.use("Agg")  # headless: the figure goes to a file
import matplotlib.pyplot as plt  # noqa: E402
import networkx as nx  # noqa: E402

import hetstruct  # noqa: E402


def stencil(size=4, iterations=10, law="u(1/2,3/2)"):
    """Cell (x, y) of iteration k waits for itself and its four neighbours at k - 1; processor
    2 floor(2x/size) + floor(2y/size) owns the quadrant of (x, y)."""
    g = nx.DiGraph(name="stencil%dx%d" % (size, size))
    half = size // 2
    for k in range(iterations):
        for x in range(size):
            for y in range(size):
                g.add_node("c%d%d_%d" % (x, y, k), processor=2 * (x // half) + (y // half), law=law)
    for k in range(1, iterations):
        for x in range(size):
            for y in range(size):
                for dx, dy in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
                    u, v = x + dx, y + dy
                    if 0 <= u < size and 0 <= v < size:
                        g.add_edge("c%d%d_%d" % (u, v, k - 1), "c%d%d_%d" % (x, y, k))
    return g


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="stencil_comm.png")
    args = parser.parse_args()

    g = stencil()
    comms = [round(0.2 * i, 1) for i in range(11)]
    rows = hetstruct.sweep(graph=[g], comm=comms, quantiles=[0.95], reps=args.reps, seed=args.seed)
    mean = {r["comm"]: r for r in rows if r["estimator"] == "mc"}
    q95 = {r["comm"]: r for r in rows if r["estimator"] == "quantile"}
    estimates = {c: {e["method"] + ("_" + e["bound"] if e.get("bound") else ""): e["mean"]
                     for e in hetstruct.bounds(graph=g, comm=c)} for c in comms}

    print("C      mean      stderr   q95       clark     cpm       (analytic: clark_canonical, cpm_lower)")
    for c in comms:
        print("%-6g %-9.4f %-8.4f %-9.4f %-9.4f %-9.4f" % (c, mean[c]["value"], mean[c]["stderr"], q95[c]["value"],
                                                           estimates[c]["clark_canonical"],
                                                           estimates[c]["cpm_lower"]))

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for label, series, style in (("mean makespan (Monte Carlo)", mean, "o-"), ("95th percentile", q95, "s-")):
        xs = comms
        ax.plot(xs, [series[c]["value"] for c in xs], style, label=label)
        ax.fill_between(xs, [series[c]["ci_low"] for c in xs], [series[c]["ci_high"] for c in xs], alpha=0.25)
    names = sorted({name for c in comms for name in estimates[c]})
    for name in names:
        ax.plot(comms, [estimates[c].get(name, float("nan")) for c in comms], "--", lw=1, label=name.replace("_", " "))
    ax.set_xlabel("communication cost C (time of one message between processors)")
    ax.set_ylabel("makespan")
    ax.set_title("%s on 4 processors, %d replications per C (seed %d)" % (g.graph["name"], args.reps, args.seed))
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="center left", ncol=2)
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    print("wrote", args.out)


if __name__ == "__main__":
    main()
