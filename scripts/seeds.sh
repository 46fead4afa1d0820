#!/usr/bin/env bash
# Per-seed results of a recipe: final greedy solve rates (1000 episodes per
# level), then mean rewards, updates run and wall time of the whole run, one
# thread pinned to a core (taskset, when present; CORE=0 by default). FLAGS
# are added to every run; with -task calc the table gives the held-out solve
# rates and the lowest solve rate on training instances instead of rewards.
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
  $pin "$bin" -recipe "$recipe" -threads 1 -seed "$s" -quiet -report "$out/r.json" ${FLAGS:-} >/dev/null
  python3 - "$out/r.json" "$s" "$first" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); f = r["final"]; n = len(f["solve_rate"])
held_out = "train_solve_rate" in f
if sys.argv[3] == "1":
    extra = ["lowest on training"] if held_out else [f"T{i} mean reward" for i in range(n)]
    cols = [f"T{i}" for i in range(n)] + extra + ["updates", "wall s"]
    print("| seed | " + " | ".join(cols) + " |")
    print("|---" * (len(cols) + 1) + "|")
extra = [min(f["train_solve_rate"])] if held_out else f["mean_reward"]
print(f"| {sys.argv[2]} | " + " | ".join(f"{x:.3f}" for x in f["solve_rate"] + extra) +
      f" | {r['updates']} | {r['wall_seconds']:.2f} |")
PY
  first=0
done
