#!/usr/bin/env bash
# Per-seed results of the calc task under the default recipe (or with the
# extra flags in FLAGS): held-out greedy solve rate of every level (1000
# episodes each), the lowest solve rate on training instances, updates run,
# and the run's wall time, one thread pinned to a core (taskset, when present;
# CORE=0 by default).
# usage: scripts/calc_seeds.sh [simdrl binary]   (SEEDS="0 1 2 3 4" by default)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-}
if [ -z "$bin" ]; then bin=$(mktemp -d)/simdrl; go build -o "$bin" ./cmd/simdrl; fi
pin=""; command -v taskset >/dev/null && pin="taskset -c ${CORE:-0}"
out=$(mktemp -d)
echo "| seed | L0 | L1 | L2 | L3 | L4 | L5 | lowest on training | updates | wall s |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for s in ${SEEDS:-0 1 2 3 4}; do
  # shellcheck disable=SC2086
  $pin "$bin" -task calc -threads 1 -seed "$s" -explain 0 -quiet -report "$out/r.json" ${FLAGS:-} >/dev/null
  python3 - "$out/r.json" "$s" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); f = r["final"]
print(f"| {sys.argv[2]} | " + " | ".join(f"{x:.3f}" for x in f["solve_rate"]) +
      f" | {min(f['train_solve_rate']):.3f} | {r['updates']} | {r['wall_seconds']:.1f} |")
PY
done
