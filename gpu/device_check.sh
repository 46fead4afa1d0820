#!/usr/bin/env bash
# device_check.sh: the GPU checks and timings of issues 6, 13 (the calc task)
# and 14 (and the CPU thread scaling of issue 5), the expr task's contracts
# (shown contexts, items, records, replays: shown_test.go) and the tape
# task's machine (tape_test.go, two runs), on a machine with an NVIDIA GPU
# and PyTorch but no Go.
# It builds nothing: prepare, on a build machine, from the repository root:
#
#   gpu/prepare_device_check.sh      # builds out/: gpu.test, cpu.test, simdrl, peak, the PyTorch bench and peers
#
# then run from the repository root on the GPU machine (out/ carried along):
#
#   bash gpu/device_check.sh         # logs under $OUT (default /tmp/simdrl-gpu)
#
# PARTS (default gpu,timing,runs,torch,peers,cpu,cpuscale) picks what runs
# (SANITIZERS=0 leaves compute-sanitizer's passes out of gpu); BATCHES (default
# 192,4096,65536,262144) the timed batch sizes; TORCH_BATCHES those for PyTorch and
# the peers (peers: JAX in PureJaxRL's style at 1 and 100 updates a call, PyTorch
# eager, in one CUDA graph and compiled; JAX_MULTI_BATCHES, default TORCH_BATCHES
# without 262144, those for 100 updates a call). At most 8 files are written to $OUT
# (the peers' lines go to torch.log).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/simdrl-gpu}
mkdir -p "$OUT"
PARTS=${PARTS:-gpu,timing,runs,torch,peers,cpu,cpuscale}
BATCHES=${BATCHES:-192,4096,65536,262144}
TORCH_BATCHES=${TORCH_BATCHES:-$BATCHES}
JAX_MULTI_BATCHES=${JAX_MULTI_BATCHES:-$(echo ",$TORCH_BATCHES," | sed 's/,262144,/,/g; s/^,//; s/,$//')}
export SIMDRL_GOLDEN_DIR="$PWD/testdata/golden"
export SIMDRL_GOLDEN_OBS_DIR="$PWD/testdata/golden-obs"
export SIMDRL_GOLDEN_READ_DIR="$PWD/testdata/golden-read" SIMDRL_GOLDEN_READ_OBS_DIR="$PWD/testdata/golden-read-obs"
export SIMDRL_GOLDEN_RLOO_DIR="$PWD/testdata/golden-rloo" SIMDRL_GOLDEN_GRPO_DIR="$PWD/testdata/golden-grpo" SIMDRL_GOLDEN_DRGRPO_DIR="$PWD/testdata/golden-drgrpo"
has() { [[ ",$PARTS," == *",$1,"* ]]; }
for f in out/gpu.test out/cpu.test out/simdrl out/peak out/torch_update_bench.py out/simdrl_torch.py out/simdrl_env.py \
	out/torch_peers_bench.py out/jax_update_bench.py out/simdrl_xp.py out/peers_check.py; do
	[ -e "$f" ] || { echo "device_check: $f missing (run gpu/prepare_device_check.sh first)"; exit 2; }
done
# The driver library may live outside the loader's path (a mounted driver folder).
if ! ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 '; then
	lib=$(find /usr/local/nvidia /usr/lib /usr/lib64 /usr/local/cuda* -name 'libcuda.so.1' 2>/dev/null | head -1)
	[ -n "$lib" ] && export LD_LIBRARY_PATH="$(dirname "$lib")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
{
	date -u; nvidia-smi; nvidia-smi -q | grep -iE 'driver version|cuda version|product name'
	echo "--- CPU"; lscpu | grep -E 'Model name|^CPU\(s\)|Thread|Core|Socket|NUMA|MHz|L3'
} >"$OUT/machine.txt" 2>&1
summary=()
fail=0

if has gpu; then
	echo "=== GPU tests, one process each (SIMDRL_TEST_REQUIRE=cuda: a missing GPU fails)"
	: >"$OUT/gpu_tests.log"
	for t in TestGPUTasksAndUniforms TestGPUEnvGolden TestGPUGoldenModel TestGPUGreedyMatchesCPU TestGPUShapesMatchCPU TestGPUTrainingMatchesCPU TestGPURun TestGPUCheckpoints \
		TestGPULoadActsAsSaved TestGPUCalcScoresAsCPU TestGPUCalcGreedyMatchesCPU TestGPUCalcTrainingMatchesCPU \
		TestGPUGoldenObservations TestGPUObservingStepsAsCPU TestGPUObservingGradientsAsCPU TestGPUObservingTrainingMatchesCPU \
		TestGPUGoldenReading TestGPUReadingGradientsAsCPU TestGPUReadingTrainingMatchesCPU \
		TestGPUShownContextsAsCPU TestGPUShownUpdate TestGPUShownTrainingMatchesCPU TestGPURecordsSeedEpisodes TestGPURefusesItemsOfOtherTasks TestGPUReplayInterrupted \
		TestGPUOneLevelTrainingMatchesCPU TestGPUContextEndIsTheTasks TestGPUTapeScorer TestGPUTapeTrainingMatchesCPU TestGPUTapeShuntingYardModel \
		TestGPUPPOMatchesCPU TestGPUPPOInterruptRestores \
		TestGPUEstimatorsMatchCPU TestGPUGoldenEstimators TestGPUGroupSharesInstance TestGPUHostDrawAllocatesNothing \
		TestGPUHostSteppedTrainingMatchesCPU TestGPUHostSteppedIsTheNativeRollout TestGPUHostSteppedRolloutStopsWhenAllAreDone \
		TestGPUHostSteppedBuffersReused TestGPUHostSteppedTaskPanics TestGPUMaskedGoGameMatchesCPU \
		TestGPUFieldsMatchCPU TestGPUCountdownFieldsMatchCPU TestGPUFieldsReachTheLogits TestGPURefusesABadField \
		TestGPUStoppingRolloutIsBitForBit TestGPURolloutStopsWhenItsEpisodesAreDone; do
		SIMDRL_TEST_REQUIRE=cuda timeout 60 ./out/gpu.test -test.run "^$t\$" -test.v -test.count=1 >"$OUT/test.tmp" 2>&1
		rc=$?
		cat "$OUT/test.tmp" >>"$OUT/gpu_tests.log"
		summary+=("$(printf '%-28s %s' "$t" "$([ $rc = 0 ] && echo PASS || echo "FAIL (exit $rc)")")")
		echo "${summary[-1]}"
		if [ $rc != 0 ]; then
			fail=1
			grep -E 'Error:|rel err|expected|actual|gpu:|panic|Messages' "$OUT/test.tmp" | tail -14
			if command -v compute-sanitizer >/dev/null; then
				echo "--- compute-sanitizer memcheck on $t" | tee -a "$OUT/gpu_tests.log"
				SIMDRL_TEST_REQUIRE=cuda timeout 90 compute-sanitizer --tool memcheck --print-limit 20 ./out/gpu.test -test.run "^$t\$" -test.count=1 2>&1 | tail -60 | tee -a "$OUT/gpu_tests.log" | grep -E 'Invalid|at 0x|by thread|Address|ERROR SUMMARY' | head -12
			fi
		fi
	done
	if [ "${SANITIZERS:-1}" = 1 ] && command -v compute-sanitizer >/dev/null; then
		for tool in memcheck racecheck; do
			# The shapes test runs every tile plan (1 to 32 episodes a block) and vector tails.
			# The calc scoring test runs the op-table interpreter on every default level.
			echo "--- compute-sanitizer $tool on TestGPUGoldenModel, TestGPUShapesMatchCPU and TestGPUCalcScoresAsCPU" | tee -a "$OUT/gpu_tests.log"
			SIMDRL_TEST_REQUIRE=cuda timeout 150 compute-sanitizer --tool $tool --print-limit 20 ./out/gpu.test -test.run '^(TestGPUGoldenModel|TestGPUShapesMatchCPU|TestGPUCalcScoresAsCPU)$' -test.count=1 >"$OUT/sanitizer.tmp" 2>&1
			tail -40 "$OUT/sanitizer.tmp" >>"$OUT/gpu_tests.log"
			summary+=("$(printf '%-28s %s' "sanitizer $tool" "$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitizer.tmp" | tail -1)")")
			echo "${summary[-1]}"
		done
		rm -f "$OUT/sanitizer.tmp"
	fi
	rm -f "$OUT/test.tmp"
fi

if has timing; then
	echo "=== simdrl update timings on the GPU (seed recipe, level 0, as the PyTorch bench)"
	timeout 200 ./out/gpu.test -test.run '^$' -test.bench "^BenchmarkGPUUpdate\$/^B=(${BATCHES//,/|})\$" >"$OUT/gpu_timing.log" 2>&1
	python3 - "$OUT/gpu_timing.log" <<'PY'
import sys
for line in open(sys.argv[1]):
    if line.startswith("BenchmarkGPUUpdate/"):
        f = line.split()
        metrics = {f[i + 1]: f[i] for i in range(2, len(f) - 1, 2)}
        kern = sorted(((float(v), k[:-3]) for k, v in metrics.items() if k.endswith("-ms")), reverse=True)
        print(f[0], metrics["ms/update"], "ms/update", metrics["steps/s"], "steps/s |", ", ".join(f"{k} {v:.3f}" for v, k in kern))
PY
	grep -q '^PASS' "$OUT/gpu_timing.log" || { echo "BenchmarkGPUUpdate failed:"; tail -20 "$OUT/gpu_timing.log"; fail=1; }
fi

if has runs; then
	echo "=== simdrl -device cuda end to end"
	: >"$OUT/runs.log"
	run() {
		local name=$1; shift
		echo "--- simdrl $*" >>"$OUT/runs.log"
		local t0=$(date +%s.%N)
		timeout 60 ./out/simdrl "$@" >"$OUT/run.tmp" 2>&1
		local rc=$? t1=$(date +%s.%N)
		cat "$OUT/run.tmp" >>"$OUT/runs.log"
		local what
		what=$(grep -E 'Final greedy solve|updates in' "$OUT/run.tmp" | tail -2 | tr '\n' ' ' | tr -s ' ' | cut -c1-150)
		[ $rc = 0 ] || what=$(tail -2 "$OUT/run.tmp" | tr '\n' ' ' | cut -c1-200)
		rm -f "$OUT/run.tmp"
		summary+=("$(printf '%-28s exit %d, %.1f s wall: %s' "$name" $rc "$(awk "BEGIN{print $t1 - $t0}")" "$what")")
		echo "${summary[-1]}"
	}
	run "default (cuda)" -device cuda
	run "default (cuda) seed 1" -device cuda -seed 1
	run "seed recipe (cuda)" -device cuda -recipe seed
	run "default, batch 65536 (cuda)" -device cuda -batch 65536
	run "calc (cuda)" -device cuda -task calc -explain 0
	run "calc, observation curriculum (cuda)" -device cuda -task calc -task-spec 'levels=abs(a-b), max(a,b), abs(a-b)*c' -updates 300 -explain 0
	# Curricula of one level (one cumulative weight): calc's a*b, expr's one size.
	run "calc, one level (cuda)" -device cuda -task calc -levels 'a*b' -updates 200 -explain 0
	run "expr, one size (cuda)" -device cuda -task expr -task-spec leaves=2 -updates 100 -explain 0
	# The tape's machine (tape.cuh) in the rollout, rollouts of its longest budget (221 steps).
	run "tape, branching (cuda)" -device cuda -task tape -task-spec 'partial_credit=0.3; branching=on' -updates 300 -explain 0
	run "tape (cuda)" -device cuda -task tape -updates 300 -explain 0
	run "default (cpu, all threads)" -device cpu
fi

if has torch; then
	echo "=== PyTorch (scripts/torch_update_bench.py: simdrl's model, vectorised scoring) update timings on the GPU"
	: >"$OUT/torch.log"
	for B in ${TORCH_BATCHES//,/ }; do
		iters=$([ "$B" -le 4096 ] && echo 10 || echo 2)
		[ "$B" -gt 65536 ] && iters=1
		PYTHONUNBUFFERED=1 timeout 90 python3 out/torch_update_bench.py --device cuda --batches "$B" --iters "$iters" 2>&1 | tee -a "$OUT/torch.log" | grep full_update
	done
fi

if has peers; then
	# Each under its own timeout, its output appended to torch.log; a peer
	# that fails or runs out of time costs only its own lines.
	echo "=== peers on the GPU: the same update (seed recipe, level 0) in JAX and PyTorch, logged to torch.log"
	has torch || : >"$OUT/torch.log"
	peer() {
		local name=$1 limit=$2; shift 2
		echo "--- $name: $*" >>"$OUT/torch.log"
		PYTHONUNBUFFERED=1 timeout "$limit" "$@" >"$OUT/peer.tmp" 2>&1
		local rc=$?
		cat "$OUT/peer.tmp" >>"$OUT/torch.log"
		python3 - "$OUT/peer.tmp" <<'PY'
import json, sys
for line in open(sys.argv[1], errors="replace"):
    if line.startswith("{"):
        try: r = json.loads(line)
        except ValueError: continue
        if r.get("part") == "check":
            print(f"  {r.get('peer'):16} trains: " + (f"error {r['error']}" if "error" in r else
                  f"reward {r['reward_first']} -> {r['reward_last']} over 150 updates (B 512, lr 3e-3): " + ("ok" if r["ok"] else "FAILED")))
            continue
        n = r.get("updates_per_call", 1)
        name = r.get("peer", "?") + (f" x{n}" if n > 1 else "")
        print(f"  {name:16} B={r.get('batch')}: " + (f"error {r['error']}" if "error" in r else
              f"{r['median_ms']} ms/update, {r['steps_per_s'] / 1e6:.2f} M steps/s, reward {r.get('reward_start')} -> {r.get('reward_end')}"))
PY
		local what="PASS"
		[ $rc = 124 ] && what="timed out after ${limit} s"
		[ $rc != 0 ] && [ $rc != 124 ] && what="exit $rc: $(grep -v '^{' "$OUT/peer.tmp" | tail -1 | cut -c1-160)"
		[ "$what" = "exit $rc: " ] && what="exit $rc (a check or batch failed: the lines above)"
		summary+=("$(printf '%-28s %s' "$name" "$what")")
		echo "${summary[-1]}"
		rm -f "$OUT/peer.tmp"
	}
	peer "jax, 1 update a call" 150 python3 out/jax_update_bench.py --check --batches "$TORCH_BATCHES" --updates-per-call 1 --iters 30 --budget-s 2
	[ -n "$JAX_MULTI_BATCHES" ] && peer "jax, 100 updates a call" 100 python3 out/jax_update_bench.py --batches "$JAX_MULTI_BATCHES" --updates-per-call 100 --iters 5 --budget-s 3
	peer "torch eager and CUDA graph" 50 python3 out/torch_peers_bench.py --check --peers eager,graph --batches "$TORCH_BATCHES" --iters 30 --budget-s 2
	peer "torch.compile" 120 python3 out/torch_peers_bench.py --peers compile --batches "$TORCH_BATCHES" --iters 30 --budget-s 2
fi

if has cpu; then
	echo "=== CPU: trainer updates at 1..16 threads (issue 5)"
	GOMAXPROCS=$(nproc) timeout 150 ./out/cpu.test -test.run '^$' -test.bench '^BenchmarkUpdate$/B=(4096|65536)/' -test.benchtime 3x -test.count 3 >"$OUT/cpu_threads.log" 2>&1
	grep -E '^Benchmark|^cpu:' "$OUT/cpu_threads.log" | awk '{print $1, $2, $3, $4}'
fi

if has cpuscale; then
	# What the hardware allows: one core alone against every core busy with
	# the same single-threaded work (turbo, shared caches and memory, the
	# host's other tenants), for the FMA peak and for a one-thread update.
	n=$(nproc)
	echo "=== CPU: one core alone vs all $n busy"
	{
		echo "--- peak, core 0 alone"; taskset -c 0 ./out/peak
		echo "--- peak, $n copies at once (one per core)"
		for c in $(seq 0 $((n - 1))); do taskset -c $c ./out/peak >/tmp/peak.$c & done; wait; cat /tmp/peak.*
		for B in 4096 65536; do
			iters=$([ $B = 4096 ] && echo 10x || echo 2x)
			echo "--- update B=$B threads=1, core 0 alone"
			taskset -c 0 ./out/cpu.test -test.run '^$' -test.bench "^BenchmarkUpdate\$/B=$B/threads=1\$" -test.benchtime $iters -test.count 3 | grep ^Benchmark
			echo "--- update B=$B threads=1, $n copies at once (one per core)"
			for c in $(seq 0 $((n - 1))); do taskset -c $c ./out/cpu.test -test.run '^$' -test.bench "^BenchmarkUpdate\$/B=$B/threads=1\$" -test.benchtime $iters >/tmp/upd.$c & done; wait; cat /tmp/upd.* | grep ^Benchmark
		done
	} >"$OUT/cpu_scale.log" 2>&1
	python3 - "$OUT/cpu_scale.log" <<'PY'
import re, sys, statistics
sec, vals = None, {}
for line in open(sys.argv[1]):
    if line.startswith("---"): sec = line.strip("- \n"); continue
    m = re.search(r"peak_avx2_fma_gflops ([\d.]+)", line) or re.search(r"\s(\d+) ns/op", line)
    if m and sec: vals.setdefault(sec, []).append(float(m.group(1)))
    m = re.search(r"peak_avx512_fma_gflops ([\d.]+)", line)  # scripts/peak.c, where the CPU has AVX-512F
    if m and sec: vals.setdefault(sec + " (avx512)", []).append(float(m.group(1)))
for k, v in vals.items():
    print(f"{k}: median {statistics.median(v):.4g} (min {min(v):.4g}, max {max(v):.4g}, n={len(v)})")
PY
fi

echo "=== summary"
python3 - "$OUT" <<'PY' | tee "$OUT/table.txt"
import json, re, sys, os, statistics
out = sys.argv[1]
def lines(name):
    p = os.path.join(out, name)
    return open(p, errors="replace").read().splitlines() if os.path.exists(p) else []
gpu = {}
for line in lines("gpu_timing.log"):
    m = re.match(r"BenchmarkGPUUpdate/B=(\d+)", line)
    if m:
        f = line.split()
        metrics = {f[i + 1]: float(f[i]) for i in range(2, len(f) - 1, 2)}
        gpu[int(m.group(1))] = (metrics["ms/update"], metrics["steps/s"])
peers, errors = {}, {}  # batch -> {peer: ms/update}; (peer, batch) -> error
for line in lines("torch.log"):
    if line.startswith("{"):
        try: r = json.loads(line)
        except ValueError: continue
        if r.get("part") != "full_update": continue
        n = r.get("updates_per_call", 1)
        name = r.get("peer", "torch nn.GRU") + (f" x{n}" if n > 1 else "")
        if "error" in r: errors[(name, r["batch"])] = r["error"]
        else: peers.setdefault(r["batch"], {})[name] = r["median_ms"]
order = ["torch nn.GRU", "torch-eager", "torch-compile", "torch-graph", "jax", "jax x100"]
names = order + sorted({k for v in peers.values() for k in v} - set(order))
names = [n for n in names if any(n in v for v in peers.values()) or any(n == e for e, _ in errors)]
goals = {192: 5, 4096: 5, 65536: 3, 262144: 3}  # issue 41: simdrl's speed-up over the best peer
if gpu or peers or errors:
    print("ms/update on the GPU, seed recipe level 0 (torch nn.GRU: torch_update_bench.py; x100: 100 updates a jitted call)")
    print("| batch | simdrl | simdrl steps/s | " + " | ".join(names) + " | best peer | simdrl speed-up | goal |")
    print("|---|---|---|" + "---|" * len(names) + "---|---|---|")
    for B in sorted(set(gpu) | set(peers) | {B for _, B in errors}):
        g, p = gpu.get(B), peers.get(B, {})
        ms = f"{g[0]:.3f}" if g else "—"; sps = f"{g[1]/1e6:.1f} M" if g else "—"
        cells = [f"{p[n]:.3f}" if n in p else ("error" if (n, B) in errors else "—") for n in names]
        best = min(p, key=p.get) if p else None
        su = p[best] / g[0] if g and best else None
        want = goals.get(B)
        goal = f"≥ {want}×" + (": met" if su and su >= want else ": not met" if su else "") if want else ""
        bp = f"{best} {p[best]:.3f}" if best else "—"
        print(f"| {B} | {ms} | {sps} | " + " | ".join(cells) + f" | {bp} | " + (f"{su:.1f}×" if su else "—") + f" | {goal} |")
    for (n, B), e in sorted(errors.items(), key=lambda x: (x[0][1], x[0][0])):
        print(f"  {n} B={B}: {e}")
cpu = {}
for line in lines("cpu_threads.log"):
    m = re.match(r"BenchmarkUpdate/B=(\d+)/threads=(\d+)-\d+\s+\d+\s+(\d+) ns/op", line)
    if m: cpu.setdefault((int(m.group(1)), int(m.group(2))), []).append(int(m.group(3)))
if cpu:
    print("\n| batch | threads | ms/update (median of runs) | speed-up vs 1 | efficiency |")
    print("|---|---|---|---|---|")
    for (B, n) in sorted(cpu):
        med = statistics.median(cpu[(B, n)]) / 1e6
        one = statistics.median(cpu.get((B, 1), [0])) / 1e6
        su = one / med if one else 0
        print(f"| {B} | {n} | {med:.1f} | {su:.2f}× | {100*su/n:.0f}% |")
PY
printf '%s\n' "${summary[@]}" | tee -a "$OUT/table.txt"
exit $fail
