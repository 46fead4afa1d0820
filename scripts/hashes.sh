#!/usr/bin/env bash
# hashes.sh: the parameter hashes that every change to the kernels, the model or
# the trainer must leave as they are (or say, in kernels/doc.go, why they moved).
# It runs simdrl on one thread with -quiet -report and prints each run's final
# parameter hash (the report's "param_sha256", first 12 hex digits) beside the
# hash this script expects, then "ok" or "CHANGED".
#
# The expected hashes are the avx512 backend's (dispatch's choice on an AVX-512
# CPU, and equal on Zen 4 and Zen 5) and the avx2 backend's. On a CPU without
# AVX-512 the default rows run avx2 and are expected to differ from the avx512
# rows where the ZMM tile's k blocks change the last bits (k > 256).
# Usage: scripts/hashes.sh            (exits 1 when any hash changed)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/simdrl" ./cmd/simdrl
bad=0
# run NAME EXPECTED [ENV=...] -- ARGS...
run() {
	local name=$1 want=$2
	shift 2
	local envs=()
	while [ "$1" != "--" ]; do
		envs+=("$1")
		shift
	done
	shift
	env "${envs[@]}" "$dir/simdrl" -quiet -threads 1 -report "$dir/r.json" "$@" >/dev/null
	local got
	got=$(grep -o '"param_sha256": *"[0-9a-f]*"' "$dir/r.json" | grep -o '[0-9a-f]\{12,\}' | cut -c1-12)
	local verdict=ok
	if [ "$got" != "$want" ]; then
		verdict=CHANGED
		bad=1
	fi
	printf '%-44s %s  want %s  %s\n' "$name" "$got" "$want" "$verdict"
}
run "seed 0" 2500d7576fc6 -- -seed 0
run "seed 1" 0108b2b6fd3d -- -seed 1
run "seed 2" 4e7f94caa4a5 -- -seed 2
run "seed 3" 69c90378ff90 -- -seed 3
run "seed 4" 6696031b518f -- -seed 4
run "avx2 seed 0" d944bb120040 SIMDRL_KERNELS=avx2 -- -seed 0
run "avx2 seed 1" b3d80e9a8e7d SIMDRL_KERNELS=avx2 -- -seed 1
run "avx2 seed 2" fe205353ca72 SIMDRL_KERNELS=avx2 -- -seed 2
run "avx2 seed 3" ee062ed86fba SIMDRL_KERNELS=avx2 -- -seed 3
run "avx2 seed 4" 74d4a5c2ad2f SIMDRL_KERNELS=avx2 -- -seed 4
run "-recipe seed" 6cf6737ccef8 -- -recipe seed
run "calc seed 3, 200 updates" 429e45541a0c -- -task calc -seed 3 -updates 200
run "expr seed 0, 150 updates" 7833417ce619 -- -task expr -seed 0 -updates 150
run "expr seed 0, 150 updates, -hidden 96" 12d0418097fc -- -task expr -seed 0 -updates 150 -hidden 96
run "calc observing, seed 1, 100 updates" 1fe63eeec33d -- -task calc -seed 1 -updates 100 -levels 'abs(a-b), max(a,b)'
run "generic seed 0, 300 updates" 93e6acee68b2 SIMDRL_KERNELS=generic -- -seed 0 -updates 300
exit $bad
