#!/usr/bin/env bash
# Per-seed results of a recipe: final greedy solve rates (1000 episodes per
# level), then mean rewards, updates run and wall time of the whole run, one
# thread pinned to a core (taskset, when present; CORE=0 by default). FLAGS
# are added to every run; with -task calc the table gives the held-out solve
# rates and the lowest solve rate on training instances instead of rewards.
# Each row also says whether every level's final solve rate is ≥ 0.99 over
# 1000 episodes (the stop rule's goal) and the confirmations the run made
# (failed, then the one that stopped it: "2 (stop)"); a summary line ends
# the table.
# usage: [SEEDS="0 1 2 3 4"] [FLAGS="-task calc"] scripts/seeds.sh RECIPE [simdrl binary]
set -euo pipefail
cd "$(dirname "$0")/.."
recipe=$1
bin=${2:-}
if [ -z "$bin" ]; then bin=$(mktemp -d)/simdrl; go build -o "$bin" ./cmd/simdrl; fi
pin=""; command -v taskset >/dev/null && pin="taskset -c ${CORE:-0}"
out=$(mktemp -d)
first=1
for s in ${SEEDS:-0 1 2 3 4}; do
  # shellcheck disable=SC2086
  $pin "$bin" -recipe "$recipe" -threads 1 -seed "$s" -quiet -report "$out/r-$s.json" ${FLAGS:-} >/dev/null
  python3 - "$out/r-$s.json" "$s" "$first" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); f = r["final"]; n = len(f["solve_rate"])
played = lambda xs: [x for x in xs if x is not None]  # null: a level the split did not play
# Tasks that list their instances (calc) also report every held-out tuple
# played once, and its subsets (ties, zeros, negatives), for levels small
# enough to list.
ex = [l for l in r.get("exhaustive") or [] if l["listed"]]
rate = lambda t: t["solved"] / t["n"]
subsets = [(rate(s), f'T{i} {s["name"]}') for i, l in enumerate(r.get("exhaustive") or []) if l["listed"] for s in l.get("held_out_subsets") or [] if s["n"]]
held_out = "train_solve_rate" in f
if sys.argv[3] == "1":
    extra = ["lowest on training"] if held_out else [f"T{i} mean reward" for i in range(n)]
    if ex:
        extra += ["every held-out tuple, lowest level", "lowest held-out subset"]
    cols = [f"T{i}" for i in range(n)] + extra + ["all ≥ 0.99", "confirmations", "updates", "wall s"]
    print("| seed | " + " | ".join(cols) + " |")
    print("|---" * (len(cols) + 1) + "|")
extra = [min(played(f["train_solve_rate"]))] if held_out else f["mean_reward"]
ok = f["episodes"] >= 1000 and min(played(f["solve_rate"])) >= 0.99
tail = []
if ex:
    low = min(rate(l["held_out"]) for l in ex)
    sub = min(subsets) if subsets else (1.0, "none")
    ok = ok and low >= 0.99 and sub[0] >= 0.99
    tail = [f"{low:.4f}", f"{sub[0]:.4f} ({sub[1]})"]
cf = r.get("confirmations") or []
conf = f"{len(cf)}" + (" (stop)" if cf and cf[-1]["solved"] else "")
print(f"| {sys.argv[2]} | " + " | ".join(["—" if x is None else f"{x:.3f}" for x in f["solve_rate"] + extra] + tail) +
      f" | {'yes' if ok else 'NO'} | {conf} | {r['updates']} | {r['wall_seconds']:.2f} |")
PY
  first=0
done
python3 - "$out" <<'PY'
import glob, json, sys
rs = [json.load(open(p)) for p in sorted(glob.glob(sys.argv[1] + "/r-*.json"))]
played = lambda xs: [x for x in xs if x is not None]  # null: a level the split did not play
ok = [r["final"]["episodes"] >= 1000 and min(played(r["final"]["solve_rate"])) >= 0.99 for r in rs]
low = min((x, r["config"]["seed"], i) for r in rs for i, x in enumerate(r["final"]["solve_rate"]) if x is not None)
ups = [r["updates"] for r in rs]
def every(r):  # every listed level's held-out tuples and subsets ≥ 0.99
    ls = [l for l in r.get("exhaustive") or [] if l["listed"]]
    ts = [l["held_out"] for l in ls] + [s for l in ls for s in l.get("held_out_subsets") or [] if s["n"]]
    return all(t["solved"] >= 0.99 * t["n"] for t in ts)
if any(r.get("exhaustive") for r in rs):
    print(f"\n{sum(every(r) for r in rs)} of {len(rs)} seeds ≥ 0.99 on every held-out tuple of every listed level and on each of its subsets")
print(f"\n{sum(ok)} of {len(rs)} seeds ≥ 0.99 on every level over {rs[0]['final']['episodes']} final episodes; "
      f"lowest {low[0]:.3f} (seed {low[1]}, T{low[2]}); updates {min(ups)}–{max(ups)}, mean {sum(ups) / len(ups):.0f}")
PY
