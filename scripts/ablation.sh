#!/usr/bin/env bash
# Ablation of the default recipe: each ingredient removed in turn, seeds 0–4
# (or the seeds given in SEEDS), one thread. Prints a markdown table: mean and
# minimum final greedy solve rate per level over the seeds (1000 episodes per
# level), mean updates run, mean training seconds.
# usage: scripts/ablation.sh [simdrl binary]   (default: go build ./cmd/simdrl)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-}
if [ -z "$bin" ]; then bin=$(mktemp -d)/simdrl; go build -o "$bin" ./cmd/simdrl; fi
seeds=${SEEDS:-"0 1 2 3 4"}
out=$(mktemp -d)
variants=(
  "default|"
  "no level mixing (seed's blocks 0,0,0,1,1,2)|-curriculum blocks -stages 0,0,0,1,1,2"
  "no focus (uniform level mixing)|-focus=false"
  "seed's baseline R − Σ v (no per-step baseline)|-baseline sum"
  "no mask after ANS|-mask-after-answer=false"
  "seed's entropy 0.01, constant|-entropy-coef 0.01 -entropy-final -1"
  "entropy 0.1 without decay|-entropy-final -1"
  "seed's lr 3e-4|-lr 3e-4"
  "batch 384 (twice the default)|-batch 384"
  "no early stop (all 600 updates)|-stop-at 0"
  "-recipe seed (for reference)|-recipe seed"
)
echo "| variant | T0 mean (min) | T1 mean (min) | T2 mean (min) | updates | train s |"
echo "|---|---|---|---|---|---|"
for v in "${variants[@]}"; do
  name=${v%%|*}; flags=${v#*|}
  for s in $seeds; do
    # shellcheck disable=SC2086
    "$bin" -threads 1 -seed "$s" -explain 0 -quiet $flags -report "$out/r_$s.json" >/dev/null
  done
  python3 - "$out" "$name" $seeds <<'PY'
import json, sys
out, name, seeds = sys.argv[1], sys.argv[2], sys.argv[3:]
reps = [json.load(open(f"{out}/r_{s}.json")) for s in seeds]
cols = []
for st in range(3):
    v = [r["final"]["solve_rate"][st] for r in reps]
    cols.append(f"{sum(v)/len(v):.3f} ({min(v):.3f})")
upd = sum(r["updates"] for r in reps) / len(reps)
sec = sum(r["train_seconds"] for r in reps) / len(reps)
print(f"| {name} | {' | '.join(cols)} | {upd:.0f} | {sec:.2f} |")
PY
done
