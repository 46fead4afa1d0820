#!/usr/bin/env python3
"""Writes a golden folder (env.jsonl, model.json) for simdrl's parity tests;
testdata/golden/README.md describes the format and the two folders' commands.

usage: make_golden.py OUTDIR [--seed N] [--env-cases N] [--batch N] [--observations O] [--context bag|read]
                        [--fields O1,O2,...] [--vector F]
                        [--estimator rloo|grpo|drgrpo --group K [--mask]]

Needs PyTorch (Debian's python3-torch) and the standard library. Every case
is a function of the arguments: one random.Random(1000 + seed) draws the
environment cases and then the batches, torch.manual_seed(seed) the network.
The network runs in float64. With --observations O > 0 the network has
obs_emb (O×d) and each step's input is emb(action) + obs_emb(observation):
every batch row also gets random observations, one per step (teacher forcing,
so no environment is needed), and model.json says `observations`; without,
the files are as they were before the option. With --context read the
network reads its context (Policy.read) instead of averaging it, model.json
says `"context": "read"`, and each batch row's context has its own length
(0 to 8 digits, at least two lengths a batch), so that one batch holds
reading steps of rows that start late. With --fields and --vector (task.Fielded)
the input is emb(action) + each field's embedding + vec(vector): every batch row
gets random fields and vectors, one per step (`fields`, `vec`), and model.json
says `fields` and `vector`. With --estimator the loss is that
group estimator's instead of the seed's (group_losses): each batch is
batch/K groups of K rows that share one context (one instance, as -group K
plays it), each row has its end step (`end`, the step that ended it), one
group of each batch has equal rewards, and model.json says `estimator`,
`group` and `mask`; without, the files are as they were before the option.
"""
import argparse
import json
import os
import random

import torch
import torch.nn.functional as F

from simdrl_env import score
from simdrl_torch import CTX, HIDDEN, LEVELS, TOKENS, VOCAB, Policy, context_batch

STEPS = 6  # actions per teacher-forced episode
LR, CLIP = 3e-4, 1.0
ADAM_ORDER = "for step in 0..1: for batch in batches: forward, loss, backward, clip, step"

T = TOKENS
TOOLS = [T["MUL"], T["ADD"], T["SUB"], T["ANS"], T["STO"], T["RCL"]]
NOT_ANS = [t for t in TOOLS if t != T["ANS"]]
# Programs one edit away from solving some level, so that env cases reach
# every bonus and both answers.
NEAR = [
    ["MUL", "ANS"], ["MUL", "ADD", "ANS"], ["MUL", "ADD", "SUB", "ANS"], ["MUL", "ADD", "STO", "SUB", "ANS"],
    ["STO", "MUL", "ADD", "SUB", "ANS"], ["MUL", "STO", "RCL", "ANS"], ["MUL", "ADD", "STO", "RCL", "SUB", "ANS"],
]


def env_case(rng, i):
    level = rng.randrange(LEVELS)
    digits = [rng.randint(0, 9) for _ in range(5)]
    length = rng.randint(0, 9)
    if i % 4 == 3:
        program = edit(rng, [T[name] for name in rng.choice(NEAR)])
    elif i % 3 == 0:
        program = [rng.choice(TOOLS) for _ in range(length)]
    elif i % 3 == 1:
        program = [rng.randrange(VOCAB) for _ in range(length)]
    else:
        program = [rng.choice(NOT_ANS) for _ in range(max(length - 1, 0))] + [T["ANS"]]
    reward, steps = score(level, digits, program)
    return dict(stage=level, digits=digits, actions=program, reward=reward, steps=steps)


def edit(rng, program):
    """One random insertion, deletion or tool substitution."""
    kind, at = rng.randrange(3), rng.randrange(len(program))
    if kind == 0:
        program.insert(at, rng.randrange(VOCAB))
    elif kind == 1:
        del program[at]  # every NEAR program has two tokens or more
    else:
        program[at] = rng.choice(TOOLS)
    return program


def draw_batch(rng, level, size, observations=0, read=False, fields=(), vector=0, group=0):
    ctx, actions, rewards, obs = [], [], [], []
    lengths = [3 + level] * size
    if read:
        lengths = [rng.randint(0, 8) for _ in range(size)]
        if size > 1 and len(set(lengths)) == 1:
            lengths[0] = (lengths[0] + 4) % 9
    for i in range(size):
        if group and i % group:
            ctx.append(list(ctx[-1]))  # the group's instance
        else:
            ctx.append([rng.randint(0, 9) for _ in range(lengths[i])] + [CTX])
        actions.append([rng.randrange(VOCAB) for _ in range(STEPS)])
        rewards.append(round(rng.uniform(-0.2, 1.3), 6))
        if observations > 0:
            # obs[t]: what the input of step t carries (t = 0: Reset's, then
            # the one returned after action t-1).
            obs.append([rng.randrange(observations) for _ in range(STEPS)])
    batch = dict(ctx=ctx, stage=[level] * size, actions=actions, rewards=rewards)
    if observations > 0:
        batch["obs"] = obs
    if fields or vector > 0:  # drawn after the rest, so the other cases stay as they were
        batch["fields"] = [[[rng.randrange(o) for o in fields] for _ in range(STEPS)] for _ in range(size)]
        batch["vec"] = [[[round(rng.uniform(-1, 1), 6) for _ in range(vector)] for _ in range(STEPS)] for _ in range(size)]
    if group:
        g = rng.randrange(size // group)  # a group without reward variance: its advantages are 0
        for i in range(g * group, (g + 1) * group):
            rewards[i] = rewards[g * group]
        batch["end"] = [rng.randrange(STEPS) for _ in range(size)]
    return batch


def teacher_forced(net, batch):
    """Per-step log-prob of the given action, entropy, value and argmax, each
    (B, STEPS): the given actions (and observations) are fed back, nothing is
    sampled."""
    given = torch.tensor(batch["actions"])
    observed = None  # per step: what its input carries
    if "obs" in batch:
        obs = torch.tensor(batch["obs"])
        observed = [obs[:, t] for t in range(STEPS)]
    if "fields" in batch:
        B = len(given)
        fl = torch.tensor(batch["fields"], dtype=torch.long).reshape(B, STEPS, -1)
        vc = torch.tensor(batch["vec"], dtype=torch.float64).reshape(B, STEPS, -1)
        observed = [(fl[:, t], vc[:, t]) for t in range(STEPS)]
    if net.reads:
        h = net.read(batch["ctx"], torch.tensor(batch["stage"]), None if observed is None else observed[0])
    else:
        ctx, lengths = context_batch(batch["ctx"])
        h = net.initial_state(ctx, lengths, torch.tensor(batch["stage"]))
    token = torch.full((len(given),), CTX, dtype=torch.long)
    logp, entropy, value, greedy = [], [], [], []
    for t in range(STEPS):
        logits, v, h = net.step(token, h, None if observed is None else observed[t])
        log_probs = F.log_softmax(logits, dim=-1)
        probs = log_probs.exp()
        entropy.append(-(probs * torch.log(probs + 1e-9)).sum(1))  # the seed's epsilon
        logp.append(log_probs.gather(1, given[:, t, None])[:, 0])
        value.append(v)
        greedy.append(logits.argmax(1))
        token = given[:, t]
    return [torch.stack(x, 1) for x in (logp, entropy, value, greedy)]


def losses(logp, entropy, value, rewards):
    """pg, value, entropy and total loss, with the advantage detached."""
    returns = torch.tensor(rewards, dtype=torch.float64)
    predicted = value.sum(1)
    advantage = (returns - predicted).detach()
    pg = -(logp.sum(1) * advantage).mean()
    value_loss = F.mse_loss(predicted, returns)
    entropy_loss = -entropy.mean()
    return pg, value_loss, entropy_loss, pg + 0.5 * value_loss + 0.01 * entropy_loss


def group_losses(logp, entropy, value, rewards, end, estimator, K, mask):
    """A group estimator's pg, value, entropy and total loss (cpu/group.go):
    A_b compares row b's return with its group's (the K consecutive rows);
    pg = -(1/B) sum_b sum_t m_t logp_t A_b / L_b (L_b the row's kept steps for
    grpo, else 1), value = (1/B) sum_b sum_t m_t (v_t - R_b)^2 (the value head
    is regressed on the return, not the baseline), entropy = -(1/(B*T)) sum m_t
    entropy_t, with m_t = 1 up to the row's end step when mask, else 1."""
    B, steps = logp.shape
    returns = torch.tensor(rewards, dtype=torch.float64)
    kept = torch.ones(B, steps, dtype=torch.float64)
    if mask:
        kept = (torch.arange(steps)[None, :] <= torch.tensor(end)[:, None]).double()
    g = returns.view(-1, K)
    if estimator == "rloo":  # R minus the mean of the other K - 1 returns
        adv = g - (g.sum(1, keepdim=True) - g) / (K - 1)
    elif estimator == "grpo":  # torch.std: the sample std, K - 1
        adv = (g - g.mean(1, keepdim=True)) / (g.std(1, keepdim=True) + 1e-6)
    else:  # drgrpo
        adv = g - g.mean(1, keepdim=True)
    adv = adv.reshape(-1).detach()
    length = kept.sum(1) if estimator == "grpo" else torch.ones(B, dtype=torch.float64)
    pg = -((logp * kept).sum(1) * adv / length).sum() / B
    value_loss = (((value - returns[:, None]) ** 2) * kept).sum() / B
    entropy_loss = -(entropy * kept).sum() / (B * steps)
    return pg, value_loss, entropy_loss, pg + 0.5 * value_loss + 0.01 * entropy_loss


def rounded(t):
    """Row-major floats to 12 significant digits: float64 noise stays out of
    the files, and the tests' tolerance is far looser."""
    return [float(f"{x:.12g}") for x in t.detach().reshape(-1).tolist()]


def tensors(net):
    return {name: dict(shape=list(p.shape), data=rounded(p)) for name, p in net.named_parameters()}


def model_case(net, batches, seed, observations=0, fields=(), vector=0, estimator=None, group=0, mask=False):
    out = dict(seed=seed, vocab=VOCAB, hidden=HIDDEN, steps=STEPS, tokens=TOKENS,
               param_order=[name for name, _ in net.named_parameters()], init=tensors(net), batches=[])
    if observations > 0:
        out["observations"] = observations
    if fields or vector > 0:
        out["fields"], out["vector"] = list(fields), vector
    if net.reads:
        out["context"] = "read"
    loss_of = lambda logp, entropy, value, batch: losses(logp, entropy, value, batch["rewards"])
    if estimator:
        out.update(estimator=estimator, group=group, mask=mask)
        loss_of = lambda logp, entropy, value, batch: group_losses(logp, entropy, value, batch["rewards"], batch["end"],
                                                                   estimator, group, mask)
    for batch in batches:  # each at the initial parameters
        net.zero_grad()
        logp, entropy, value, greedy = teacher_forced(net, batch)
        pg, value_loss, entropy_loss, total = loss_of(logp, entropy, value, batch)
        total.backward()
        out["batches"].append(dict(
            **batch, logp=rounded(logp), entropy=rounded(entropy), value=rounded(value),
            greedy=greedy.reshape(-1).tolist(),
            loss=dict(pg=pg.item(), value=value_loss.item(), entropy=entropy_loss.item(), total=total.item()),
            grad={name: rounded(p.grad) for name, p in net.named_parameters()}))
    opt = torch.optim.Adam(net.parameters(), lr=LR)
    norms = []
    for _ in range(2):
        for batch in batches:
            total = loss_of(*teacher_forced(net, batch)[:3], batch)[3]
            opt.zero_grad()
            total.backward()
            norms.append(torch.nn.utils.clip_grad_norm_(net.parameters(), CLIP).item())
            opt.step()
    betas = opt.defaults["betas"]
    out["adam"] = dict(lr=LR, betas=list(betas), eps=opt.defaults["eps"], clip=CLIP, order=ADAM_ORDER,
                       grad_norms_before_clip=norms, after=tensors(net))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("outdir")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--env-cases", type=int, default=6000)
    ap.add_argument("--batch", type=int, default=6)
    ap.add_argument("--observations", type=int, default=0,
                    help="observation vocabulary: the inputs carry random observations (0: none)")
    ap.add_argument("--context", choices=["bag", "read"], default="bag",
                    help="h0 from the mean of the context (bag) or reading it one token a step (read)")
    ap.add_argument("--fields", default="",
                    help="observation fields' sizes, comma-separated: the inputs carry random fields (empty: none)")
    ap.add_argument("--vector", type=int, default=0, help="observation vector's width: random vectors (0: none)")
    ap.add_argument("--estimator", choices=["rloo", "grpo", "drgrpo"],
                    help="the loss of this group estimator instead of the seed's (group_losses)")
    ap.add_argument("--group", type=int, default=0, help="with --estimator: rows a group, at least 2, dividing --batch")
    ap.add_argument("--mask", action="store_true", help="with --estimator: the steps after a row's end step weigh nothing")
    args = ap.parse_args()
    if args.observations < 0:
        ap.error("--observations must be 0 or more")
    fields = tuple(int(o) for o in args.fields.split(",")) if args.fields else ()
    if any(o < 1 for o in fields) or args.vector < 0 or ((fields or args.vector) and args.observations):
        ap.error("--fields are sizes of at least 1, --vector 0 or more, and neither goes with --observations")
    if args.estimator and (args.group < 2 or args.batch % args.group):
        ap.error("--estimator needs a --group of at least 2 that divides --batch")
    if not args.estimator and (args.group or args.mask):
        ap.error("--group and --mask go with --estimator")
    group = args.group if args.estimator else 0
    os.makedirs(args.outdir, exist_ok=True)

    rng = random.Random(1000 + args.seed)
    with open(os.path.join(args.outdir, "env.jsonl"), "w") as f:
        for i in range(args.env_cases):
            f.write(json.dumps(env_case(rng, i)) + "\n")
    read = args.context == "read"
    batches = [draw_batch(rng, level, args.batch, args.observations, read, fields, args.vector, group) for level in range(LEVELS)]

    torch.manual_seed(args.seed)
    net = Policy(observations=args.observations, read=read, fields=fields, vector=args.vector).double()  # drawn in float32 as PyTorch does by default, then widened
    with open(os.path.join(args.outdir, "model.json"), "w") as f:
        json.dump(model_case(net, batches, args.seed, args.observations, fields, args.vector, args.estimator, group, args.mask), f)
    print("wrote", args.outdir)


if __name__ == "__main__":
    main()
