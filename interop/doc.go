// Package interop holds only tests: they check that a simdrl checkpoint loads
// into the seed's PyTorch module (scripts/torch_interop.py, PyTorch and the
// Python standard library only) and that PyTorch's greedy programs, rewards
// and solve rates equal simdrl's. The tests skip when /usr/bin/python3 (or
// $SIMDRL_PYTHON) cannot import torch, and fail instead when
// SIMDRL_TEST_REQUIRE contains "torch".
package interop
