#!/usr/bin/python3
"""The control-variate estimator's standard error and 95% interval against the spread of its own
estimates over many seeds, on Wilson's (n, m) = (8, 3) structures with communication: the study
behind issue 38's "the CV standard error is 8-11% too large with communication". Not a ctest
(20 s a case on 2 cores); run it by hand with the Python module built:

    PYTHONPATH=build/python /usr/bin/python3 tests/reference/cv_coverage.py STRUCTURE SEEDS COMM [ESTIMATOR]

For seeds 10001..10000+SEEDS it runs simulate(reps=1000, estimator=ESTIMATOR (cv)) and prints the
standard deviation of the means, the mean of the reported standard errors, their ratio (1 when
the standard error is right; its own standard error about 1/sqrt(2 SEEDS)), and the fraction of
the intervals that hold the mean of a 400,000-replication plain run (0.95 when right; binomial
standard error sqrt(0.95 * 0.05 / SEEDS)).
"""
import statistics
import sys

import hetstruct

structure, count, comm = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
estimator = sys.argv[4] if len(sys.argv) > 4 else "cv"
base = dict(structure=structure, n=8, m=3, a="1/2", comm=comm, levels=50, threads=2)
truth = hetstruct.simulate(reps=400000, seed=99999, estimator="mc", **base)[0]
means, errors, covered = [], [], 0
for seed in range(10001, 10001 + count):
    r = hetstruct.simulate(reps=1000, seed=seed, estimator=estimator, **base)[0]
    means.append(r["mean"])
    errors.append(r["stderr"])
    covered += r["ci_low"] <= truth["mean"] <= r["ci_high"]
sd, se = statistics.stdev(means), statistics.mean(errors)
print("%s comm %s %s, %d seeds: sd of the means %.5f, mean stderr %.5f, ratio %.3f, coverage %.3f "
      "(truth %.5f +- %.5f)" % (structure, comm, estimator, count, sd, se, se / sd, covered / count, truth["mean"],
                                truth["stderr"]))
