#!/bin/sh
# resources.sh: what ptxas gives each kernel for the H200 (sm_90): registers,
# stack frame and spills. It fails when a kernel has a stack frame or spills:
# local memory in the rollout or backward loop costs far more than it looks
# (a pointer to a local, e.g., puts it there), and no test on gpu/emu sees it.
# Needs nvcc (gen.sh says where from). CI runs it.
set -eu
cd "$(dirname "$0")"
command -v nvcc >/dev/null 2>&1 || { echo "resources.sh: nvcc not found" >&2; exit 1; }
out=$(mktemp)
trap 'rm -f "$out" "$out.cubin"' EXIT
bad=0
for src in kernels/*.cu; do
	nvcc -cubin -arch=sm_90 -O3 -std=c++14 --resource-usage -o "$out.cubin" "$src" >"$out" 2>&1
	# ptxas prints, per entry: "Compiling entry function 'NAME'", then the
	# stack/spill line, then "Used N registers".
	awk -v src="$src" '
		/Compiling entry function/ { match($0, /'"'"'[a-z0-9_]+'"'"'/); name = substr($0, RSTART + 1, RLENGTH - 2) }
		/bytes stack frame/ { frame = $0; sub(/^[ \t]+/, "", frame) }
		/Used [0-9]+ registers/ { match($0, /Used [0-9]+ registers/); printf "%-28s %s, %s\n", name, substr($0, RSTART, RLENGTH), frame }
	' "$out"
	if grep 'bytes stack frame' "$out" | grep -qv ' 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads'; then
		echo "resources.sh: $src has a kernel with a stack frame or spills (above)" >&2
		bad=1
	fi
done
exit $bad
