// Package interop holds only tests: they check that a simdrl checkpoint loads
// into a PyTorch module (scripts/torch_interop.py with scripts/simdrl_torch.py,
// PyTorch and the Python standard library only) and that PyTorch's greedy
// programs equal simdrl's; both are scored with the env package, and their
// rewards and solve rates must agree too. The tests skip when /usr/bin/python3
// (or $SIMDRL_PYTHON) cannot import torch, and fail instead when
// SIMDRL_TEST_REQUIRE contains "torch".
package interop
