#!/usr/bin/env bash
# build.sh: builds the CPU stand-in for the CUDA driver (driver.cc) with the
# kernels of gpu/kernels/*.cu compiled in, as DIR/libcuda.so.1 (default
# gpu/emu/build). Then the GPU tests run on the CPU:
#
#   gpu/emu/build.sh && LD_LIBRARY_PATH=$PWD/gpu/emu/build SIMDRL_TEST_REQUIRE=cuda go test ./gpu/
#
# Needs g++ (C++20). What it checks and what it cannot: driver.cc's header.
#
# SIMDRL_EMU_ASAN=1 builds it with AddressSanitizer: a kernel that reads or
# writes past a device buffer, its shared memory or a static array stops the
# test with a report. Go is the host process, so the run preloads the ASan
# runtime (and leaves leak checking to Go):
#
#   SIMDRL_EMU_ASAN=1 gpu/emu/build.sh /tmp/emu-asan
#   LD_PRELOAD=$(g++ -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0 \
#     LD_LIBRARY_PATH=/tmp/emu-asan SIMDRL_TEST_REQUIRE=cuda go test ./gpu/
set -euo pipefail
cd "$(dirname "$0")"
DIR=${1:-build}
mkdir -p "$DIR/emu_src"
# `extern __shared__ T name[];` (dynamic shared memory) → a pointer to the block's buffer.
for f in ../kernels/*.cu; do
	sed -E 's/extern __shared__ ([A-Za-z0-9_]+) ([A-Za-z0-9_]+)\[\];/\1 *\2 = (\1 *)simdrl_emu_smem;/' "$f" >"$DIR/emu_src/$(basename "$f")"
done
flags=(-std=c++20 -O1 -g -fPIC -shared -ffp-contract=off -I"$DIR" -I../kernels -include emu.h -Wno-unknown-pragmas)
if [ "${SIMDRL_EMU_ASAN:-0}" = 1 ]; then
	flags+=(-fsanitize=address -fno-omit-frame-pointer)
fi
g++ "${flags[@]}" -o "$DIR/libcuda.so.1" driver.cc
echo "built $(cd "$DIR" && pwd)/libcuda.so.1"
