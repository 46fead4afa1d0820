#!/usr/bin/env bash
# Per-seed results of a recipe: final greedy solve rates (1000 episodes per
# stage), updates run and wall time of the whole run, one thread pinned to
# core 0 (taskset, when present).
# usage: scripts/seeds.sh RECIPE [simdrl binary]   (SEEDS="0 1 2 3 4" by default)
set -euo pipefail
cd "$(dirname "$0")/.."
recipe=$1
bin=${2:-}
if [ -z "$bin" ]; then bin=$(mktemp -d)/simdrl; go build -o "$bin" ./cmd/simdrl; fi
pin=""; command -v taskset >/dev/null && pin="taskset -c 0"
out=$(mktemp -d)
echo "| seed | T0 | T1 | T2 | T0 mean reward | T1 mean reward | T2 mean reward | updates | wall s |"
echo "|---|---|---|---|---|---|---|---|---|"
for s in ${SEEDS:-0 1 2 3 4}; do
  $pin "$bin" -recipe "$recipe" -threads 1 -seed "$s" -quiet -report "$out/r.json" >/dev/null
  python3 - "$out/r.json" "$s" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); f = r["final"]
print(f"| {sys.argv[2]} | " + " | ".join(f"{x:.3f}" for x in f["solve_rate"] + f["mean_reward"]) +
      f" | {r['updates']} | {r['wall_seconds']:.2f} |")
PY
done
