#!/usr/bin/python3
"""Per workflow family: the reference's ready-dispatch makespan (fcfs_wfformat.py, constant task
times, comm 0) over the trace's recorded makespan, and how many traces hetstruct agrees on.

    family_summary.py FOLDER [--hetstruct BIN] [--default-dispatch] [--per-trace FILE.csv]

FOLDER holds WfFormat traces (e.g. a checkout of github.com/wfcommons/WfInstances extracted to
/tmp/wfi). A trace's family is its folder below FOLDER (pegasus/montage, makeflow/blast, ...;
a nextflow/ or helloworld/ folder of one trace per pipeline is one family). For each family: the
traces read, the median and the range of reference / recorded (traces without a recorded
makespan, or with 0, left out of those), and how many traces hetstruct
(`simulate --graph FILE --format csv --reps 1 --dispatch ready`) gives the same makespan for
(equal, or relative difference <= 5e-16). Without --hetstruct (and no build/hetstruct beside the
repo) only the ratios are given. Exit status 0, or 1 if any trace disagrees.
"""

import csv
import io
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fcfs_wfformat  # noqa: E402

TOLERANCE = 5e-16


def run_cli(binary, path, dispatch):
    cmd = [binary, "simulate", "--graph", path, "--format", "csv", "--reps", "1"] + dispatch
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode == 2:
        return "refused", None
    if p.returncode != 0:
        return "failed", None
    rows = list(csv.reader(io.StringIO(p.stdout)))
    head = rows[0]
    col = head.index("mean") if "mean" in head else head.index("value")
    return "ok", float(rows[1][col])


def same(a, b):
    return a == b or abs(a - b) / max(abs(a), abs(b)) <= TOLERANCE


def main(argv):
    args = argv[1:]
    binary = None
    default_dispatch = False
    per_trace = None
    folder = None
    while args:
        a = args.pop(0)
        if a == "--hetstruct":
            binary = args.pop(0)
        elif a == "--default-dispatch":
            default_dispatch = True
        elif a == "--per-trace":
            per_trace = args.pop(0)
        elif a.startswith("-"):
            print(__doc__, file=sys.stderr)
            return 1
        else:
            folder = a
    if folder is None:
        print(__doc__, file=sys.stderr)
        return 1
    if binary is None:
        guess = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "build",
                             "hetstruct")
        binary = guess if os.access(guess, os.X_OK) else None
    dispatch = []
    if binary and not default_dispatch:
        h = subprocess.run([binary, "simulate", "--help"], capture_output=True, text=True)
        if "--dispatch" in h.stdout + h.stderr:
            dispatch = ["--dispatch", "ready"]

    paths = []
    for d, _, names in os.walk(folder):
        for nm in names:
            if nm.endswith(".json"):
                paths.append(os.path.join(d, nm))
    paths.sort()

    fams = {}
    rows = []
    bad = 0
    for path in paths:
        rel = os.path.relpath(path, folder)
        fam = os.path.dirname(rel) or "."
        f = fams.setdefault(fam, {"traces": 0, "refused": 0, "ratios": [], "unrecorded": 0,
                                  "agree": 0, "disagree": 0, "cli_refused": 0})
        f["traces"] += 1
        try:
            tr = fcfs_wfformat.load(path)
            ms = fcfs_wfformat.simulate(tr)[0]
        except fcfs_wfformat.Refused as e:
            f["refused"] += 1
            rows.append([rel, fam, "refused", "", "", "", str(e)])
            continue
        ratio = ""
        if tr.recorded is None:
            f["unrecorded"] += 1
        else:
            ratio = ms / tr.recorded
            f["ratios"].append(ratio)
        cli = ""
        verdict = ""
        if binary:
            status, value = run_cli(binary, path, dispatch)
            if status == "ok":
                cli = value
                if same(ms, value):
                    f["agree"] += 1
                    verdict = "agree"
                else:
                    f["disagree"] += 1
                    verdict = "DISAGREE"
                    bad += 1
            else:
                f["cli_refused" if status == "refused" else "disagree"] += 1
                verdict = "hetstruct " + status
                bad += status != "refused"
        rows.append([rel, fam, repr(ms), "" if tr.recorded is None else repr(tr.recorded),
                     "" if ratio == "" else repr(ratio), "" if cli == "" else repr(cli), verdict])

    if per_trace:
        with open(per_trace, "w", newline="") as out:
            w = csv.writer(out)
            w.writerow(["trace", "family", "reference", "recorded", "reference_to_recorded",
                        "hetstruct", "verdict"])
            w.writerows(rows)

    print(f"# reference/recorded: fcfs_wfformat.py's ready-dispatch makespan (constant times, "
          f"comm 0) over the trace's recorded makespan")
    if binary:
        print(f"# hetstruct: {binary} {' '.join(dispatch)}")
    print(f"{'family':<24} {'traces':>6} {'median':>8} {'min':>8} {'max':>8} "
          f"{'agree':>6}  notes")
    tot = {"traces": 0, "agree": 0}
    for fam in sorted(fams):
        f = fams[fam]
        r = sorted(f["ratios"])
        med = f"{statistics.median(r):.4f}" if r else "-"
        lo = f"{r[0]:.4f}" if r else "-"
        hi = f"{r[-1]:.4f}" if r else "-"
        notes = []
        if f["refused"]:
            notes.append(f"{f['refused']} refused by the reference")
        if f["unrecorded"]:
            notes.append(f"{f['unrecorded']} without a recorded makespan")
        if f["cli_refused"]:
            notes.append(f"{f['cli_refused']} refused by hetstruct")
        if f["disagree"]:
            notes.append(f"{f['disagree']} DISAGREE")
        agree = f"{f['agree']}/{f['traces']}" if binary else "-"
        print(f"{fam:<24} {f['traces']:>6} {med:>8} {lo:>8} {hi:>8} {agree:>6}  "
              f"{'; '.join(notes)}")
        tot["traces"] += f["traces"]
        tot["agree"] += f["agree"]
    allr = sorted(x for f in fams.values() for x in f["ratios"])
    if allr:
        print(f"{'all':<24} {tot['traces']:>6} {statistics.median(allr):>8.4f} {allr[0]:>8.4f} "
              f"{allr[-1]:>8.4f} {(str(tot['agree']) + '/' + str(tot['traces'])) if binary else '-':>6}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
