#!/usr/bin/python3
"""The reference of hetstruct fit's maximum-likelihood fits (tests/fit_test.cpp, "[fit]"): samples
from known laws and scipy's own fits of them, written into tests/data/fit/ as committed files.

  /usr/bin/python3 tests/reference/fit_reference.py   # scipy 1.10, numpy

For each law: tests/data/fit/<law>.txt (the samples, one a line, %.17g) and one row of
tests/data/fit/reference.csv: the parameters as hetstruct's law syntax writes them (exp: mean;
gamma, weibull: shape, scale; lognormal: mu, sigma; normal, tn: mean, variance) from scipy's fit
(location 0: floc=0), and the log-likelihood, the Kolmogorov-Smirnov statistic and the
Anderson-Darling statistic of the samples under those parameters, computed by scipy. tn (the
normal truncated at 0, parameters of the parent) is fitted by direct minimisation of the negative
log-likelihood with scipy.stats.truncnorm (a = -mu/sd), Nelder-Mead to 1e-13.
"""
import os

import numpy as np
from scipy import optimize, stats

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "data", "fit")
N = 60


def ad_statistic(x, dist):
    x = np.sort(x)
    n = len(x)
    i = np.arange(1, n + 1)
    return -n - np.sum((2 * i - 1) * (dist.logcdf(x) + dist.logsf(x[::-1]))) / n


def fit_tn(x):
    def nll(theta):
        mu, log_sd = theta
        sd = np.exp(log_sd)
        return -np.sum(stats.truncnorm.logpdf(x, -mu / sd, np.inf, loc=mu, scale=sd))
    start = [np.mean(x), np.log(np.std(x))]
    r = optimize.minimize(nll, start, method="Nelder-Mead",
                          options={"xatol": 1e-13, "fatol": 1e-15, "maxiter": 100000, "maxfev": 100000})
    mu, sd = r.x[0], np.exp(r.x[1])
    return mu, sd


def main():
    rng = np.random.default_rng(20261202)
    draws = {
        "exp": rng.exponential(3.0, N),
        "gamma": rng.gamma(2.5, 1.5, N),
        "lognormal": rng.lognormal(1.0, 0.5, N),
        "weibull": 4.0 * rng.weibull(1.7, N),
        "normal": rng.normal(10.0, 2.0, N),
        "tn": stats.truncnorm.rvs(-0.5, np.inf, loc=1.0, scale=2.0, size=N, random_state=rng),
    }
    rows = ["file,law,p1,p2,loglik,ks,ad"]
    for law, x in draws.items():
        x = np.array([float("%.17g" % v) for v in x])
        with open(os.path.join(OUT, law + ".txt"), "w") as f:
            f.write("# %d draws of %s (tests/reference/fit_reference.py)\n" % (N, law))
            f.writelines("%.17g\n" % v for v in x)
        if law == "exp":
            _, scale = stats.expon.fit(x, floc=0)
            p1, p2, dist = scale, 0.0, stats.expon(scale=scale)
        elif law == "gamma":
            a, _, scale = stats.gamma.fit(x, floc=0)
            p1, p2, dist = a, scale, stats.gamma(a, scale=scale)
        elif law == "lognormal":
            s, _, scale = stats.lognorm.fit(x, floc=0)
            p1, p2, dist = np.log(scale), s, stats.lognorm(s, scale=scale)
        elif law == "weibull":
            c, _, scale = stats.weibull_min.fit(x, floc=0)
            p1, p2, dist = c, scale, stats.weibull_min(c, scale=scale)
        elif law == "normal":
            m, sd = stats.norm.fit(x)
            p1, p2, dist = m, sd * sd, stats.norm(m, sd)
        else:
            mu, sd = fit_tn(x)
            p1, p2, dist = mu, sd * sd, stats.truncnorm(-mu / sd, np.inf, loc=mu, scale=sd)
        loglik = np.sum(dist.logpdf(x))
        ks = stats.kstest(x, dist.cdf).statistic
        ad = ad_statistic(x, dist)
        rows.append("%s.txt,%s,%.17g,%.17g,%.17g,%.17g,%.17g" % (law, law, p1, p2, loglik, ks, ad))
    with open(os.path.join(OUT, "reference.csv"), "w") as f:
        f.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
