#!/usr/bin/env bash
# gemm_anchor.sh: simdrl's GEMMs on the model's shapes (kernels' BenchmarkSgemm,
# the backend dispatch picks) against OpenBLAS's single-thread sgemm on the same
# shapes and forms, pinned to one core, with the core's FMA peaks taken before
# and after, as one Markdown table (docs/performance.md's GEMM tables).
# OpenBLAS runs each shape under its own choice of kernels and under each of
# CORETYPES once, and keeps the fastest for that shape. Then the two run
# interleaved, shape by shape, COUNT rounds: in each, simdrl runs the shape for
# BENCHTIME (its mean over the run) and OpenBLAS right after it (the median of
# its 7 timed rounds, scripts/openblas_sgemm.c). On a VM whose speed drifts
# by 10% and more within minutes, running all of one side before the other,
# or setting one side's median against the other's best of 35, measures the
# drift rather than the kernels.
# Columns: form | M×N×K | simdrl median of COUNT rounds (min–max) | OpenBLAS
#   likewise (its core type) | median / median |
#   best / best | % of the peak of the widest unit the backend may use.
# Usage: scripts/gemm_anchor.sh [CORE]   (CORE defaults to 0)
# Environment: COUNT (5), BENCHTIME (200ms), CORETYPES ("Haswell SkylakeX Cooperlake SapphireRapids"),
#   SHAPES (an extended regexp on "FORM/MxNxK", all of BenchmarkSgemm's by default),
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
# The shapes: one pass of every benchmark, one iteration each.
"$dir/kernels.test" -test.run '^$' -test.bench '^BenchmarkSgemm$' -test.benchtime 1x |
	awk '/^BenchmarkSgemm\// {split($1, p, "/"); sub(/-[0-9]+$/, "", p[3]); print p[2] "/" p[3]}' |
	grep -E "^(${SHAPES:-.*})$" | sort >"$dir/shapes.txt"
echo "shapes: $(wc -l <"$dir/shapes.txt"), rounds: $count"
: >"$dir/simdrl.txt"
: >"$dir/openblas.txt"
: >"$dir/coretypes.txt"
# openblas FORM M N K CT: OpenBLAS's GFLOP/s under core type CT ("own": its own choice).
openblas() {
	local run
	if [ "$5" = own ]; then run=(env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE); else run=(env -u OPENBLAS_L2_SIZE OPENBLAS_CORETYPE="$5"); fi
	OPENBLAS_NUM_THREADS=1 "${run[@]}" "${pin[@]}" "$dir/openblas_sgemm" "$2" "$3" "$4" "$1" median </dev/null | awk '{print $(NF-1)}'
}
# number WHAT VALUE: VALUE, or a clear error when a run printed no figure
# (a missing figure must not enter a median as 0).
number() {
	if ! [[ $2 =~ ^[0-9]+(\.[0-9]+)?$ ]]; then
		echo "gemm_anchor.sh: $1 printed no GFLOP/s figure" >&2
		exit 2
	fi
	echo "$2"
}
# OpenBLAS's kernels for each shape: the fastest core type in one pass over all.
while IFS=/ read -r form shape; do
	read -r m n k <<<"${shape//x/ }"
	best=0 bestct=""
	for ct in own $coretypes; do
		o=$(number "OpenBLAS $form $shape ($ct)" "$(openblas "$form" "$m" "$n" "$k" "$ct")")
		if awk -v a="$o" -v b="$best" 'BEGIN {exit !(a > b)}'; then best=$o bestct=$ct; fi
	done
	echo "$form/$shape $bestct" >>"$dir/coretypes.txt"
done <"$dir/shapes.txt"
# The rounds: each shape once on each side, back to back.
for _ in $(seq "$count"); do
	while read -r name ct; do
		form=${name%%/*} shape=${name#*/}
		read -r m n k <<<"${shape//x/ }"
		g=$("${pin[@]}" "$dir/kernels.test" -test.run '^$' -test.bench "^BenchmarkSgemm\$/^$form\$/^$shape\$" \
			-test.benchtime "$benchtime" </dev/null | awk '/^BenchmarkSgemm\// {print $5}') || true # number says what failed
		g=$(number "simdrl $form $shape" "$g") # an assignment, so that set -e stops the script
		o=$(number "OpenBLAS $form $shape ($ct)" "$(openblas "$form" "$m" "$n" "$k" "$ct")")
		echo "$form $shape $g" >>"$dir/simdrl.txt"
		echo "$form $shape $o $ct" >>"$dir/openblas.txt"
	done <"$dir/coretypes.txt"
done
"${pin[@]}" "$dir/peak" | tee "$dir/peak_after.txt"

# The peak of the widest unit: AVX-512's where the CPU has it (the avx512 backend may use it).
peak=$(cat "$dir/peak_before.txt" "$dir/peak_after.txt" | awk '
	/avx512/ {z += $2; nz++} /avx2/ {y += $2; ny++}
	END {if (nz) printf "%.1f", z/nz; else printf "%.1f", y/ny}')
echo "peak (mean of before and after, widest unit): $peak GFLOP/s"
echo
echo "| form | M×N×K | simdrl, median of $count (min–max) | OpenBLAS, median of $count (min–max; core type) | median / median | best / best | % of peak ($peak) |"
echo "|---|---|---|---|---|---|---|"
# stats FILE: "form shape median min max [4th field]" per shape (the 4th, the
# core type, is the same on every line of a shape).
stats() {
	sort -k1,1 -k2,2 -s "$1" | awk '
	{key = $1 " " $2; if (key != last && last != "") flush(); last = key; v[n++] = $3; ct = $4}
	function flush(   i, j, t, med) {
		for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) if (v[j] < v[i]) {t = v[i]; v[i] = v[j]; v[j] = t}
		med = (n % 2) ? v[(n-1)/2] : (v[n/2-1] + v[n/2]) / 2
		printf "%s %.1f %.1f %.1f %s\n", last, med, v[0], v[n-1], ct; n = 0
	}
	END {flush()}'
}
join -j 1 <(stats "$dir/simdrl.txt" | awk '{print $1 "/" $2, $3, $4, $5}') \
	<(stats "$dir/openblas.txt" | awk '{print $1 "/" $2, $3, $4, $5, $6}') |
	awk -v pk="$peak" '{
		split($1, f, "/"); s = f[2]; sub(/x/, "×", s); sub(/x/, "×", s)
		printf "| %s | %s | %.1f (%.1f–%.1f) | %.1f (%.1f–%.1f; %s) | %.2f× | %.2f× | %.0f%% |\n",
			f[1], s, $2, $3, $4, $5, $6, $7, $8, $2/$5, $4/$7, 100*$2/pk}'
