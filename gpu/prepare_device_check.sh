#!/usr/bin/env bash
# prepare_device_check.sh: builds, here, everything gpu/device_check.sh runs on
# the GPU machine (which has no Go): out/gpu.test, out/cpu.test,
# out/simdrl, out/peak (scripts/peak.c), the PyTorch bench
# (scripts/torch_update_bench.py, with the model and scoring it imports) and
# the peers (scripts/torch_peers_bench.py, scripts/jax_update_bench.py with
# scripts/simdrl_xp.py, and scripts/peers_check.py).
# Everything comes from this repository.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p out
go test -c -ldflags='-s -w' -o out/gpu.test ./gpu/
go test -c -ldflags='-s -w' -o out/cpu.test ./cpu/
go build -ldflags='-s -w' -o out/simdrl ./cmd/simdrl
cp scripts/tensorboard_read.py scripts/torch_update_bench.py scripts/simdrl_torch.py scripts/simdrl_env.py \
	scripts/torch_peers_bench.py scripts/jax_update_bench.py scripts/simdrl_xp.py scripts/peers_check.py out/
# The AVX-512 path is guarded at run time (__builtin_cpu_supports).
gcc -O2 -mavx2 -mfma -mavx512f scripts/peak.c -o out/peak
ls -l out/
