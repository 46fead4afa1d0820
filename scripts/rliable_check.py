#!/usr/bin/python3
"""rliable_check.py: the statistics of `simdrl report`, computed independently.

Written from the definitions of Agarwal et al., "Deep Reinforcement Learning
at the Edge of the Statistical Precipice" (NeurIPS 2021), with numpy and scipy
alone, to check the Go package stats (its tests read what this writes).

Scores are runs x tasks matrices (simdrl: seeds x levels):
  IQM             scipy.stats.trim_mean(all scores, 0.25): int(n/4) cut each side
  mean            the mean over tasks of each task's mean over runs
  sd, min         over all scores; sd with ddof=1
  P(X > Y)        per task, the Mann-Whitney U of X over Y divided by
                  runs_x * runs_y (ties count 1/2), averaged over tasks
  profile(tau)    the fraction of all scores > tau
  95% CIs         percentile bootstrap; each resample draws, for each task
                  independently, the runs with replacement (stratified); for
                  P(X > Y) X and Y are resampled independently.

Because the Go side draws other random numbers, its intervals can only agree
within Monte Carlo error. For each endpoint (the q-quantile of B bootstrap
replicates, q = 0.025 or 0.975) this script also writes a band: its replicates'
quantiles at q -/+ 5 * sqrt(2 q (1-q) / B). Two empirical q-quantiles of B
draws each sit at CDF positions whose difference has standard deviation
sqrt(2 q (1-q) / B); the band is 5 of those either side, so a correct Go
implementation falls outside it with probability below 1e-6 per endpoint,
whatever the shape of the bootstrap distribution (lumpy ones included: the
band is in quantiles, not in score units).

Usage: scripts/rliable_check.py [FIXTURES [EXPECTED]]
  (defaults: stats/testdata/fixtures.json, stats/testdata/expected.json;
   EXPECTED "-" writes to stdout)
"""
import json
import sys

import numpy as np
import scipy.stats


# Each statistic takes a stack of matrices, shape (..., runs, tasks): the
# data alone, or all the bootstrap's resamples at once.

def iqm(m):
    return scipy.stats.trim_mean(m.reshape(m.shape[:-2] + (-1,)), 0.25, axis=-1)


def mean(m):
    return np.mean(np.mean(m, axis=-2), axis=-1)


def poi(x, y):
    # mannwhitneyu along the runs axis of x[..., :, None, t] vs y[..., None, :, t]
    # would broadcast; each task is taken alone instead, as the definition reads.
    probs = []
    for t in range(x.shape[-1]):
        u = scipy.stats.mannwhitneyu(x[..., t], y[..., t], alternative="greater", axis=-1).statistic
        probs.append(u / (x.shape[-2] * y.shape[-2]))
    return np.mean(probs, axis=0)


def profile(m, taus):
    return np.stack([np.mean(m > tau, axis=(-2, -1)) for tau in taus], axis=-1)


def stratified(m, rng, b):
    """b stratified resamples: each task's runs drawn with replacement."""
    runs, tasks = m.shape
    idx = rng.integers(0, runs, size=(b, runs, tasks))
    return m[idx, np.arange(tasks)[None, None, :]]


def interval(reps, level):
    """The percentile interval of the replicates, with each endpoint's band."""
    reps = np.asarray(reps, dtype=float)
    b = len(reps)
    out = {}
    for name, q in (("lo", (1 - level) / 2), ("hi", (1 + level) / 2)):
        d = 5 * np.sqrt(2 * q * (1 - q) / b)
        out[name] = float(np.percentile(reps, 100 * q))
        out[name + "_band"] = [float(np.percentile(reps, 100 * max(q - d, 0))),
                               float(np.percentile(reps, 100 * min(q + d, 1)))]
    return out


def main(argv):
    src = argv[1] if len(argv) > 1 else "stats/testdata/fixtures.json"
    dst = argv[2] if len(argv) > 2 else "stats/testdata/expected.json"
    with open(src) as f:
        fx = json.load(f)
    b, level, taus = fx["reps"], fx["level"], fx["taus"]
    rng = np.random.Generator(np.random.PCG64(fx["seed"]))
    mats = {c["name"]: np.array(c["scores"], dtype=float) for c in fx["cases"]}
    cases = []
    for c in fx["cases"]:
        m = mats[c["name"]]
        s = stratified(m, rng, b)
        iqms, means, profs = iqm(s), mean(s), profile(s, taus)
        cases.append({
            "name": c["name"],
            "iqm": float(iqm(m)), "mean": float(mean(m)),
            "sd": float(np.std(m, ddof=1)) if m.size > 1 else 0.0,
            "min": float(np.min(m)),
            "iqm_ci": interval(iqms, level), "mean_ci": interval(means, level),
            "profile": [float(v) for v in profile(m, taus)],
            "profile_ci": [interval(profs[:, i], level) for i in range(len(taus))],
        })
    pairs = []
    for p in fx["pairs"]:
        x, y = mats[p["x"]], mats[p["y"]]
        reps = poi(stratified(x, rng, b), stratified(y, rng, b))
        pairs.append({"x": p["x"], "y": p["y"], "poi": float(poi(x, y)), "poi_ci": interval(reps, level)})
    out = json.dumps({"source": src, "reps": b, "level": level, "cases": cases, "pairs": pairs}, indent=1) + "\n"
    if dst == "-":
        sys.stdout.write(out)
    else:
        with open(dst, "w") as f:
            f.write(out)


if __name__ == "__main__":
    main(sys.argv)
