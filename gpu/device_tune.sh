#!/usr/bin/env bash
# device_tune.sh: which rollout/backward tile wins on this GPU. Runs the shapes
# test and times whole updates under each SIMDRL_GPU_TILE variant (and the
# planner's default), on a GPU machine with out/ prepared by
# gpu/prepare_device_check.sh. TILES and BATCHES override the lists.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/simdrl-gpu}
mkdir -p "$OUT"
TILES=${TILES:-default 8x4:l1 4x4 4x4:l1 8x2}
BATCHES=${BATCHES:-4096,65536}
export SIMDRL_GOLDEN_DIR="$PWD/testdata/golden"
: >"$OUT/tune.log"
for tile in $TILES; do
	t=$tile; [ "$t" = default ] && t=
	echo "=== tile ${tile}" | tee -a "$OUT/tune.log"
	SIMDRL_GPU_TILE=$t SIMDRL_TEST_REQUIRE=cuda timeout 60 ./out/gpu.test -test.run '^TestGPUShapesMatchCPU$' -test.count=1 >>"$OUT/tune.log" 2>&1 \
		&& echo "shapes test PASS" || echo "shapes test FAIL"
	SIMDRL_GPU_TILE=$t timeout 90 ./out/gpu.test -test.run '^$' -test.bench "^BenchmarkGPUUpdate\$/^B=(${BATCHES//,/|})\$" >"$OUT/tune.tmp" 2>&1
	cat "$OUT/tune.tmp" >>"$OUT/tune.log"
	grep -E '^BenchmarkGPUUpdate' "$OUT/tune.tmp" | grep -oE '^\S+|[0-9.e+]+ (ms/update|steps/s|simdrl_(rollout|backward|gemm)\S*)' | tr '\n' ' '
	echo
done
rm -f "$OUT/tune.tmp"
