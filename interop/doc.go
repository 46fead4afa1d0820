// Package interop holds only tests: they check that a simdrl checkpoint loads
// into a PyTorch module (scripts/torch_interop.py with scripts/simdrl_torch.py,
// PyTorch and the Python standard library only) and that PyTorch's greedy
// programs equal simdrl's; both are scored with the env package, and their
// rewards and solve rates must agree too. TestTorchInteropKinds does the same
// for a reading, an observing and a tape checkpoint trained by simdrl: the
// script is given each episode's context and the observations the task's Env
// returned to simdrl's policy (package policy), and must play the same
// programs, spelled with the task's token names. The tests skip when /usr/bin/python3
// (or $SIMDRL_PYTHON) cannot import torch, and fail instead when
// SIMDRL_TEST_REQUIRE contains "torch".
package interop
