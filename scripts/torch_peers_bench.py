"""Times simdrl's update in PyTorch run the ways a user speeds it up on a
GPU, peers of simdrl's GPU path (gpu/device_check.sh):

  torch-eager    the update as written, op by op
  torch-graph    the whole update (tasks, sampling, scoring, loss, backward,
                 clip, Adam) captured once in a CUDA graph and replayed: no
                 Python and one launch per update. The random draws use the
                 default CUDA generator, which capture registers (each replay
                 draws new numbers); Adam is capturable=True.
  torch-compile  torch.compile of the rollout and loss (forward and backward
                 compiled) and of the clip and Adam step

The update is scripts/torch_update_bench.py's (the seed recipe at level 0:
B tasks drawn on the device, T = 6 sampled steps of simdrl_torch.Policy's
GRU, vector_score's rewards, the reference's loss, backward,
clip_grad_norm_(1.0), Adam lr 3e-4, float32), with two changes every peer
shares, so that all three capture and compile: the GRU step is written out
from Policy's own weights (nn.GRU goes through cuDNN, which torch.compile
does not trace) and the action is drawn by the Gumbel-max trick with
torch.rand (the same distribution as torch.multinomial, whose CUDA kernel
checks its input on the host). scripts/peers_check.py checks on the CPU that
this update equals Policy's and that it trains.

Usage, from the repository root (or with the scripts side by side):

    python3 scripts/torch_peers_bench.py --peers eager,graph,compile --batches 192,4096 --iters 20

Prints one JSON line per peer and batch; median_ms is one update's time, a
synchronize after each, warm-up, capture and compilation excluded:
  {"part": "full_update", "peer": "torch-graph", "batch": 192, "median_ms": ..., ...}
Without a GPU (unless --device cpu, where the graph peer is refused) it
exits with one line.
"""
import argparse
import json
import os
import statistics
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

from simdrl_torch import CTX, Policy  # noqa: E402
from torch_update_bench import check_vector_score, vector_score  # noqa: E402

PEERS = ("eager", "graph", "compile")


def gru_step(net, tokens, h):
    """Policy.step with the GRU cell written out (gate order r, z, n, as
    nn.GRU): logits (B, V), values (B,), the next h (B, d)."""
    rnn = net.rnn
    gi = F.linear(F.embedding(tokens, net.emb.weight), rnn.weight_ih_l0, rnn.bias_ih_l0)
    gh = F.linear(h, rnn.weight_hh_l0, rnn.bias_hh_l0)
    i_r, i_z, i_n = gi.chunk(3, 1)
    h_r, h_z, h_n = gh.chunk(3, 1)
    r = torch.sigmoid(i_r + h_r)
    z = torch.sigmoid(i_z + h_z)
    n = torch.tanh(i_n + r * h_n)
    h = (1 - z) * n + z * h
    return net.pi(h), net.v(h)[:, 0], h


def gumbel_sample(logits):
    """One action a row, drawn with probability softmax(logits): the argmax
    of logits plus Gumbel noise."""
    u = torch.rand_like(logits).clamp(min=1e-20)
    return (logits - torch.log(-torch.log(u))).argmax(1)


def rollout_loss(net, B, T, level, dev, actions=None, digits=None):
    """One update's loss and mean reward: B tasks, a T-step rollout sampled
    (or fed actions (B, T) and digits (B, 5), for the checks), the rewards
    and the reference's loss."""
    if digits is None:
        digits = torch.randint(0, 10, (B, 5), device=dev)
    ctx = torch.cat([digits[:, :3 + level], torch.full((B, 1), CTX, dtype=torch.long, device=dev)], 1)
    h = torch.tanh(F.embedding(ctx, net.emb.weight).mean(1) + net.stage_emb.weight[level])
    token = torch.full((B,), CTX, dtype=torch.long, device=dev)
    acts, logps, ents, vals = [], [], [], []
    for t in range(T):
        logits, v, h = gru_step(net, token, h)
        log_probs = F.log_softmax(logits, dim=-1)
        probs = log_probs.exp()
        token = gumbel_sample(logits) if actions is None else actions[:, t]
        acts.append(token)
        logps.append(log_probs.gather(1, token[:, None])[:, 0])
        ents.append(-(probs * torch.log(probs + 1e-9)).sum(1))
        vals.append(v)
    acts, logps, ents, vals = (torch.stack(x, 1) for x in (acts, logps, ents, vals))
    R = vector_score(level, digits, acts).float()
    predicted = vals.sum(1)
    adv = (R - predicted).detach()
    pg = -(logps.sum(1) * adv).mean()
    value_loss = F.mse_loss(predicted, R)
    entropy_loss = -ents.mean()
    return pg + 0.5 * value_loss + 0.01 * entropy_loss, R.mean()


def clip_and_step(net, opt):
    torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
    opt.step()


def eager_update(net, opt, B, T, level, dev):
    """update() -> the mean reward (a tensor, not read)."""
    def update():
        opt.zero_grad(set_to_none=True)
        loss, reward = rollout_loss(net, B, T, level, dev)
        loss.backward()
        clip_and_step(net, opt)
        return reward
    return update


def compiled_update(net, opt, B, T, level, dev, mode):
    loss_fn = torch.compile(lambda: rollout_loss(net, B, T, level, dev), mode=mode)
    step_fn = torch.compile(lambda: clip_and_step(net, opt), mode=mode)

    def update():
        opt.zero_grad(set_to_none=True)
        loss, reward = loss_fn()
        loss.backward()
        step_fn()
        return reward
    return update


def graph_update(net, opt, B, T, level, dev):
    """The whole update captured in a CUDA graph, after warm-up updates on a
    side stream (which also create Adam's state), as PyTorch's CUDA graphs
    notes do for whole-network capture."""
    eager = eager_update(net, opt, B, T, level, dev)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            eager()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    opt.zero_grad(set_to_none=True)  # backward then allocates the gradients from the graph's pool
    with torch.cuda.graph(graph):
        loss, reward = rollout_loss(net, B, T, level, dev)
        loss.backward()
        clip_and_step(net, opt)

    def update():
        graph.replay()
        return reward
    return update


def usage(line):
    """Bad input: one line, exit 2."""
    print(line, file=sys.stderr)
    sys.exit(2)


def check_training(peer, dev, B=512, n=150, lr=3e-3, seed=9):
    """n updates of a fresh model at level 0 (a larger lr than the recipe's,
    to see it in few updates): (the mean reward over the first 15, over the
    last 15, whether it rose by 0.1)."""
    torch.manual_seed(seed)
    net = Policy().to(dev)
    opt = torch.optim.Adam(net.parameters(), lr=lr, capturable=peer == "graph")
    update = (graph_update if peer == "graph" else eager_update)(net, opt, B, 6, 0, dev)
    rewards = [float(update()) for _ in range(n)]
    first, last = sum(rewards[:15]) / 15, sum(rewards[-15:]) / 15
    return first, last, last > first + 0.1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--device", default="cuda", choices=["cuda", "cpu"])
    ap.add_argument("--peers", default=",".join(PEERS), help="some of " + ",".join(PEERS))
    ap.add_argument("--batches", default="192,4096")
    ap.add_argument("--iters", type=int, default=20, help="timed updates per batch at most (after 3 warm-up ones)")
    ap.add_argument("--budget-s", type=float, default=0,
                    help="stop timing a batch once its timed updates took this long (at least 3 of them; 0: no limit)")
    ap.add_argument("--steps", type=int, default=6, help="rollout length T (the seed recipe's 6)")
    ap.add_argument("--level", "--stage", dest="level", type=int, default=0, choices=[0, 1, 2])
    ap.add_argument("--compile-mode", default="default", help="torch.compile's mode for the compile peer")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--check", action="store_true",
                    help="first check that 150 updates of the eager and graph peers (B 512, lr 3e-3) raise the reward: "
                         "a JSON line each")
    a = ap.parse_args()
    peers = [p for p in a.peers.split(",") if p]
    if not peers or any(p not in PEERS for p in peers):
        usage(f"torch_peers_bench: --peers {a.peers!r}: a comma-separated list of {', '.join(PEERS)}")
    try:
        batches = [int(x) for x in a.batches.split(",") if x]
    except ValueError:
        usage(f"torch_peers_bench: --batches {a.batches!r} is not a comma-separated list of integers")
    if a.iters < 1:
        usage("torch_peers_bench: --iters must be at least 1")
    if a.device == "cuda" and not torch.cuda.is_available():
        sys.exit("torch_peers_bench: no GPU (torch.cuda.is_available() is false); --device cpu runs eager and compile")
    if a.device == "cpu" and "graph" in peers:
        sys.exit("torch_peers_bench: the graph peer needs --device cuda (CUDA graphs)")
    if "compile" in peers and not hasattr(torch, "compile"):
        sys.exit(f"torch_peers_bench: torch {torch.__version__} has no torch.compile (PyTorch 2 or later)")
    check_vector_score(steps=a.steps)
    dev = torch.device(a.device)
    sync = torch.cuda.synchronize if a.device == "cuda" else (lambda: None)

    failed = False
    for peer in [p for p in peers if p != "compile"] if a.check else []:
        try:
            first, last, ok = check_training(peer, dev)
            print(json.dumps(dict(part="check", peer="torch-" + peer, reward_first=round(first, 4),
                                  reward_last=round(last, 4), ok=ok, updates=150, batch=512, lr=3e-3)), flush=True)
        except Exception as err:
            traceback.print_exc()
            ok = False
            print(json.dumps(dict(part="check", peer="torch-" + peer, ok=False, error=f"{type(err).__name__}: {err}"[:300])),
                  flush=True)
        failed = failed or not ok
    for peer in peers:
        # One model and optimiser a peer, through its batches, as torch_update_bench does.
        torch.manual_seed(a.seed)
        net = Policy().to(dev)
        opt = torch.optim.Adam(net.parameters(), lr=3e-4, capturable=peer == "graph")
        for B in batches:
            try:
                t0 = time.perf_counter()
                reward_start = None
                if peer == "graph":
                    update = graph_update(net, opt, B, a.steps, a.level, dev)
                else:
                    update = (eager_update(net, opt, B, a.steps, a.level, dev) if peer == "eager" else
                              compiled_update(net, opt, B, a.steps, a.level, dev, a.compile_mode))
                for _ in range(3):
                    r = update()
                    reward_start = float(r) if reward_start is None else reward_start
                sync()
                setup_s = time.perf_counter() - t0
                ts = []
                while len(ts) < a.iters and (not a.budget_s or len(ts) < 3 or sum(ts) < a.budget_s):
                    t0 = time.perf_counter()
                    r = update()
                    sync()
                    ts.append(time.perf_counter() - t0)
                med = statistics.median(ts)
                print(json.dumps(dict(
                    part="full_update", peer="torch-" + peer, batch=B, median_ms=round(1e3 * med, 4),
                    min_ms=round(1e3 * min(ts), 4), iters=len(ts), steps_per_s=round(B * a.steps / med),
                    setup_s=round(setup_s, 2), reward_start=round(reward_start, 4), reward_end=round(float(r), 4),
                    steps=a.steps, stage=a.level, device=a.device, torch=torch.__version__,
                    compile_mode=a.compile_mode if peer == "compile" else None,
                    gpu=torch.cuda.get_device_name() if a.device == "cuda" else None)), flush=True)
            except Exception as err:  # one peer's or batch's failure (capture, compile, memory) leaves the others to run
                traceback.print_exc()
                msg = str(err).strip().splitlines()[0] if str(err).strip() else ""
                print(json.dumps(dict(part="full_update", peer="torch-" + peer, batch=B,
                                      error=f"{type(err).__name__}: {msg}"[:300])), flush=True)
                failed = True
            finally:
                update = None
                if a.device == "cuda":
                    torch.cuda.empty_cache()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
