#!/usr/bin/env python3
"""Load a simdrl checkpoint into a PyTorch module (simdrl_torch.Policy) and
print its greedy programs for a fixed set of contexts. interop_test.go scores
them with the Go env package and compares them with simdrl's own.

Usage: torch_interop.py CHECKPOINT CONTEXTS_JSON

CONTEXTS_JSON, for any task:
    {"steps": 13, "end": 10, "not_actions": [0, 1, ...], "tokens": ["0", ..., "[ANS]"],
     "episodes": [{"stage": s, "context": [tok, ...], "observations": [o0, o1, ...]}, ...]}
  context: the instance's context tokens, without the end ("end", the task's
  context end, the first input); stage: the level's embedding (task.Stage);
  observations: for a model that observes (obs_emb.weight), what the task
  observed before each step (o0: its Reset's, then after each token), one per
  step to play: the episode plays that many steps (else "steps"); tokens: the
  task's token names (the policy server's GET / lists them); not_actions: the
  tokens the policy never writes (task.Task.NotActions).
or the seed task's own form:
    {"contexts": [{"stage": s, "digits": [a, b, c, d, e]}, ...], "steps": 6}
Prints: {"programs": [[tok, ...], ...], "tokens": [["[MUL]", ...], ...]}:
  the greedy programs as token ids and as the task's token names.

Uses only PyTorch and the Python standard library: the safetensors file is
parsed with struct and json. Tensors whose names start with "optimizer." and
the metadata are ignored, but for the config's "context": "read" (a model that
reads its context, Policy.read); the model's tensors (obs_emb.weight too, for
a model that observes) are loaded with strict=True.
"""
import json
import struct
import sys

import torch

from simdrl_torch import CTX, TOKENS, Policy, context_batch

# The model is F32; a run's item state (items.*) is F64, I32 and I64.
DTYPES = {"F32": (torch.float32, 4), "F64": (torch.float64, 8), "I32": (torch.int32, 4), "I64": (torch.int64, 8)}


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
            raise ValueError(f"{path}: tensor {name} has dtype {info['dtype']}, want one of {sorted(DTYPES)}")
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


# The seed's token names (env/seed's tokenNames), for its own form of contexts.
SEED_NAMES = [str(d) for d in range(10)] + [f"[{n}]" for n, _ in sorted(TOKENS.items(), key=lambda kv: kv[1])]


def seed_spec(spec):
    """The seed's form of contexts as the general form."""
    return {"steps": spec["steps"], "end": CTX, "not_actions": [], "tokens": SEED_NAMES,
            "episodes": [{"stage": c["stage"], "context": c["digits"][:3 + c["stage"]]} for c in spec["contexts"]]}


def greedy_programs(net, spec):
    """Each episode's program: at every step the action with the largest
    logit (never a token of not_actions), fed back as the next input, with
    the episode's observation of that step when the model observes."""
    episodes, steps, end = spec["episodes"], spec["steps"], spec["end"]
    rows = [list(e["context"]) + [end] for e in episodes]
    level = torch.tensor([e["stage"] for e in episodes])
    lengths = [steps] * len(episodes)
    obs = None
    if net.obs_emb is not None:
        lengths = [len(e.get("observations") or []) for e in episodes]
        if min(lengths) < 1 or max(lengths) > steps:
            sys.exit(f"the model observes (obs_emb.weight): give each episode 1 to {steps} observations")
        obs = torch.zeros((len(episodes), steps), dtype=torch.long)
        for b, e in enumerate(episodes):
            obs[b, :len(e["observations"])] = torch.tensor(e["observations"], dtype=torch.long)
    first = None if obs is None else obs[:, 0]
    if net.reads:
        h = net.read(rows, level, first, pad=end)
    else:
        ctx, counts = context_batch(rows, pad=end)
        h = net.initial_state(ctx, counts, level)
    mask = torch.zeros(net.pi.out_features)
    mask[list(spec.get("not_actions", []))] = -1e4  # gru.NotActionLogit
    token = torch.full((len(episodes),), end, dtype=torch.long)
    actions = []
    for t in range(steps):
        logits, _, h = net.step(token, h, None if obs is None else obs[:, t])
        token = (logits + mask).argmax(1)
        actions.append(token)
    programs = torch.stack(actions, 1).tolist()
    return [p[:n] for p, n in zip(programs, lengths)]


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: torch_interop.py CHECKPOINT CONTEXTS_JSON")
    tensors, metadata = read_safetensors(sys.argv[1])
    state = {k: v for k, v in tensors.items() if not k.startswith(("optimizer.", "items."))}
    vocab, hidden = state["emb.weight"].shape
    fields = [k for k in state if k.startswith(("field_emb.", "vec."))]
    if fields:  # a task.Fielded model: simdrl_torch.Policy has no such input yet
        sys.exit(f"the model observes fields ({', '.join(fields)}), which this script does not load; "
                 "play it with the Go policy package (policy.Session.ActFields)")
    read = json.loads(metadata.get("config", "{}")).get("context") == "read"
    observations = state["obs_emb.weight"].shape[0] if "obs_emb.weight" in state else 0
    net = Policy(vocab=vocab, hidden=hidden, levels=state["stage_emb.weight"].shape[0], observations=observations, read=read)
    net.load_state_dict(state, strict=True)
    net.eval()

    with open(sys.argv[2]) as f:
        spec = json.load(f)
    if "episodes" not in spec:
        spec = seed_spec(spec)
    names = spec.get("tokens") or [str(t) for t in range(vocab)]
    if len(names) != vocab:
        sys.exit(f"{len(names)} token names for a vocabulary of {vocab}")
    with torch.no_grad():
        programs = greedy_programs(net, spec)
    json.dump({"programs": programs, "tokens": [[names[t] for t in p] for p in programs]}, sys.stdout)
    print()


if __name__ == "__main__":
    main()
