#!/usr/bin/env bash
# device_check.sh: the GPU checks and timings of issue 6, on a machine with an
# NVIDIA GPU and PyTorch but no Go. It builds nothing: prepare, on a build
# machine, from the repository root:
#
#   go test -c -o out/gpu.test ./gpu/
#   go build -o out/simdrl ./cmd/simdrl
#   cp ../shared/bench/torch_seed_bench.py ../shared/reference/seed.py out/
#
# then run from the repository root on the GPU machine (out/ carried along):
#
#   bash gpu/device_check.sh            # logs under $OUT (default /tmp/simdrl-gpu)
#
# BATCHES (default 192,4096,65536,262144) and TORCH_ITERS tune the timings.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/simdrl-gpu}
mkdir -p "$OUT"
BATCHES=${BATCHES:-192,4096,65536,262144}
export SIMDRL_GOLDEN_DIR="$PWD/testdata/golden"
for f in out/gpu.test out/simdrl out/torch_seed_bench.py out/seed.py; do
	[ -e "$f" ] || { echo "device_check: $f missing (see the header of this script)"; exit 2; }
done
(nvidia-smi; nvidia-smi -q | grep -iE 'driver version|cuda version|product name') >"$OUT/nvidia-smi.txt" 2>&1

echo "=== GPU tests (SIMDRL_TEST_REQUIRE=cuda: a missing GPU fails)"
SIMDRL_TEST_REQUIRE=cuda timeout 300 ./out/gpu.test -test.v -test.count=1 -test.timeout 280s 2>&1 | tee "$OUT/gpu_tests.log"
tests_rc=${PIPESTATUS[0]}

echo "=== simdrl update timings on the GPU"
SIMDRL_GPU_BENCH=$BATCHES timeout 240 ./out/gpu.test -test.run '^TestGPUTiming$' -test.v -test.count=1 2>&1 | tee "$OUT/gpu_timing.log"

echo "=== simdrl -device cuda, the seed recipe end to end"
timeout 120 ./out/simdrl -device cuda -recipe seed -report "$OUT/seed_cuda.json" >"$OUT/simdrl_seed_cuda.log" 2>&1
echo "exit $? (log in simdrl_seed_cuda.log)"; tail -4 "$OUT/simdrl_seed_cuda.log"

echo "=== PyTorch (seed.py, --fix-broadcast) update timings on the GPU"
: >"$OUT/torch.log"
for B in ${BATCHES//,/ }; do
	iters=${TORCH_ITERS:-$([ "$B" -le 4096 ] && echo 10 || echo 2)}
	PYTHONUNBUFFERED=1 timeout 300 python3 out/torch_seed_bench.py out/seed.py --device cuda --fix-broadcast --batches "$B" --parts full --iters "$iters" 2>&1 | tee -a "$OUT/torch.log"
done

echo "=== summary"
python3 - "$OUT" <<'PY' | tee "$OUT/table.txt"
import json, re, sys, os
out = sys.argv[1]
gpu = {}
for line in open(os.path.join(out, "gpu_timing.log"), errors="replace"):
    m = re.search(r"^timing batch=(\d+) ms_per_update=([\d.]+) policy_steps_per_s=([\d.e+]+)", line)
    if m: gpu[int(m.group(1))] = (float(m.group(2)), float(m.group(3)))
torch = {}
for line in open(os.path.join(out, "torch.log"), errors="replace"):
    if line.startswith("{"):
        try: r = json.loads(line)
        except ValueError: continue
        if r.get("part") == "full_update": torch[r["batch"]] = 1e3 * r["median_s"]
print("| batch | simdrl cuda ms/update | policy steps/s | PyTorch cuda ms/update | speed-up | goal |")
print("|---|---|---|---|---|---|")
for B in sorted(set(gpu) | set(torch)):
    g, t = gpu.get(B), torch.get(B)
    ms = f"{g[0]:.3f}" if g else "—"; sps = f"{g[1]/1e6:.1f} M" if g else "—"
    tm = f"{t:.2f}" if t else "—"; su = f"{t/g[0]:.0f}×" if g and t else "—"
    goal = "≥ 50× PyTorch" if B == 192 else ("≥ 100 M steps/s" if B >= 65536 else "")
    print(f"| {B} | {ms} | {sps} | {tm} | {su} | {goal} |")
PY
echo "GPU tests exit code: $tests_rc"
exit $tests_rc
