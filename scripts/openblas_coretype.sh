#!/usr/bin/env bash
# openblas_coretype.sh: the OPENBLAS_CORETYPE under which OpenBLAS's sgemm is
# fastest on this CPU, so that the anchors (OpenBLAS in docs/performance.md's GEMM
# tables, PyTorch, which Debian builds on OpenBLAS) run its best kernels.
# Why: OpenBLAS picks its kernels from the CPU's family and model, and a model
# it does not know falls back to a slow generic one. Debian's 0.3.21 does not
# know Intel's model 207 (Emerald Rapids): there its own choice ran a
# 96×96×288 sgemm at 29.6 GFLOP/s and torch's 4096×288×96 matmul at 28.9,
# against 102.5 and 125.2 with OPENBLAS_CORETYPE=SapphireRapids (2026-12-02).
# (An empty OPENBLAS_CORETYPE is not its own choice: OpenBLAS then reads the
# CPU's features instead of its model, and picked Cooperlake there.) Prints one
# line per candidate on stderr and the winner's name on stdout: OpenBLAS's
# own choice, named as OPENBLAS_VERBOSE=2 names it, unless another is faster
# by more than MARGIN (default 5%) (an empty line when that name could not be
# read and its own choice won: then leave OPENBLAS_CORETYPE unset).
# A candidate's figure is the slower of the model's NN and NT shapes at 192
# rows, each the median of openblas_sgemm's 7 timed rounds; the candidates run
# interleaved, ROUNDS times (default 5), and each is judged by its median over
# the rounds. Why: on a noisy VM the speed drifts by 10% within a minute, and
# one run of each in turn (this script before 2026-12-03) picked Cooperlake,
# Haswell or SkylakeX from run to run, within noise of each other.
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
rounds=${ROUNDS:-5} margin=${MARGIN:-0.05}
case "$rounds" in '' | *[!0-9]* | 0) echo "openblas_coretype.sh: ROUNDS must be a positive integer, not '$rounds'" >&2; exit 2 ;; esac
awk -v m="$margin" 'BEGIN{exit !(m ~ /^[0-9]*\.?[0-9]+$/ && m < 1)}' || { echo "openblas_coretype.sh: MARGIN must be a fraction in [0, 1), not '$margin'" >&2; exit 2; }
cands=("$own" Haswell SkylakeX Cooperlake SapphireRapids)
rates=$(mktemp)
trap 'rm -f "$bin" "$rates"' EXIT
for r in $(seq "$rounds"); do
	for i in "${!cands[@]}"; do
		ct=${cands[$i]}
		if [ "$i" = 0 ]; then run=(env -u OPENBLAS_CORETYPE); else run=(env OPENBLAS_CORETYPE="$ct"); fi
		figs=$(for shape in "192 96 288 NN" "192 288 96 NT"; do
			# shellcheck disable=SC2086
			"${run[@]}" OPENBLAS_NUM_THREADS=1 taskset -c "$core" "$bin" $shape median | awk '{print $(NF-1)}' || true
		done)
		if [ "$(printf '%s\n' "$figs" | grep -cE '^[0-9]+(\.[0-9]+)?$')" != 2 ]; then
			echo "openblas_coretype.sh: OpenBLAS under ${ct:-its own choice} did not print both figures (round $r)" >&2
			exit 2
		fi
		rate=$(printf '%s\n' "$figs" | sort -g | head -1)
		echo "$i $rate" >>"$rates"
	done
done
# median over the rounds, per candidate
median() { awk -v i="$1" '$1 == i {print $2}' "$rates" | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
ownrate=$(median 0)
best="$own" bestrate=$ownrate
for i in "${!cands[@]}"; do
	ct=${cands[$i]} rate=$(median "$i")
	label=$ct; [ "$i" = 0 ] && label="$ct (its own choice)"
	echo "OPENBLAS_CORETYPE=$label: $rate GFLOP/s (median of $rounds rounds: $(awk -v i="$i" '$1 == i {printf "%s ", $2}' "$rates"| sed 's/ $//'))" >&2
	if [ "$i" != 0 ] && awk -v r="$rate" -v b="$bestrate" -v o="$ownrate" -v m="$margin" 'BEGIN{exit !(r > o * (1 + m) && r > b)}'; then best=$ct bestrate=$rate; fi
done
echo "$best"
