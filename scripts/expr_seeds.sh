#!/usr/bin/env bash
# Per-seed results of the expr task: for every size (level), the solve rate
# over every held-out expression (each played on its listed operand tuples:
# the final exhaustive evaluation), the lowest size's training rate, the
# transfer split's rate where the spec has one (split=pattern or length),
# then updates and wall time; one thread pinned to a core (taskset, CORE=0
# by default). FLAGS are added to every run, split at spaces (so write a
# spec without them: -task-spec split=length;partial_credit=0.3;order=reversed;
# -task-spec replaces the recipe's whole spec).
# A row says "yes" when every size's held-out rate is ≥ 0.95 (issue 21's
# target); a summary line ends the table.
# usage: [SEEDS="0 1 2 3 4"] [FLAGS="…"] scripts/expr_seeds.sh [simdrl binary]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-}
if [ -z "$bin" ]; then bin=$(mktemp -d)/simdrl; go build -o "$bin" ./cmd/simdrl; fi
pin=""; command -v taskset >/dev/null && pin="taskset -c ${CORE:-0}"
out=${OUT:-$(mktemp -d)}
first=1
for s in ${SEEDS:-0 1 2 3 4}; do
  # shellcheck disable=SC2086
  $pin "$bin" -task expr -threads 1 -seed "$s" -quiet -report "$out/r-$s.json" ${FLAGS:-} >/dev/null
  python3 - "$out/r-$s.json" "$s" "$first" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); ex = r["exhaustive"]; names = r["levels"]
rate = lambda t: t["solved"] / t["n"] if t and t["n"] else None
fmt = lambda x: "—" if x is None else f"{x:.3f}"
held = [rate(l["held_out"]) for l in ex]
train = [rate(l["training"]) for l in ex]
transfer = [rate(l.get("transfer")) for l in ex]
if sys.argv[3] == "1":
    cols = [f"{n} held-out" for n in names] + ["lowest training", "transfer (by size)", "all held-out ≥ 0.95", "updates", "wall s"]
    print("| seed | " + " | ".join(cols) + " |")
    print("|---" * (len(cols) + 1) + "|")
ok = all(h is None or h >= 0.95 for h in held) and any(h is not None for h in held)
low = min(t for t in train if t is not None)
tr = " ".join(fmt(x) for x in transfer if x is not None) or "—"
print(f"| {sys.argv[2]} | " + " | ".join(fmt(h) for h in held) + f" | {low:.3f} | {tr} | {'yes' if ok else 'NO'} | {r['updates']} | {r['wall_seconds']:.1f} |")
PY
  first=0
done
echo "reports in $out"
