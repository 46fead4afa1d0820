#!/usr/bin/env bash
# prepare_device_check.sh: builds, here, everything gpu/device_check.sh runs on
# the GPU machine (which has no Go): out/gpu.test, out/cpu.test,
# out/simdrl, and the PyTorch bench with the seed beside it.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p out
go test -c -ldflags='-s -w' -o out/gpu.test ./gpu/
go test -c -ldflags='-s -w' -o out/cpu.test ./cpu/
go build -ldflags='-s -w' -o out/simdrl ./cmd/simdrl
cp ../shared/bench/torch_seed_bench.py ../shared/reference/seed.py out/
gcc -O2 -mavx2 -mfma ../shared/bench/cpu/peak.c -o out/peak
ls -l out/
