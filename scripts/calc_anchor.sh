#!/usr/bin/env bash
# calc_anchor.sh: simdrl -task calc against its PyTorch port (scripts/torch_calc.py),
# both pinned to one core, one thread each:
#   * the per-update time at T = 13 and batch 192 (and any other of BATCHES; simdrl's
#     BenchmarkCalcUpdate in cpu/bench_test.go has B=192 and B=4096): simdrl's
#     BenchmarkCalcUpdate/B=…/threads=1, PyTorch's torch_calc.py --bench-update (median, with the
#     rollout (draw, policy, scoring) and the backward split out);
#   * the time to solve under the stop rule, seeds SEEDS (simdrl -task calc -seed S -threads 1:
#     the report's wall_seconds, train_seconds and updates; torch_calc.py --solve --seed S);
#   * the seed task's update under the seed script's recipe (BenchmarkReferenceRecipeUpdate)
#     against scripts/torch_update_bench.py, at the same batches;
#   * the CPU (lscpu) and its single-core FMA peaks (scripts/peak.c);
#   * OpenBLAS's fastest core type on this CPU (scripts/openblas_coretype.sh), under which
#     PyTorch runs unless OPENBLAS_CORETYPE is set;
#   * the ratios PyTorch / simdrl: per update, and per solve (wall seconds).
# Usage: scripts/calc_anchor.sh [CORE]     (CORE defaults to 0)
# Environment: SEEDS ("0 1 2"; "" skips the solves), BATCHES ("192"; "192 4096" for both of simdrl's benchmarks),
#   ROUNDS (5: every per-update benchmark runs once a round on each side, interleaved; medians over the rounds),
#   ITERS (torch timed updates at batch 192, 100; fewer at larger batches), BENCHTIME (go test's
#   -benchtime at batch 192, 300x; fewer at larger batches),
#   OPENBLAS_CORETYPE (the OpenBLAS kernels PyTorch runs; unset: the fastest, scripts/openblas_coretype.sh),
#   GLIBC_TUNABLES (for PyTorch; unset: malloc keeps what it frees, see below),
#   PYTHON (/usr/bin/python3), OUT (a folder to keep the JSON in; a temporary one otherwise).
# Run it on a quiet machine: every number is a wall-clock time.
set -euo pipefail
cd "$(dirname "$0")/.."
core=${1:-${CORE:-0}}
seeds=${SEEDS-"0 1 2"}  # SEEDS="" skips the solves
batches=${BATCHES:-192}
iters=${ITERS:-100}
rounds=${ROUNDS:-5}
benchtime=${BENCHTIME:-300x}
PY=${PYTHON:-/usr/bin/python3}
pin=(taskset -c "$core")
if [ -n "${OUT:-}" ]; then
	dir=$OUT
	mkdir -p "$dir"
else
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' EXIT
fi

echo "== CPU (core $core)"
lscpu | grep -E '^(Model name|CPU family|Model|Thread\(s\) per core|Core\(s\) per socket|CPU max MHz|L1d cache|L2 cache|L3 cache):' || true
echo "simdrl commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'); torch $("$PY" -c 'import torch; print(torch.__version__)'); $(go version)"

echo "== OpenBLAS's kernels for PyTorch"
# Other OPENBLAS_* settings from the caller's environment change what PyTorch
# runs (a sandbox was seen to preset OPENBLAS_CORETYPE=Haswell and
# OPENBLAS_L2_SIZE=512): say so, since the anchor is meant to be OpenBLAS at
# its best; unset them (env -u) to let this script choose.
env | grep '^OPENBLAS_' | sed 's/^/inherited: /' || true
if [ -z "${OPENBLAS_CORETYPE+set}" ]; then
	OPENBLAS_CORETYPE=$(scripts/openblas_coretype.sh "$core")
fi
if [ -n "$OPENBLAS_CORETYPE" ]; then
	export OPENBLAS_CORETYPE
else
	unset OPENBLAS_CORETYPE # empty is not OpenBLAS's own choice (it reads the features then): leave it unset
fi
echo "OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE-(unset: the library picks)}" | tee "$dir/coretype.txt"

echo "== glibc's malloc for PyTorch"
# PyTorch's CPU allocator is malloc. Its large tensors (B = 4096) are mmapped
# and unmapped on every update or trimmed back to the OS, so each update pays
# page faults again, at a cost that varies from run to run: at B = 4096,
# torch_update_bench.py's median took 119–211 ms in three runs without this
# and 117–122 ms in three with it, alternating (Zen 5, 2026-12-02). PyTorch's
# best is the anchor, so malloc keeps what it frees.
if [ -z "${GLIBC_TUNABLES+set}" ]; then
	export GLIBC_TUNABLES=glibc.malloc.mmap_threshold=2147483647:glibc.malloc.trim_threshold=4294967295
fi
echo "GLIBC_TUNABLES=$GLIBC_TUNABLES" | tee "$dir/tunables.txt"

echo "== single-core FMA peaks"
gcc -O2 -mavx2 -mfma -mavx512f scripts/peak.c -o "$dir/peak"
"${pin[@]}" "$dir/peak" | tee "$dir/peak.txt"

go build -o "$dir/simdrl" ./cmd/simdrl
go test -c -o "$dir/cpu.test" ./cpu
: >"$dir/gobench.txt"
: >"$dir/torchbench.jsonl"
: >"$dir/seedbench.txt"
: >"$dir/torchseed.jsonl"
# ROUNDS rounds, each running every per-update benchmark once on each side,
# back to back (simdrl, then PyTorch, batch by batch): the VM's speed drifts
# by 10% and more within minutes, which a ratio of two runs taken minutes
# apart would measure instead. The ratios below are of the medians over the
# rounds, with the range of the rounds' own ratios beside them.
for round in $(seq "$rounds"); do
	for b in $batches; do
		echo "== round $round: per update, calc, batch $b, T = 13"
		n=${benchtime%x}
		bt=$benchtime
		if [ "$n" != "$benchtime" ]; then bt="$(( n * 192 / b > 20 ? n * 192 / b : 20 ))x"; fi
		it=$(( iters * 192 / b > 10 ? iters * 192 / b : 10 ))
		"${pin[@]}" "$dir/cpu.test" -test.run "^$" -test.bench "CalcUpdate/B=$b/" -test.benchtime "$bt" | tee -a "$dir/gobench.txt"
		"${pin[@]}" "$PY" scripts/torch_calc.py --bench-update --batch "$b" --threads 1 --iters "$it" | tee -a "$dir/torchbench.jsonl"
	done
	for b in $batches; do
		echo "== round $round: per update, the seed task under the seed script's recipe (every step, sum baseline), batch $b"
		"${pin[@]}" "$dir/cpu.test" -test.run "^$" -test.bench "ReferenceRecipeUpdate/B=$b/" | tee -a "$dir/seedbench.txt"
		"${pin[@]}" "$PY" scripts/torch_update_bench.py --device cpu --batches "$b" --iters 20 --threads 1 | tee -a "$dir/torchseed.jsonl"
	done
done
echo "== single-core FMA peaks, after the rounds"
"${pin[@]}" "$dir/peak" | tee "$dir/peak_after.txt"

echo "== time to solve (stop rule), seeds: $seeds"
rm -f "$dir/go_solve.jsonl" "$dir/torch_solve.jsonl"
for s in $seeds; do
	"${pin[@]}" "$dir/simdrl" -task calc -seed "$s" -threads 1 -quiet -report "$dir/go_solve_$s.json" >/dev/null
	"$PY" -c 'import json,sys; r=json.load(open(sys.argv[1])); print(json.dumps(dict(engine="simdrl", seed=int(sys.argv[2]), updates=r["updates"], wall_seconds=r["wall_seconds"], train_seconds=r["train_seconds"], final_solve_rate=r["final"]["solve_rate"], backend=r["backend"])))' \
		"$dir/go_solve_$s.json" "$s" | tee -a "$dir/go_solve.jsonl"
	"${pin[@]}" "$PY" scripts/torch_calc.py --solve --seed "$s" --threads 1 | tee -a "$dir/torch_solve.jsonl"
done

echo "== ratios (PyTorch / simdrl)"
"$PY" - "$dir" <<'PYEOF'
import json, re, statistics, sys
d = sys.argv[1]
peaks = dict(re.findall(r"(peak_\w+) (\S+)", open(f"{d}/peak.txt").read()))
after = dict(re.findall(r"(peak_\w+) (\S+)", open(f"{d}/peak_after.txt").read()))
def ratios(label, go, torch, extra=None):
    """go, torch: {batch: [ms per round]}, in round order; prints medians and ratios."""
    for b in sorted(torch):
        if b not in go:
            continue
        if len(go[b]) != len(torch[b]):
            # The rounds' ratios pair run i with run i: a run that printed
            # nothing would shift every pair after it.
            sys.exit(f"calc_anchor.sh: {label}, batch {b}: {len(go[b])} simdrl runs against {len(torch[b])} PyTorch runs")
        g, t = statistics.median(go[b]), statistics.median(torch[b])
        per = [tr / gr for gr, tr in zip(go[b], torch[b])]
        more = extra(b) if extra else ""
        print(f"{label}, batch {b}: simdrl {g:.3f} ms, PyTorch {t:.3f} ms{more} (medians of {len(go[b])} and {len(torch[b])} rounds) "
              f"-> ratio {t / g:.1f}x (rounds {min(per):.1f}-{max(per):.1f}x)")
print(f"peaks (GFLOP/s), before and after the rounds: avx2 {peaks.get('peak_avx2_fma_gflops')} and {after.get('peak_avx2_fma_gflops')}, "
      f"avx512 {peaks.get('peak_avx512_fma_gflops')} and {after.get('peak_avx512_fma_gflops')}")
# The peak of the widest unit the backend may use: AVX-512's where the CPU has it.
unit = "peak_avx512_fma_gflops" if "peak_avx512_fma_gflops" in peaks else "peak_avx2_fma_gflops"
peak = (float(peaks[unit]) + float(after[unit])) / 2
go_ms, parts = {}, {}
for b, m in re.findall(r"CalcUpdate/B=(\d+)/\S*\s.*?([\d.]+) ms/update", open(f"{d}/gobench.txt").read()):
    go_ms.setdefault(int(b), []).append(float(m))
torch_ms = {}
for line in open(f"{d}/torchbench.jsonl"):
    tb = json.loads(line)
    torch_ms.setdefault(tb["batch"], []).append(tb["median_ms"])
    parts.setdefault(tb["batch"], []).append(tb)
def calc_parts(b):
    med = lambda k: statistics.median(p[k] for p in parts[b])
    return (f" (rollout {med('rollout_ms'):.3f}: draw {med('draw_ms'):.3f}, policy {med('policy_rollout_ms'):.3f}, "
            f"scoring {med('score_ms'):.3f}; loss and backward {med('backward_ms'):.3f}; clip and Adam {med('step_ms'):.3f})")
ratios("calc per update", go_ms, torch_ms, calc_parts)
seed_ms, torch_seed = {}, {}
for b, m in re.findall(r"ReferenceRecipeUpdate/B=(\d+)/\S*\s.*?([\d.]+) ms/update", open(f"{d}/seedbench.txt").read()):
    seed_ms.setdefault(int(b), []).append(float(m))
for line in open(f"{d}/torchseed.jsonl"):
    tb = json.loads(line)
    torch_seed.setdefault(tb["batch"], []).append(tb["median_ms"])
ratios("seed task per update (the seed script's recipe)", seed_ms, torch_seed)
gflops = {}
for b, g in re.findall(r"ReferenceRecipeUpdate/B=(\d+)/\S*\s+\d+\s+\d+ ns/op\s+([\d.]+) GFLOP/s", open(f"{d}/seedbench.txt").read()):
    gflops.setdefault(int(b), []).append(float(g))
for b in sorted(gflops):
    g = statistics.median(gflops[b])
    print(f"whole update, the seed script's recipe, batch {b}: {g:.1f} GFLOP/s (median of {len(gflops[b])}; "
          f"{min(gflops[b]):.1f}-{max(gflops[b]):.1f}) = {100 * g / peak:.1f}% of {peak:.1f} ({unit}, mean of before and after)")
def lines(name):
    try:
        return [json.loads(l) for l in open(f"{d}/{name}")]
    except FileNotFoundError:
        return []
go, tc = lines("go_solve.jsonl"), lines("torch_solve.jsonl")
if not go:
    sys.exit(0)
for g, t in zip(go, tc):
    print(f"seed {g['seed']}: simdrl {g['updates']} updates {g['wall_seconds']:.2f} s wall ({g['train_seconds']:.2f} s training); "
          f"PyTorch {t['updates']} updates {t['wall_seconds']:.2f} s wall ({t['train_seconds']:.2f} s training), solved {t['solved']}, "
          f"final {['%.3f' % x for x in t['final_solve_rate']]} -> ratio {t['wall_seconds'] / g['wall_seconds']:.1f}x")
gw, tw = sum(g["wall_seconds"] for g in go), sum(t["wall_seconds"] for t in tc)
print(f"time to solve, all seeds: simdrl {gw:.2f} s, PyTorch {tw:.2f} s -> ratio {tw / gw:.1f}x; "
      f"updates: simdrl {[g['updates'] for g in go]}, PyTorch {[t['updates'] for t in tc]}")
PYEOF
