#!/usr/bin/env bash
# build.sh: builds the CPU stand-in for the CUDA driver (driver.cc) with the
# kernels of gpu/kernels/*.cu compiled in, as DIR/libcuda.so.1 (default
# gpu/emu/build). Then the GPU tests run on the CPU:
#
#   gpu/emu/build.sh && LD_LIBRARY_PATH=$PWD/gpu/emu/build SIMDRL_TEST_REQUIRE=cuda go test ./gpu/
#
# Needs g++ (C++20). What it checks and what it cannot: driver.cc's header.
set -euo pipefail
cd "$(dirname "$0")"
DIR=${1:-build}
mkdir -p "$DIR/emu_src"
# `extern __shared__ T name[];` (dynamic shared memory) → a pointer to the block's buffer.
for f in ../kernels/*.cu; do
	sed -E 's/extern __shared__ ([A-Za-z0-9_]+) ([A-Za-z0-9_]+)\[\];/\1 *\2 = (\1 *)simdrl_emu_smem;/' "$f" >"$DIR/emu_src/$(basename "$f")"
done
flags=(-std=c++20 -O1 -g -fPIC -shared -ffp-contract=off -I"$DIR" -I../kernels -include emu.h -Wno-unknown-pragmas)
g++ "${flags[@]}" -o "$DIR/libcuda.so.1" driver.cc
echo "built $(cd "$DIR" && pwd)/libcuda.so.1"
