#!/usr/bin/env python3
"""tensorboard_read.py DIR METRICS: reads a -tensorboard DIR with the tensorboard package itself and checks its
scalars against the same run's -metrics JSON lines (a check of internal/tbevents by an independent reader)."""
import json, sys
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
d, metrics = sys.argv[1], sys.argv[2]
ea = EventAccumulator(d, size_guidance={"scalars": 0}); ea.Reload()
tags = ea.Tags()["scalars"]
lines = [json.loads(l) for l in open(metrics)]
print("tensorboard read", len(tags), "scalar tags, e.g.", sorted(tags)[:5])
checks = {"eval/solve_rate/T0": lambda m: m["eval_solve_rate"][0], "eval/mean_reward/T1": lambda m: m["eval_mean_reward"][1],
          "train/reward": lambda m: m["train_reward"], "train/entropy_coef": lambda m: m["entropy_coef"]}
bad = n = 0
for tag, f in checks.items():
    pts = {e.step: e.value for e in ea.Scalars(tag)}
    for m in lines:
        n += 1
        if m["update"] not in pts or abs(pts[m["update"]] - f(m)) > 1e-6 * max(1, abs(f(m))): bad += 1
print("checked", n, "values against -metrics:", bad, "mismatches")
