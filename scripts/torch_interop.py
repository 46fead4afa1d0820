#!/usr/bin/env python3
"""Load a simdrl checkpoint into the seed's PyTorch module and print its greedy
programs, rewards and solve rates for a fixed set of contexts.

Usage: torch_interop.py CHECKPOINT CONTEXTS_JSON

CONTEXTS_JSON: {"contexts": [{"stage": s, "digits": [a, b, c, d, e]}, ...], "steps": 6}
Prints:        {"programs": [[tok, ...], ...], "rewards": [...], "solve_rate": [t0, t1, t2]}

Uses only PyTorch and the Python standard library: the safetensors file is
parsed with struct and json. Tensors whose names start with "optimizer." and
the metadata are ignored; the model's tensors are loaded with strict=True.
The module is the seed's ActorCritic with one change, the one simdrl makes:
the initial state is computed per sample, h0 = tanh(mean over the context
tokens of emb + stage_emb[stage]) (the seed's unsqueeze broadcasts to (B,B,d)
and mixes the batch).
"""
import json
import struct
import sys

import torch
import torch.nn as nn

V = 18; CTX = 10; MUL, ADD, SUB, ANS, STO, RCL, EOS = 11, 12, 13, 14, 15, 16, 17


class ToolEnv:  # step_seq copied verbatim from seed.py
   def __init__(self, max_steps=7):
       self.max_steps = max_steps
   def step_seq(self, actions, abc, stage):
       a,b,c,d,e = abc; last=None; mem=None; steps=0; shaped=0.0
       goal0=a*b; goal1=goal0+c; goal2=goal1-d; goal3=d*e; goal4=goal1-goal3
       for act in actions:
           steps+=1
           if act==MUL: last=(a*b if last is None else last*(d if stage>0 else 1))
           elif act==ADD and last is not None: last+=c
           elif act==SUB and last is not None:
               last -= (e if stage==2 and mem=="use_d" else (d if stage>0 else 0))
           elif act==STO: mem="use_d" if stage>=1 else "ok"
           elif act==RCL and mem is not None:
               last = (d*e) if (stage==2 and mem=="use_d") else (last if last else 0)
           elif act==ANS:
               target=[goal0,goal1,goal2,goal4][stage] if stage==2 else [goal0,goal1,goal2][stage]
               correct=(last==target)
               if stage==0: shaped += 0.25*(last==goal0)+0.5*(last==goal1)
               if stage==1: shaped += 0.25*(last==goal0)+0.5*(last==goal1)+0.75*(last==goal2)
               if stage==2: shaped += 0.2*(last==goal0)+0.4*(last==goal1)+0.6*(last==goal4)+0.6*(last==goal3)
               return (1.0 if correct else 0.0)+0.2*shaped, steps
           if steps>=self.max_steps: break
       return 0.0, steps


class ActorCritic(nn.Module):  # the seed's module, h0 per sample
    def __init__(self, V, d=96, nstage=3):
        super().__init__()
        self.emb = nn.Embedding(V, d); self.stage_emb = nn.Embedding(nstage, d)
        self.rnn = nn.GRU(d, d, 1, batch_first=True); self.pi = nn.Linear(d, V); self.v = nn.Linear(d, 1)

    def forward(self, ctx, ctx_len, stage, max_len=6):
        """Greedy rollout. ctx: (B, L) tokens padded with EOS after ctx_len[b]."""
        B, L = ctx.shape
        mask = (torch.arange(L).unsqueeze(0) < ctx_len.unsqueeze(1)).unsqueeze(2).to(self.emb.weight.dtype)
        ce = (self.emb(ctx) * mask).sum(1) / ctx_len.unsqueeze(1).to(mask.dtype) + self.stage_emb(stage)
        h = torch.tanh(ce).unsqueeze(0); inp = self.emb(torch.full((B, 1), CTX, dtype=torch.long))
        acts = []
        for _ in range(max_len):
            out, h = self.rnn(inp, h); logits = self.pi(out[:, -1])
            a = torch.argmax(logits, 1)
            inp = self.emb(a.unsqueeze(1))
            acts.append(a)
        return torch.stack(acts, 1)


DTYPES = {"F32": (torch.float32, 4)}


def read_safetensors(path):
    """Parse a safetensors file with struct and json: (tensors, metadata)."""
    with open(path, "rb") as f:
        raw = f.read()
    if len(raw) < 8:
        raise ValueError(f"{path}: truncated file")
    (n,) = struct.unpack("<Q", raw[:8])
    if n > 100 << 20 or 8 + n > len(raw):
        raise ValueError(f"{path}: bad header length {n}")
    header = json.loads(raw[8:8 + n].decode("utf-8"))
    data = memoryview(raw)[8 + n:]
    metadata = header.pop("__metadata__", None) or {}
    tensors = {}
    for name, info in header.items():
        if info["dtype"] not in DTYPES:
            raise ValueError(f"{path}: tensor {name} has dtype {info['dtype']}, want F32")
        dtype, size = DTYPES[info["dtype"]]
        begin, end = info["data_offsets"]
        shape = info["shape"]
        count = 1
        for s in shape:
            count *= s
        if not 0 <= begin <= end <= len(data) or end - begin != count * size:
            raise ValueError(f"{path}: tensor {name} has shape {shape} and data_offsets {[begin, end]}")
        if count == 0:
            t = torch.empty(shape, dtype=dtype)
        else:
            t = torch.frombuffer(bytearray(data[begin:end]), dtype=dtype).reshape(shape)
        if sys.byteorder != "little":
            t = t.byteswap()
        tensors[name] = t
    return tensors, metadata


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: torch_interop.py CHECKPOINT CONTEXTS_JSON")
    tensors, _ = read_safetensors(sys.argv[1])
    state = {k: v for k, v in tensors.items() if not k.startswith("optimizer.")}
    d = state["emb.weight"].shape[1]
    net = ActorCritic(V, d=d, nstage=state["stage_emb.weight"].shape[0])
    net.load_state_dict(state, strict=True)
    net.eval()

    with open(sys.argv[2]) as f:
        spec = json.load(f)
    contexts, steps = spec["contexts"], spec["steps"]
    B = len(contexts)
    L = max(3 + c["stage"] + 1 for c in contexts)
    ctx = torch.full((B, L), EOS, dtype=torch.long)
    ctx_len = torch.zeros(B, dtype=torch.long)
    for i, c in enumerate(contexts):
        toks = c["digits"][:3 + c["stage"]] + [CTX]
        ctx[i, :len(toks)] = torch.tensor(toks)
        ctx_len[i] = len(toks)
    stage = torch.tensor([c["stage"] for c in contexts], dtype=torch.long)
    with torch.no_grad():
        acts = net(ctx, ctx_len, stage, max_len=steps)

    env = ToolEnv()
    programs, rewards = [], []
    solved, count = [0, 0, 0], [0, 0, 0]
    for i, c in enumerate(contexts):
        prog = acts[i].tolist()
        r, _ = env.step_seq(prog, tuple(c["digits"]), c["stage"])
        programs.append(prog); rewards.append(r)
        count[c["stage"]] += 1
        solved[c["stage"]] += r >= 1
    rate = [solved[s] / count[s] if count[s] else None for s in range(3)]
    json.dump({"programs": programs, "rewards": rewards, "solve_rate": rate}, sys.stdout)
    print()


if __name__ == "__main__":
    main()
