// Package interop holds only tests: they check that a simdrl checkpoint loads
// into a PyTorch module (scripts/torch_interop.py with scripts/simdrl_torch.py,
// PyTorch and the Python standard library only) and that PyTorch's greedy
// programs equal simdrl's; both are scored with the env package, and their
// rewards and solve rates must agree too. TestTorchInteropKinds does the same
// for every kind of model simdrl trains: a reading, an observing, a tape, a
// fielded (task.Fielded: fields and a vector, averaged and read) and a
// masked (task.LegalGame) checkpoint, trained by simdrl: the script is given
// each episode's context and what the task's Env gave simdrl's policy
// (package policy) at each step (observations, fields and vector, legal
// tokens), and must play the same programs, spelled with the task's token
// names; a port made wrong on purpose (the vector's layer negated, a field
// shifted, the mask left out) must be caught. The tests skip when
// /usr/bin/python3 (or $SIMDRL_PYTHON) cannot import torch, and fail instead
// when SIMDRL_TEST_REQUIRE contains "torch".
package interop
