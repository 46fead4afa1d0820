#!/usr/bin/env bash
# torch_calc_check.sh: checks scripts/torch_calc.py (the PyTorch port of
# `simdrl -task calc`) against the Go code, each check exiting non-zero on a
# mismatch:
#   1. split       the held-out tuples of every default level equal Go's (calcdump split)
#   2. score       rewards and outcomes equal calc.Run's, float64 exactly, on 7200 programs
#                  (random, tools only, shortest, mutated, unanswered, padded; every level,
#                  both splits, partial credit 0, 0.3, 0.7 and 1) (calcdump score)
#   3. draw        Draw's instances, DrawLevel's words and the sampling uniforms (Philox) equal Go's
#   4. init        the initial parameters of -seed 5 equal simdrl's, bit for bit
#   5. greedy      greedy programs of a checkpoint Go trained (seed 3, 300 updates) equal the CPU
#                  engine's on 12000 instances (1000 per level and split), near-ties excepted
#   6. trajectory  the first 6 updates of seed 0 (eval every update) follow simdrl's: training
#                  rewards, evaluations, loss and gradient norm
#   7. stop rule   simdrl's confirmations (stop at 0.99, 0.999 and 1, a three-level curriculum):
#                  each one's alpha, episodes and verdict equal torch_calc.py's (exact binomial
#                  sums), its lower bounds to 1e-9
# Usage, from anywhere in the repository:  scripts/torch_calc_check.sh
# (PYTHON=… picks the interpreter, /usr/bin/python3 by default; KEEP=DIR keeps the dumps there.)
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-/usr/bin/python3}
if [ -n "${KEEP:-}" ]; then
	dir=$KEEP
	mkdir -p "$dir"
else
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' EXIT
fi
go build -o "$dir/calcdump" ./scripts/calcdump
go build -o "$dir/simdrl" ./cmd/simdrl
tc() { "$PY" scripts/torch_calc.py "$@"; }

"$dir/calcdump" split >"$dir/split.jsonl"
tc --check-split "$dir/split.jsonl"

"$dir/calcdump" score -n 600 -seed 1 >"$dir/score.jsonl"
tc --check-score "$dir/score.jsonl"

"$dir/calcdump" draw -n 64 >"$dir/draw.jsonl"
tc --check-draw "$dir/draw.jsonl"

"$dir/simdrl" -task calc -seed 5 -updates 0 -final-episodes 0 -explain 0 -quiet -save "$dir/init5.safetensors" >/dev/null
tc --check-init "$dir/init5.safetensors" --seed 5

"$dir/simdrl" -task calc -seed 3 -updates 300 -threads 1 -quiet -save "$dir/c.safetensors" >/dev/null
"$dir/calcdump" greedy -ckpt "$dir/c.safetensors" -n 1000 >"$dir/greedy.jsonl"
tc --check-greedy "$dir/c.safetensors" "$dir/greedy.jsonl"

rm -f "$dir/metrics0.jsonl"
"$dir/simdrl" -task calc -seed 0 -updates 6 -eval-every 1 -threads 1 -final-episodes 0 -explain 0 -quiet \
	-metrics "$dir/metrics0.jsonl" >/dev/null
tc --check-trajectory "$dir/metrics0.jsonl" --seed 0

for s in 0.99 0.999 1; do
	"$dir/simdrl" -task calc -levels 'a*b, a*b+c, (a*b+c)-d' -seed 0 -threads 1 -updates 300 -stop-at "$s" \
		-final-episodes 0 -explain 0 -quiet -report "$dir/confirm_$s.json" >/dev/null
	tc --check-confirmations "$dir/confirm_$s.json"
done

echo "torch_calc_check: all checks passed"
