"""Times one full REINFORCE update of simdrl's model in PyTorch: the
baseline simdrl's update timings are set against (BENCHMARKS.md,
gpu/device_check.sh).

One update, as the seed recipe runs it at level 0: draw B tasks, roll the
policy out for T steps sampling the actions, score the programs, the loss
(the reference's sum baseline: adv = R - sum_t v_t, detached;
pg = -mean_b sum_t logp_t * adv; value = mean_b (sum_t v_t - R)^2;
entropy = -mean_{b,t} H_t; total = pg + 0.5 value + 0.01 entropy), backward,
clip_grad_norm_(1.0), Adam (lr 3e-4). float32. The model is
scripts/simdrl_torch.py's Policy (per-sample initial state: the reference
with its broadcast bug fixed).

Scoring (--scoring):
  vector  (default) tasks drawn with torch.randint on the device and the
          programs scored by tensor operations over the batch, the same
          rules as simdrl_env.score (checked against it at start-up; the
          rewards agree to 1e-9). No per-episode Python: on a GPU the
          per-episode loop would dominate, so this is the stronger baseline.
  python  tasks drawn with Python's random, programs copied to the host and
          scored one by one with simdrl_env.score, as the reference does.

Usage, from the repository root (or with the three scripts side by side):

    python3 scripts/torch_update_bench.py --device cpu --batches 192,4096 --iters 10 --threads 1

At large batches run it with glibc's malloc keeping what it frees, as
scripts/calc_anchor.sh does (otherwise each update faults its big tensors'
pages in again, and the median moves from run to run):

    GLIBC_TUNABLES=glibc.malloc.mmap_threshold=2147483647:glibc.malloc.trim_threshold=4294967295 \
        taskset -c 0 python3 scripts/torch_update_bench.py --device cpu --batches 4096 --iters 20 --threads 1

Prints one JSON line per batch, e.g.
  {"part": "full_update", "batch": 192, "median_ms": 13.2, "min_ms": 12.9, "device": "cpu", ...}
"""
import argparse
import json
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

from simdrl_env import MAX_STEPS, goals, rewarded_target, score  # noqa: E402
from simdrl_torch import CTX, TOKENS, Policy, context_batch  # noqa: E402

MUL, ADD, SUB, ANS, STO, RCL = (TOKENS[k] for k in ("MUL", "ADD", "SUB", "ANS", "STO", "RCL"))


def vector_score(level, digits, programs):
    """Rewards (B,) float64 of programs (B, T) on tasks digits (B, 5), by
    simdrl_env.score's rules, for every row at once."""
    a, b, c, d, e = digits.unbind(1)
    B = programs.shape[0]
    dev = programs.device
    value = torch.zeros(B, dtype=torch.long, device=dev)
    has = torch.zeros(B, dtype=torch.bool, device=dev)  # value is not None
    stored = torch.zeros(B, dtype=torch.bool, device=dev)
    done = torch.zeros(B, dtype=torch.bool, device=dev)
    answered = torch.zeros(B, dtype=torch.long, device=dev)  # value at ANS
    answered_has = torch.zeros(B, dtype=torch.bool, device=dev)
    hit_ans = torch.zeros(B, dtype=torch.bool, device=dev)
    mul_by = d if level > 0 else torch.ones_like(d)
    for t in range(min(programs.shape[1], MAX_STEPS)):
        tok = programs[:, t]
        live = ~done
        m = live & (tok == MUL)
        value = torch.where(m, torch.where(has, value * mul_by, a * b), value)
        has = has | m
        m = live & (tok == ADD) & has
        value = torch.where(m, value + c, value)
        m = live & (tok == SUB) & has
        if level == 2:
            sub = torch.where(stored, e, d)
        elif level == 1:
            sub = d
        else:
            sub = torch.zeros_like(d)
        value = torch.where(m, value - sub, value)
        stored = stored | (live & (tok == STO))
        m = live & (tok == RCL) & stored
        if level == 2:
            value = torch.where(m, d * e, value)
        else:
            value = torch.where(m, torch.where(has, value, torch.zeros_like(value)), value)
        has = has | m
        m = live & (tok == ANS)
        answered = torch.where(m, value, answered)
        answered_has = answered_has | (m & has)
        hit_ans = hit_ans | m
        done = done | m
    bonus = torch.zeros(B, dtype=torch.float64, device=dev)
    for w, g in goals(level, a, b, c, d, e):  # left to right from zero, as simdrl_env does
        bonus = bonus + w * (answered_has & (answered == g)).to(torch.float64)
    target = rewarded_target(level, a, b, c, d, e)
    hit = (answered_has & (answered == target)).to(torch.float64)
    return torch.where(hit_ans, hit + 0.2 * bonus, torch.zeros_like(bonus))


def check_vector_score(n=20000, steps=6):
    """vector_score against simdrl_env.score on random programs and a few
    near-solutions, every level: the rewards must agree to 1e-9."""
    g = torch.Generator().manual_seed(1)
    for level in range(3):
        digits = torch.randint(0, 10, (n, 5), generator=g)
        # Mostly tool tokens (10..17), so that programs reach ANS with values.
        programs = torch.randint(10, 18, (n, steps), generator=g)
        digits_l, programs_l = digits.tolist(), programs.tolist()
        want = torch.tensor([score(level, dg, p)[0] for dg, p in zip(digits_l, programs_l)], dtype=torch.float64)
        got = vector_score(level, digits, programs)
        # float64 sums of the same bonuses, but in an order PyTorch picks (an ulp apart on torch 2.11)
        bad = (~torch.isclose(got, want, rtol=1e-9, atol=1e-9)).nonzero()
        if len(bad):
            i = bad[0, 0].item()
            sys.exit(f"vector_score disagrees with simdrl_env.score: level {level}, digits {digits_l[i]}, "
                     f"program {programs_l[i]}: {got[i].item()} != {want[i].item()}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    ap.add_argument("--batches", default="192,4096")
    ap.add_argument("--iters", type=int, default=10, help="timed updates per batch (after 3 warm-up ones)")
    ap.add_argument("--threads", type=int, default=0, help="torch.set_num_threads (0: PyTorch's default)")
    ap.add_argument("--steps", type=int, default=6, help="rollout length T (the seed recipe's 6)")
    ap.add_argument("--level", "--stage", dest="level", type=int, default=0, choices=[0, 1, 2])
    ap.add_argument("--scoring", default="vector", choices=["vector", "python"])
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()

    if a.threads:
        torch.set_num_threads(a.threads)
    if a.device == "cuda" and not torch.cuda.is_available():
        sys.exit("torch_update_bench: --device cuda but torch.cuda.is_available() is false")
    if a.scoring == "vector":
        check_vector_score(steps=a.steps)
    dev = torch.device(a.device)
    torch.manual_seed(a.seed)
    rng = random.Random(a.seed)
    net = Policy().to(dev)
    opt = torch.optim.Adam(net.parameters(), lr=3e-4)
    level, T = a.level, a.steps
    ctx_len = 3 + level + 1  # the digits the level shows, then CTX

    def tasks(B):
        """digits (B, 5) on the device, ctx (B, L) and lengths (B,)."""
        if a.scoring == "vector":
            digits = torch.randint(0, 10, (B, 5), device=dev)
            ctx = torch.cat([digits[:, :3 + level], torch.full((B, 1), CTX, dtype=torch.long, device=dev)], 1)
            lengths = torch.full((B,), ctx_len, dtype=torch.long, device=dev)
            return digits, ctx, lengths
        digits = [[rng.randint(0, 9) for _ in range(5)] for _ in range(B)]
        ctx, lengths = context_batch([dg[:3 + level] + [CTX] for dg in digits])
        return digits, ctx.to(dev), lengths.to(dev)

    def update(B):
        digits, ctx, lengths = tasks(B)
        levels = torch.full((B,), level, dtype=torch.long, device=dev)
        h = net.initial_state(ctx, lengths, levels)
        token = torch.full((B,), CTX, dtype=torch.long, device=dev)
        acts, logps, ents, vals = [], [], [], []
        for _ in range(T):
            logits, v, h = net.step(token, h)
            log_probs = F.log_softmax(logits, dim=-1)
            probs = log_probs.exp()
            token = torch.multinomial(probs, 1)[:, 0]
            acts.append(token)
            logps.append(log_probs.gather(1, token[:, None])[:, 0])
            ents.append(-(probs * torch.log(probs + 1e-9)).sum(1))
            vals.append(v)
        acts, logps, ents, vals = (torch.stack(x, 1) for x in (acts, logps, ents, vals))
        if a.scoring == "vector":
            R = vector_score(level, digits, acts).float()
        else:
            R = torch.tensor([score(level, dg, p)[0] for dg, p in zip(digits, acts.tolist())],
                             dtype=torch.float32, device=dev)
        predicted = vals.sum(1)
        adv = (R - predicted).detach()
        pg = -(logps.sum(1) * adv).mean()
        value_loss = F.mse_loss(predicted, R)
        entropy_loss = -ents.mean()
        loss = pg + 0.5 * value_loss + 0.01 * entropy_loss
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
        opt.step()

    def sync():
        if a.device == "cuda":
            torch.cuda.synchronize()

    for B in [int(x) for x in a.batches.split(",") if x]:
        for _ in range(3):
            update(B)
        sync()
        ts = []
        for _ in range(a.iters):
            t0 = time.perf_counter()
            update(B)
            sync()
            ts.append(time.perf_counter() - t0)
        med = statistics.median(ts)
        print(json.dumps(dict(
            part="full_update", batch=B, median_ms=round(1e3 * med, 4), min_ms=round(1e3 * min(ts), 4),
            iters=a.iters, steps_per_s=round(B * T / med), device=a.device, threads=torch.get_num_threads(),
            scoring=a.scoring, steps=T, stage=level, torch=torch.__version__,
            gpu=torch.cuda.get_device_name() if a.device == "cuda" else None)), flush=True)


if __name__ == "__main__":
    main()
