#!/usr/bin/env python3
"""The rows of docs/recipes.md's estimator tables, from `simdrl report` output folders.

    simdrl report runs/lock -o rep/lock
    python3 scripts/report_rows.py rep/lock rep/calc

One row per configuration: the task (and spec), the estimator, the seeds, the held-out solve rate over all levels
(IQM [95% CI] and min over runs x levels), the runs solved, the updates to solve (>= when some run did not), and the
late training diagnostics (IQM over runs of each run's mean over its last 10% of updates).
"""
import json, sys

def name(cfg):
    e = cfg.get('estimator') or ''
    if e in ('', 'reinforce'):
        return 'REINFORCE ' + (cfg.get('baseline') or 'step')
    return e

def seeds(ss):
    ss = sorted(ss)
    return f'{ss[0]}–{ss[-1]}' if ss == list(range(ss[0], ss[-1] + 1)) else ', '.join(map(str, ss))

def diag(c):
    want = {'flat_groups', 'approx_kl', 'clip_fraction', 'explained_variance'}
    out = [f"{d['name']} {d['last_10pct']['iqm']:.3g}" for d in c.get('diagnostics') or [] if d['name'] in want]
    return ', '.join(out) or '–'

for d in sys.argv[1:]:
    r = json.load(open(d + '/report.json'))
    for c in r['configurations']:
        cfg = c['config']
        task = cfg['task'] + (f" ({cfg['task_spec']})" if cfg.get('task_spec') else '')
        a = [s for s in c['splits'] if s['split'] == 'held-out'][0]['all_levels']
        s = c['solve']
        u = s['updates']
        ge = '≥ ' if s['solved'] < s['runs'] else ''
        print(f"| {task} | {name(cfg)} | {seeds(c['seeds'])} | {a['iqm']:.3f} [{a['iqm_ci']['lo']:.3f}, {a['iqm_ci']['hi']:.3f}] | "
              f"{a['min']:.3f} | {s['solved']}/{s['runs']} | {ge}{u['iqm']:.0f} [{u['iqm_ci']['lo']:.0f}, {u['iqm_ci']['hi']:.0f}] | {diag(c)} |")
