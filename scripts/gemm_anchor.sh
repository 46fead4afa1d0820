#!/usr/bin/env bash
# gemm_anchor.sh: simdrl's GEMMs on the model's shapes (kernels' BenchmarkSgemm,
# the backend dispatch picks) against OpenBLAS's single-thread sgemm on the same
# shapes and forms, pinned to one core, with the core's FMA peaks taken before
# and after, as one Markdown table (BENCHMARKS.md's GEMM tables):
#   form | M×N×K | simdrl median of COUNT (min–max) | OpenBLAS best core type (its GFLOP/s)
#   | simdrl median / OpenBLAS | simdrl best / OpenBLAS | % of the peak of the widest unit the backend may use
# OpenBLAS runs each shape under its own choice of kernels and under each of
# CORETYPES, best of its 7 rounds each; the best of those is the anchor.
# Usage: scripts/gemm_anchor.sh [CORE]   (CORE defaults to 0)
# Environment: COUNT (5), BENCHTIME (200ms), CORETYPES ("Haswell SkylakeX Cooperlake SapphireRapids"),
#   OUT (a folder to keep the raw output in; a temporary one otherwise).
# OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE from the caller's environment are
# ignored (a sandbox was seen to preset both).
set -euo pipefail
cd "$(dirname "$0")/.."
core=${1:-0}
count=${COUNT:-5}
benchtime=${BENCHTIME:-200ms}
coretypes=${CORETYPES:-"Haswell SkylakeX Cooperlake SapphireRapids"}
if [ -n "${OUT:-}" ]; then
	dir=$OUT
	mkdir -p "$dir"
else
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' EXIT
fi
pin=(taskset -c "$core")
lib=/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas.so.0
[ -e "$lib" ] || lib=-lopenblas
gcc -O2 scripts/openblas_sgemm.c -o "$dir/openblas_sgemm" "$lib"
gcc -O2 -mavx2 -mfma -mavx512f scripts/peak.c -o "$dir/peak"
go test -c -o "$dir/kernels.test" ./kernels

echo "CPU: $(lscpu | sed -n 's/^Model name: *//p'), family $(lscpu | sed -n 's/^CPU family: *//p') model $(lscpu | sed -n 's/^Model: *//p'); core $core; commit $(git rev-parse --short HEAD); backend $("$dir/kernels.test" -test.run '^TestRequiredBackendIsInUse$' -test.v 2>/dev/null | sed -n 's/.*backend \([a-z0-9]*\).*/\1/p' | head -1)"
"${pin[@]}" "$dir/peak" | tee "$dir/peak_before.txt"
"${pin[@]}" "$dir/kernels.test" -test.run '^$' -test.bench '^BenchmarkSgemm$' \
	-test.count "$count" -test.benchtime "$benchtime" | tee "$dir/simdrl.txt" | grep -c '^Benchmark' | sed 's/^/simdrl runs: /'
"${pin[@]}" "$dir/peak" | tee "$dir/peak_after.txt"

# The peak of the widest unit: AVX-512's where the CPU has it (the avx512 backend may use it).
peak=$(cat "$dir/peak_before.txt" "$dir/peak_after.txt" | awk '
	/avx512/ {z += $2; nz++} /avx2/ {y += $2; ny++}
	END {if (nz) printf "%.1f", z/nz; else printf "%.1f", y/ny}')
echo "peak (mean of before and after, widest unit): $peak GFLOP/s"
echo
# Two ratios: simdrl's median against OpenBLAS's best (the stricter), and
# best against best (the same statistic on both sides: on a VM whose speed
# drifts by 10% and more, the median of 5 sits below a best of 35 even
# where the two are equal).
echo "| form | M×N×K | simdrl, median of $count (min–max) | OpenBLAS, best (core type) | median / OpenBLAS | best / OpenBLAS | % of peak ($peak) |"
echo "|---|---|---|---|---|---|---|"
# Benchmark lines: BenchmarkSgemm/NN/96x288x96  N  ns/op  G GFLOP/s
awk '/^BenchmarkSgemm\// {split($1, p, "/"); sub(/-[0-9]+$/, "", p[3]); print p[2], p[3], $5}' "$dir/simdrl.txt" |
	sort -k1,1 -k2,2 -s | awk '
	{key = $1 " " $2; if (key != last && last != "") flush(); last = key; v[n++] = $3}
	function flush(   i, j, t, med) {
		for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) if (v[j] < v[i]) {t = v[i]; v[i] = v[j]; v[j] = t}
		med = (n % 2) ? v[(n-1)/2] : (v[n/2-1] + v[n/2]) / 2
		printf "%s %.1f %.1f %.1f\n", last, med, v[0], v[n-1]; n = 0
	}
	END {flush()}' >"$dir/medians.txt"
while read -r form shape med lo hi; do
	read -r m n k <<<"${shape//x/ }"
	best=0 bestct=""
	for ct in own $coretypes; do
		if [ "$ct" = own ]; then run=(env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE); else run=(env -u OPENBLAS_L2_SIZE OPENBLAS_CORETYPE="$ct"); fi
		g=$(OPENBLAS_NUM_THREADS=1 "${run[@]}" "${pin[@]}" "$dir/openblas_sgemm" "$m" "$n" "$k" "$form" | awk '{print $(NF-1)}')
		echo "$form $shape $ct $g" >>"$dir/openblas.txt"
		if awk -v a="$g" -v b="$best" 'BEGIN {exit !(a > b)}'; then best=$g bestct=$ct; fi
	done
	awk -v f="$form" -v s="$shape" -v med="$med" -v lo="$lo" -v hi="$hi" -v ob="$best" -v ct="$bestct" -v pk="$peak" 'BEGIN {
		sub(/x/, "×", s); sub(/x/, "×", s)
		printf "| %s | %s | %.1f (%.1f–%.1f) | %.1f (%s) | %.2f× | %.2f× | %.0f%% |\n", f, s, med, lo, hi, ob, ct, med/ob, hi/ob, 100*med/pk}'
done <"$dir/medians.txt"
