"""Times simdrl's update in JAX, written the way PureJaxRL writes a trainer:
one jax.jit function for the whole update (tasks drawn with jax.random,
the rollout a lax.scan, the scoring in jax.numpy, the loss's gradient,
clip_grad_norm_(1.0) and Adam written out), and --updates-per-call N updates
inside one jitted call (a lax.scan over updates), so that N updates cost one
launch from Python. A peer of simdrl's GPU path (gpu/device_check.sh).

The update is the seed recipe at level 0, as scripts/torch_update_bench.py
runs it: B tasks, T = 6 sampled steps of simdrl_torch.Policy's GRU (d = 96),
the rewards, the reference's loss, backward, clip, Adam (lr 3e-4), float32.
The model, scoring, loss and optimiser are scripts/simdrl_xp.py's, written
against an array module: jax.numpy here, numpy in scripts/peers_check.py,
which checks them against simdrl_env.score and PyTorch. At start-up the
jax.numpy scoring is checked against the numpy one on random programs.

Usage, from the repository root (or with the scripts side by side), on a
machine with jax and a GPU:

    python3 scripts/jax_update_bench.py --batches 192,4096 --updates-per-call 1 --iters 20
    python3 scripts/jax_update_bench.py --batches 192,4096 --updates-per-call 100 --iters 3

Prints one JSON line per batch; median_ms is per update (a call's time over
N), the first (compiling) calls excluded:
  {"part": "full_update", "peer": "jax", "batch": 192, "median_ms": ..., "updates_per_call": 1, ...}
Without jax, or without a GPU (unless --device cpu), it exits with one line.
"""
import argparse
import json
import os
import statistics
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

import simdrl_xp as sx  # noqa: E402
from simdrl_torch import CTX  # noqa: E402


def make_updates(jax, B, T, level, lr, n):
    """A jitted function state -> (state, (losses (n,), mean rewards (n,)))
    running n updates; state is (params, m, v, step, key), donated."""
    jnp, lax = jax.numpy, jax.lax

    def loss_fn(params, key):
        key_tasks, key_steps = jax.random.split(key)
        digits = jax.random.randint(key_tasks, (B, 5), 0, 10)
        h = sx.initial_state(jnp, params, level, sx.contexts(jnp, level, digits))

        def step(carry, k):
            h, tokens = carry
            logits, v, h = sx.policy_step(jnp, params, tokens, h)
            actions = jax.random.categorical(k, logits).astype(tokens.dtype)
            logp, ent = sx.action_stats(jnp, logits, actions)
            return (h, actions), (actions, logp, ent, v)

        first = jnp.full((B,), CTX, dtype=digits.dtype)
        _, (acts, logps, ents, vals) = lax.scan(step, (h, first), jax.random.split(key_steps, T))
        R = sx.score(jnp, level, digits, acts.T, real=jnp.float32)
        return sx.loss(jnp, logps, ents, vals, R, detach=lax.stop_gradient), jnp.mean(R)

    grad_fn = jax.value_and_grad(loss_fn, has_aux=True)

    def one(state, _):
        params, m, v, step, key = state
        key, sub = jax.random.split(key)
        (loss, reward), g = grad_fn(params, sub)
        step = step + 1
        params, m, v = sx.clip_adam(jnp, params, g, m, v, step, lr=lr)
        return (params, m, v, step, key), (loss, reward)

    def updates(state):
        return lax.scan(one, state, None, length=n)

    return jax.jit(updates, donate_argnums=0)


def initial(jax, seed):
    """(params, m, v, step, key): PyTorch-default parameters from numpy's
    generator, Adam's zero moments, step 0, jax.random.key(seed)."""
    jnp = jax.numpy
    p = {k: jnp.asarray(x) for k, x in sx.init_params(np.random.default_rng(seed)).items()}
    zeros = lambda: {k: jnp.zeros_like(x) for k, x in p.items()}  # noqa: E731 (m and v: distinct buffers, both donated)
    return p, zeros(), zeros(), jnp.float32(0), jax.random.key(seed)


def check_score(jax, n=4096, steps=6):
    """The jax.numpy scoring against the numpy one (peers_check.py checks
    that against simdrl_env.score) on random programs, every level."""
    rng = np.random.default_rng(1)
    for level in range(3):
        digits = rng.integers(0, 10, (n, 5)).astype(np.int32)
        programs = rng.integers(10, 18, (n, steps)).astype(np.int32)
        want = sx.score(np, level, digits, programs)
        got = np.asarray(sx.score(jax.numpy, level, jax.numpy.asarray(digits), jax.numpy.asarray(programs),
                                  real=jax.numpy.float32), dtype=np.float64)
        bad = np.flatnonzero(~np.isclose(got, want, rtol=1e-6, atol=1e-6))
        if len(bad):
            i = bad[0]
            sys.exit(f"jax_update_bench: jax.numpy scoring disagrees with numpy's: level {level}, digits "
                     f"{digits[i].tolist()}, program {programs[i].tolist()}: {got[i]} != {want[i]}")


def usage(line):
    """Bad input: one line, exit 2."""
    print(line, file=sys.stderr)
    sys.exit(2)


def check_training(jax, B=512, n=150, lr=3e-3, seed=9):
    """n updates in one call at level 0 (a larger lr than the recipe's, to
    see it in few updates): (the mean reward over the first 15, over the
    last 15, whether it rose by 0.1 and every loss is finite)."""
    fn = make_updates(jax, B, 6, 0, lr, n)
    _, (losses, rewards) = fn(initial(jax, seed))
    rewards = np.asarray(rewards)
    first, last = float(rewards[:15].mean()), float(rewards[-15:].mean())
    return first, last, bool(last > first + 0.1 and np.isfinite(np.asarray(losses)).all())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--device", default="gpu", choices=["gpu", "cpu"])
    ap.add_argument("--batches", default="192,4096")
    ap.add_argument("--iters", type=int, default=10, help="timed calls per batch at most (after 2 warm-up ones)")
    ap.add_argument("--budget-s", type=float, default=0,
                    help="stop timing a batch once its timed calls took this long (at least 3 of them; 0: no limit)")
    ap.add_argument("--updates-per-call", type=int, default=1, help="updates in one jitted call (lax.scan)")
    ap.add_argument("--steps", type=int, default=6, help="rollout length T (the seed recipe's 6)")
    ap.add_argument("--level", "--stage", dest="level", type=int, default=0, choices=[0, 1, 2])
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--precision", default="highest", choices=["highest", "default"],
                    help="float32 matmuls: highest is true float32, as simdrl and PyTorch's default; "
                         "default lets XLA use TF32")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--check", action="store_true",
                    help="first check that 150 updates (B 512, lr 3e-3, in one call) raise the reward: a JSON line")
    a = ap.parse_args()
    if a.updates_per_call < 1 or a.iters < 1:
        usage("jax_update_bench: --updates-per-call and --iters must be at least 1")
    try:
        batches = [int(x) for x in a.batches.split(",") if x]
    except ValueError:
        usage(f"jax_update_bench: --batches {a.batches!r} is not a comma-separated list of integers")

    try:
        import jax
    except ImportError as err:
        sys.exit(f"jax_update_bench: jax is not installed ({err}); on a GPU machine: pip install 'jax[cuda12]'")
    if a.device == "cpu":
        jax.config.update("jax_platforms", "cpu")
    else:
        try:
            jax.devices("gpu")
        except RuntimeError as err:
            sys.exit(f"jax_update_bench: no GPU for jax ({str(err).splitlines()[0]}); --device cpu runs on the CPU")
    try:
        jax.config.update("jax_default_matmul_precision", a.precision)
    except Exception as err:  # an option this jax lacks: time with its default, and say so
        print(f"jax_update_bench: could not set the matmul precision ({err}); XLA's default", file=sys.stderr)
        a.precision = "default (unset)"
    dev = jax.devices()[0]
    check_score(jax, steps=a.steps)

    failed = False
    if a.check:
        first, last, ok = check_training(jax)
        print(json.dumps(dict(part="check", peer="jax", reward_first=round(first, 4), reward_last=round(last, 4),
                              ok=ok, updates=150, batch=512, lr=3e-3)), flush=True)
        failed = not ok
    for B in batches:
        try:
            fn = make_updates(jax, B, a.steps, a.level, a.lr, a.updates_per_call)
            state = initial(jax, a.seed)
            t0 = time.perf_counter()
            state, (_, rewards) = fn(state)  # compiles
            jax.block_until_ready((state[:4], rewards))  # all but the key (a typed PRNG array)
            compile_s = time.perf_counter() - t0
            reward_start = float(rewards[0])
            state, (_, rewards) = fn(state)
            jax.block_until_ready((state[:4], rewards))
            ts = []
            while len(ts) < a.iters and (not a.budget_s or len(ts) < 3 or a.updates_per_call * sum(ts) < a.budget_s):
                t0 = time.perf_counter()
                state, (losses, rewards) = fn(state)
                jax.block_until_ready((state[:4], rewards))
                ts.append((time.perf_counter() - t0) / a.updates_per_call)
            med = statistics.median(ts)
            print(json.dumps(dict(
                part="full_update", peer="jax", batch=B, median_ms=round(1e3 * med, 4),
                min_ms=round(1e3 * min(ts), 4), iters=len(ts), updates_per_call=a.updates_per_call,
                steps_per_s=round(B * a.steps / med), compile_s=round(compile_s, 2),
                reward_start=round(reward_start, 4), reward_end=round(float(rewards[-1]), 4),
                loss_end=round(float(losses[-1]), 4), steps=a.steps, stage=a.level, precision=a.precision,
                device=a.device, gpu=getattr(dev, "device_kind", str(dev)) if a.device == "gpu" else None,
                jax=jax.__version__)), flush=True)
        except Exception as err:  # one batch's failure (memory, say) leaves the others to run
            traceback.print_exc()
            print(json.dumps(dict(part="full_update", peer="jax", batch=B, updates_per_call=a.updates_per_call,
                                  error=f"{type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''}")),
                  flush=True)
            failed = True
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
