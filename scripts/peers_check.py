"""Checks, on the CPU, the peers gpu/device_check.sh times simdrl's GPU path
against (scripts/torch_peers_bench.py, scripts/jax_update_bench.py): that
they score as simdrl_env.score does, run simdrl_torch.Policy's model, loss
and optimiser, and that their updates train. Needs PyTorch and numpy; the
jax.numpy path runs where jax is installed, else its numpy twin
(scripts/simdrl_xp.py, the same code) is what is checked, and it says so.

    python3 scripts/peers_check.py [check names]   # from the repository root: one line a check, exit 1 on a failure
"""
import math
import os
import subprocess
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



class Skipped(Exception):
    """A check that cannot run here (it says why); counted apart from passes."""


def near_solutions(rng, n, steps):
    """Programs (n, steps) mostly of tool tokens, half of them a random
    prefix then ANS, so that answers (and goals) come often."""
    programs = rng.integers(10, 18, (n, steps))
    ends = rng.integers(1, steps, n)
    half = rng.random(n) < 0.5
    programs[half, ends[half]] = 14  # ANS
    return programs


@check
def xp_score_matches_reference():
    """simdrl_xp.score with numpy (the code jax_update_bench runs with
    jax.numpy) gives simdrl_env.score's rewards, every level, programs
    shorter and longer than MAX_STEPS."""
    rng = np.random.default_rng(2)
    rewarded = 0
    for level in range(3):
        for steps in (3, 6, 9):
            digits = rng.integers(0, 10, (4000, 5))
            programs = near_solutions(rng, 4000, steps)
            want = np.array([score(level, dg, p)[0] for dg, p in zip(digits.tolist(), programs.tolist())])
            got = sx.score(np, level, digits, programs)
            bad = np.flatnonzero(~np.isclose(got, want, rtol=1e-9, atol=1e-9))
            assert not len(bad), (f"level {level}: digits {digits[bad[0]].tolist()}, program {programs[bad[0]].tolist()}: "
                                  f"{got[bad[0]]} != {want[bad[0]]}")
            got32 = sx.score(np, level, digits, programs, real=np.float32)
            assert np.allclose(got32, want, rtol=1e-6, atol=1e-6), "float32 rewards (jax's) differ"
            rewarded += int((want > 0).sum())
    assert rewarded > 1000, f"only {rewarded} programs rewarded: the check would not see a wrong reward"
    return f"36000 programs, {rewarded} rewarded, equal to 1e-9"


@check
def torch_peer_scoring_matches_reference():
    """The torch peers' scoring (torch_update_bench.vector_score) gives
    simdrl_env.score's rewards, programs up to and past MAX_STEPS."""
    for steps in (6, 9):
        torch_update_bench.check_vector_score(n=20000, steps=steps)
    return "60000 programs a length, every level, equal to 1e-9"


def policy_forward(net, level, digits, actions):
    """The reference's per-step logits and loss through Policy.initial_state
    and Policy.step (nn.GRU), fed the actions (B, T)."""
    B, T = actions.shape
    ctx = torch.cat([digits[:, :3 + level], torch.full((B, 1), CTX, dtype=torch.long)], 1)
    lengths = torch.full((B,), ctx.shape[1], dtype=torch.long)
    h = net.initial_state(ctx, lengths, torch.full((B,), level, dtype=torch.long))
    token = torch.full((B,), CTX, dtype=torch.long)
    logits_t, logps, ents, vals = [], [], [], []
    for t in range(T):
        logits, v, h = net.step(token, h)
        log_probs = F.log_softmax(logits, dim=-1)
        probs = log_probs.exp()
        token = actions[:, t]
        logits_t.append(logits)
        logps.append(log_probs.gather(1, token[:, None])[:, 0])
        ents.append(-(probs * torch.log(probs + 1e-9)).sum(1))
        vals.append(v)
    logps, ents, vals = (torch.stack(x, 1) for x in (logps, ents, vals))
    R = torch_update_bench.vector_score(level, digits, actions).float()
    predicted = vals.sum(1)
    adv = (R - predicted).detach()
    loss = -(logps.sum(1) * adv).mean() + 0.5 * F.mse_loss(predicted, R) + 0.01 * -ents.mean()
    return torch.stack(logits_t), loss


def random_rollout(level, B=256, T=6, seed=3):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, 10, (B, 5), generator=g), torch.randint(0, 18, (B, T), generator=g)


@check
def xp_model_matches_policy():
    """simdrl_xp's initial state, GRU step, heads, log-probabilities and
    loss with numpy give Policy's (nn.GRU) logits and loss on the same
    weights, tasks and actions, every level."""
    torch.manual_seed(4)
    net = Policy()
    p = {k: v.detach().numpy() for k, v in net.state_dict().items()}
    assert set(p) == set(sx.NAMES), f"names {sorted(p)}"
    worst = 0.0
    for level in range(3):
        digits, actions = random_rollout(level)
        want_logits, want_loss = policy_forward(net, level, digits, actions)
        dg, acts = digits.numpy(), actions.numpy()
        h = sx.initial_state(np, p, level, sx.contexts(np, level, dg))
        token = np.full(len(dg), CTX)
        logits_t, logps, ents, vals = [], [], [], []
        for t in range(acts.shape[1]):
            logits, v, h = sx.policy_step(np, p, token, h)
            token = acts[:, t]
            logp, ent = sx.action_stats(np, logits, token)
            logits_t.append(logits), logps.append(logp), ents.append(ent), vals.append(v)
        R = sx.score(np, level, dg, acts, real=np.float32)
        loss = sx.loss(np, np.stack(logps), np.stack(ents), np.stack(vals), R)
        np.testing.assert_allclose(np.stack(logits_t), want_logits.detach().numpy(), rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(loss, want_loss.item(), rtol=1e-4, atol=1e-5)
        worst = max(worst, abs(float(loss) - want_loss.item()))
    return f"logits and loss agree, every level (loss at most {worst:.2g} apart)"


@check
def torch_peer_update_matches_policy():
    """torch_peers_bench's rollout (the GRU written out) gives the loss and
    the gradients Policy's nn.GRU gives, on the same tasks and actions."""
    import torch_peers_bench as tp
    torch.manual_seed(5)
    net = Policy()
    for level in range(3):
        digits, actions = random_rollout(level, seed=6 + level)
        _, want = policy_forward(net, level, digits, actions)
        want_g = torch.autograd.grad(want, list(net.parameters()))
        got, _ = tp.rollout_loss(net, len(digits), actions.shape[1], level, torch.device("cpu"), actions=actions, digits=digits)
        got_g = torch.autograd.grad(got, list(net.parameters()))
        assert torch.allclose(got, want, rtol=1e-5, atol=1e-6), f"level {level}: loss {got.item()} != {want.item()}"
        for (name, _), a, b in zip(net.named_parameters(), got_g, want_g):
            assert torch.allclose(a, b, rtol=1e-4, atol=1e-6), f"level {level}: gradient of {name} differs by {(a - b).abs().max().item():.3g}"
    return "loss and all 10 gradients agree, every level"


@check
def gumbel_sample_is_softmax():
    """torch_peers_bench's Gumbel-max draws follow softmax(logits)."""
    import torch_peers_bench as tp
    torch.manual_seed(7)
    logits = torch.randn(18) * 2
    n = 200000
    counts = torch.bincount(tp.gumbel_sample(logits.expand(n, 18).contiguous()), minlength=18).double()
    want = torch.softmax(logits.double(), 0) * n
    z = ((counts - want) / want.clamp(min=1).sqrt()).abs().max().item()
    assert z < 5, f"counts {counts.tolist()} against {want.tolist()} ({z:.1f} sigma)"
    return f"200000 draws, every token within {z:.1f} sigma"


@check
def xp_clip_adam_matches_torch():
    """simdrl_xp.clip_adam with numpy makes clip_grad_norm_(1.0) then
    torch.optim.Adam's steps, with the clip cutting and not."""
    torch.manual_seed(8)
    net = Policy()
    opt = torch.optim.Adam(net.parameters(), lr=3e-4)
    p = {k: v.detach().numpy().copy() for k, v in net.state_dict().items()}
    m = {k: np.zeros_like(v) for k, v in p.items()}
    v = {k: np.zeros_like(x) for k, x in p.items()}
    for step, scale in enumerate((10.0, 0.001, 3.0, 0.01), 1):
        for x in net.parameters():
            x.grad = torch.randn_like(x) * scale / 30
        g = {k: x.grad.numpy().copy() for k, x in net.named_parameters()}
        torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
        opt.step()
        p, m, v = sx.clip_adam(np, p, g, m, v, step)
        for k, x in net.named_parameters():
            np.testing.assert_allclose(p[k], x.detach().numpy(), rtol=1e-5, atol=1e-7, err_msg=f"step {step}, {k}")
    return "4 steps, parameters agree to 1e-5"


@check
def torch_peer_trains():
    """torch_peers_bench's update (eager, on the CPU: the code the graph and
    compile peers capture) raises the reward at level 0."""
    import torch_peers_bench as tp
    first, last, ok = tp.check_training("eager", torch.device("cpu"))
    assert ok, f"mean reward {first:.3f} over the first 15 updates, {last:.3f} over the last 15"
    return f"mean reward {first:.3f} -> {last:.3f} over 150 updates (B 512, lr 3e-3)"


@check
def jax_peer_trains():
    """jax_update_bench's jitted updates (100 in one call) raise the reward
    at level 0, and its jax.numpy scoring is the numpy one; needs jax."""
    try:
        import jax
    except ImportError:
        raise Skipped("jax is not installed here (its numpy twin is checked above)")
    import jax_update_bench as jb
    jb.check_score(jax)
    first, last, ok = jb.check_training(jax)
    assert ok, f"mean reward {first:.3f} over the first 15 updates, {last:.3f} over the last 15 (or a loss not finite)"
    return f"mean reward {first:.3f} -> {last:.3f} over 150 updates in one call (B 512, lr 3e-3, {jax.default_backend()})"


@check
def benches_fail_in_one_line():
    """Without jax or a GPU the benches exit 1 with one line, no traceback."""
    here = os.path.dirname(os.path.abspath(__file__))
    runs = []
    try:
        import jax  # noqa: F401
    except ImportError:
        runs.append(("jax_update_bench.py", "jax is not installed"))
    if not torch.cuda.is_available():
        runs.append(("torch_peers_bench.py", "no GPU"))
    if not runs:
        raise Skipped("jax and a GPU are both here")
    for script, says in runs:
        r = subprocess.run([sys.executable, os.path.join(here, script), "--batches", "192"], capture_output=True, text=True)
        out = (r.stdout + r.stderr).strip().splitlines()
        assert r.returncode == 1 and len(out) == 1 and says in out[0], f"{script}: exit {r.returncode}, {out}"
    return "; ".join(f"{s}: {says!r}, exit 1" for s, says in runs)

def main():
    chosen = [fn for fn in CHECKS if not sys.argv[1:] or fn.__name__ in sys.argv[1:]]
    failed = skipped = 0
    for fn in chosen:
        try:
            print(f"ok   {fn.__name__}: {fn()}", flush=True)
        except Skipped as why:
            skipped += 1
            print(f"skip {fn.__name__}: {why}", flush=True)
        except Exception as err:  # every check runs; the first line of each failure is shown
            failed += 1
            traceback.print_exc()
            print(f"FAIL {fn.__name__}: {type(err).__name__}: {err}", flush=True)
    print(f"peers_check: {len(chosen) - failed - skipped} of {len(chosen)} checks passed, {skipped} skipped, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
