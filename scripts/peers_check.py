"""Checks, on the CPU, the peers gpu/device_check.sh times simdrl's GPU path
against (scripts/torch_peers_bench.py, scripts/jax_update_bench.py): that
they score as simdrl_env.score does, run simdrl_torch.Policy's model, loss
and optimiser, and that their updates train. Needs PyTorch and numpy; the
jax.numpy path runs where jax is installed, else its numpy twin
(scripts/simdrl_xp.py, the same code) is what is checked, and it says so.

    python3 scripts/peers_check.py        # from the repository root; prints one line a check, exits 1 on a failure
"""
import math
import os
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import simdrl_xp as sx  # noqa: E402
import torch_update_bench  # noqa: E402
from simdrl_env import score  # noqa: E402
from simdrl_torch import CTX, Policy  # noqa: E402

CHECKS = []


def check(fn):
    CHECKS.append(fn)
    return fn


def exits(fn):
    """Whether fn() calls sys.exit."""
    try:
        fn()
    except SystemExit:
        return True
    return False


@check
def vector_score_tolerates_rounding():
    """torch_update_bench's start-up check accepts rewards one float64 ulp
    from simdrl_env.score's (torch 2.11 sums them in another order) and
    still refuses a wrong reward."""
    orig = torch_update_bench.score
    try:
        torch_update_bench.score = lambda *args: (math.nextafter(orig(*args)[0], 2.0),) + orig(*args)[1:]
        assert not exits(lambda: torch_update_bench.check_vector_score(n=500)), "refused rewards one ulp apart"
        torch_update_bench.score = lambda *args: (orig(*args)[0] + 1e-3,) + orig(*args)[1:]
        assert exits(lambda: torch_update_bench.check_vector_score(n=500)), "accepted rewards 1e-3 apart"
    finally:
        torch_update_bench.score = orig
    return "one ulp apart accepted, 1e-3 apart refused"


def main():
    failed = 0
    for fn in CHECKS:
        try:
            print(f"ok   {fn.__name__}: {fn()}", flush=True)
        except Exception as err:  # every check runs; the first line of each failure is shown
            failed += 1
            traceback.print_exc()
            print(f"FAIL {fn.__name__}: {type(err).__name__}: {err}", flush=True)
    print(f"peers_check: {len(CHECKS) - failed} of {len(CHECKS)} checks passed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
