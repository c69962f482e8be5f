#!/usr/bin/env python3
"""An independent implementation of the static schedulers of docs/schedule.md ("The other static
schedulers"), written from the rules there, against `hetstruct schedule` on random DAGs with
real-valued times (no ties): every task's processor, start and finish, and the makespan.

  schedulers.py HETSTRUCT [DAGS] [SEED]

Exit 0 when every schedule agrees, 1 with the first difference otherwise."""
import csv
import io
import os
import random
import subprocess
import sys
import tempfile

EPS = 1e-9


def equal(a, b):
    return abs(a - b) <= EPS * max(abs(a), abs(b))


def smaller(a, b):
    return a < b and not equal(a, b)


def larger(a, b):
    return smaller(b, a)


class Problem:
    def __init__(self, w, edges):
        self.w = w  # w[i][p]
        self.n, self.P = len(w), len(w[0])
        self.edges = edges  # (i, j, c) in the file's order
        self.pred = [[] for _ in range(self.n)]
        self.succ = [[] for _ in range(self.n)]
        for i, j, c in edges:
            self.pred[j].append((i, c))
            self.succ[i].append((j, c))

    def topological(self):
        indeg = [len(p) for p in self.pred]
        order, ready = [], [v for v in range(self.n) if indeg[v] == 0]
        while ready:
            ready.sort()
            v = ready.pop(0)
            order.append(v)
            for j, _ in self.succ[v]:
                indeg[j] -= 1
                if indeg[j] == 0:
                    ready.append(j)
        return order

    def rank_u(self):
        rank = [0.0] * self.n
        for i in reversed(self.topological()):
            mean = sum(self.w[i]) / self.P
            rank[i] = mean + max([c + rank[j] for j, c in self.succ[i]], default=0.0)
        return rank


class State:
    """Placed tasks, each processor's busy intervals and avail."""

    def __init__(self, pb):
        self.pb = pb
        self.proc, self.start, self.finish = [None] * pb.n, [0.0] * pb.n, [0.0] * pb.n
        self.busy = [[] for _ in range(pb.P)]  # sorted (start, finish)
        self.avail = [0.0] * pb.P
        self.placed = [False] * pb.n

    def drt(self, i, p):
        return max([self.finish[k] + (0.0 if self.proc[k] == p else c) for k, c in self.pb.pred[i]], default=0.0)

    def append_start(self, i, p):
        return max(self.avail[p], self.drt(i, p))

    def insertion_start(self, i, p):
        ready, w, prev = self.drt(i, p), self.pb.w[i][p], 0.0
        for s, f in self.busy[p]:
            t = max(ready, prev)
            if t + w <= s:
                return t
            prev = f
        return max(ready, prev)

    def place(self, i, p, t):
        self.proc[i], self.start[i], self.finish[i] = p, t, t + self.pb.w[i][p]
        self.busy[p].append((t, self.finish[i]))
        self.busy[p].sort()
        self.avail[p] = max(self.avail[p], self.finish[i])
        self.placed[i] = True

    def ready(self):
        return [i for i in range(self.pb.n) if not self.placed[i] and all(self.placed[k] for k, _ in self.pb.pred[i])]


def least(values):
    best = 0
    for p in range(1, len(values)):
        if smaller(values[p], values[best]):
            best = p
    return best


def by_priority(pb, priority, choose):
    st = State(pb)
    while True:
        ready = st.ready()
        if not ready:
            return st
        i = ready[0]
        for v in ready[1:]:
            if larger(priority[v], priority[i]):
                i = v
        p, t = choose(st, i)
        st.place(i, p, t)


def heft(pb):
    def choose(st, i):
        finish = [st.insertion_start(i, p) + pb.w[i][p] for p in range(pb.P)]
        p = least(finish)
        return p, st.insertion_start(i, p)
    return by_priority(pb, pb.rank_u(), choose)


def peft(pb):
    oct_ = [[0.0] * pb.P for _ in range(pb.n)]
    for i in reversed(pb.topological()):
        for p in range(pb.P):
            oct_[i][p] = max([min(oct_[j][q] + pb.w[j][q] + (0.0 if q == p else c) for q in range(pb.P))
                              for j, c in pb.succ[i]], default=0.0)
    rank_oct = [sum(row) / pb.P for row in oct_]

    def choose(st, i):
        o_eft = [st.insertion_start(i, p) + pb.w[i][p] + oct_[i][p] for p in range(pb.P)]
        p = least(o_eft)
        return p, st.insertion_start(i, p)
    return by_priority(pb, rank_oct, choose)


def appended(rule):
    def choose(st, i):
        p = least(rule(st, i))
        return p, st.append_start(i, p)
    return choose


def mct(pb):
    return by_priority(pb, pb.rank_u(), appended(lambda st, i: [st.append_start(i, p) + pb.w[i][p] for p in range(pb.P)]))


def met(pb):
    return by_priority(pb, pb.rank_u(), appended(lambda st, i: list(pb.w[i])))


def olb(pb):
    return by_priority(pb, pb.rank_u(), appended(lambda st, i: list(st.avail)))


def etf(pb):
    st, rank = State(pb), pb.rank_u()
    while st.ready():
        best = None  # (start, rank, finish, task, processor)
        for i in st.ready():
            for p in range(pb.P):
                s = st.append_start(i, p)
                f = s + pb.w[i][p]
                if best is None or smaller(s, best[0]) or (equal(s, best[0]) and (
                        larger(rank[i], best[1]) or (equal(rank[i], best[1]) and smaller(f, best[2])))):
                    best = (s, rank[i], f, i, p)
        st.place(best[3], best[4], best[0])
    return st


def batch(better):
    def run(pb):
        st = State(pb)
        while st.ready():
            B = st.ready()
            while B:
                chosen = None
                for i in B:
                    ct = [st.append_start(i, p) + pb.w[i][p] for p in range(pb.P)]
                    b = least(ct)
                    others = [ct[q] for q in range(pb.P) if q != b]
                    second = min(others) if others else None
                    suff = 0.0 if second is None or equal(second, ct[b]) else second - ct[b]
                    cand = (i, b, ct[b], suff)
                    if chosen is None or better(cand, chosen):
                        chosen = cand
                i, b = chosen[0], chosen[1]
                st.place(i, b, st.append_start(i, b))
                B.remove(i)
        return st
    return run


SCHEDULERS = {
    "heft": heft, "peft": peft, "etf": etf, "mct": mct, "met": met, "olb": olb,
    "min-min": batch(lambda c, b: smaller(c[2], b[2])),
    "max-min": batch(lambda c, b: larger(c[2], b[2])),
    "sufferage": batch(lambda c, b: larger(c[3], b[3])),
}


def random_problem(rng):
    n, P = rng.randint(2, 24), rng.randint(1, 4)
    w = [[rng.uniform(1.0, 20.0) for _ in range(P)] for _ in range(n)]
    density = rng.uniform(0.05, 0.5)
    edges = [(i, j, rng.uniform(0.0, 15.0)) for j in range(n) for i in range(j) if rng.random() < density]
    return Problem(w, edges)


def dot_text(pb):
    lines = ["digraph g {"]
    lines += ['  t%d [costs="%s"];' % (i, ",".join(repr(x) for x in pb.w[i])) for i in range(pb.n)]
    lines += ["  t%d -> t%d [comm=%r];" % (i, j, c) for i, j, c in pb.edges]
    return "\n".join(lines + ["}"]) + "\n"


def close(a, b):
    return abs(a - b) <= 1e-12 * max(1.0, abs(a), abs(b))


def main():
    exe = sys.argv[1]
    dags = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 41)
    checked = 0
    with tempfile.TemporaryDirectory() as d:
        for k in range(dags):
            pb = random_problem(rng)
            path = os.path.join(d, "g%d.dot" % k)
            with open(path, "w") as f:
                f.write(dot_text(pb))
            for name, run in SCHEDULERS.items():
                st = run(pb)
                out = subprocess.run([exe, "schedule", "--graph", path, "--algorithm", name, "--format", "csv"],
                                     capture_output=True, text=True)
                if out.returncode != 0:
                    print("%s on %s: exit %d: %s" % (name, path, out.returncode, out.stderr.strip()))
                    return 1
                rows = list(csv.DictReader(io.StringIO(out.stdout)))
                makespan = max(st.finish)
                for i, r in enumerate(rows):
                    got = (int(r["processor"]), float(r["start"]), float(r["finish"]), float(r["makespan"]))
                    if got[0] != st.proc[i] or not all(close(x, y) for x, y in zip(got[1:], (st.start[i], st.finish[i], makespan))):
                        print("%s, DAG %d (%d tasks, %d processors), task t%d: hetstruct %r, reference %r" % (
                            name, k, pb.n, pb.P, i, got, (st.proc[i], st.start[i], st.finish[i], makespan)))
                        print(dot_text(pb))
                        return 1
                checked += 1
    print("%d schedules on %d random DAGs agree with the reference (%s)" % (checked, dags, ", ".join(SCHEDULERS)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
