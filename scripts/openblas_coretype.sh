#!/usr/bin/env bash
# openblas_coretype.sh: the OPENBLAS_CORETYPE under which OpenBLAS's sgemm is
# fastest on this CPU, so that the anchors (OpenBLAS in BENCHMARKS.md's GEMM
# tables, PyTorch, which Debian builds on OpenBLAS) run its best kernels.
# Why: OpenBLAS picks its kernels from the CPU's family and model, and a model
# it does not know falls back to a slow generic one. Debian's 0.3.21 does not
# know Intel's model 207 (Emerald Rapids): there its own choice ran a
# 96×96×288 sgemm at 29.6 GFLOP/s and torch's 4096×288×96 matmul at 28.9,
# against 102.5 and 125.2 with OPENBLAS_CORETYPE=SapphireRapids (2026-12-02).
# (An empty OPENBLAS_CORETYPE is not its own choice: OpenBLAS then reads the
# CPU's features instead of its model, and picked Cooperlake there.) Prints one
# line per candidate on stderr (the slower of the model's NN and NT shapes at
# 192 rows) and the winner's name on stdout: OpenBLAS's own choice, named as
# OPENBLAS_VERBOSE=2 names it, unless another is more than 2% faster (an
# empty line when that name could not be read and its own choice won: then
# leave OPENBLAS_CORETYPE unset).
# usage: export OPENBLAS_CORETYPE=$(scripts/openblas_coretype.sh [CORE])
set -euo pipefail
cd "$(dirname "$0")/.."
core=${1:-0}
bin=$(mktemp)
trap 'rm -f "$bin"' EXIT
lib=/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas.so.0
[ -e "$lib" ] || lib=-lopenblas
gcc -O2 scripts/openblas_sgemm.c -o "$bin" "$lib"
own=$(env -u OPENBLAS_CORETYPE OPENBLAS_VERBOSE=2 OPENBLAS_NUM_THREADS=1 "$bin" 1 1 1 2>&1 | sed -n 's/^Core: //p')
best="" bestrate=0
for ct in "$own" Haswell SkylakeX Cooperlake SapphireRapids; do
	rate=$(for shape in "192 96 288 NN" "192 288 96 NT"; do
		if [ "$ct" = "$own" ]; then run=(env -u OPENBLAS_CORETYPE); else run=(env OPENBLAS_CORETYPE="$ct"); fi
		# shellcheck disable=SC2086
		"${run[@]}" OPENBLAS_NUM_THREADS=1 taskset -c "$core" "$bin" $shape | awk '{print $(NF-1)}'
	done | sort -g | head -1)
	label=$ct; [ "$ct" = "$own" ] && label="$ct (its own choice)"
	echo "OPENBLAS_CORETYPE=$label: $rate GFLOP/s" >&2
	if awk -v r="$rate" -v b="$bestrate" 'BEGIN{exit !(r > b * 1.02)}'; then best=$ct bestrate=$rate; fi
done
echo "$best"
