#!/usr/bin/env python3
"""Load a simdrl checkpoint into a PyTorch module (simdrl_torch.Policy) and
print its greedy programs for a fixed set of contexts. interop_test.go scores
them with the Go env package and compares them with simdrl's own.

Usage: torch_interop.py CHECKPOINT CONTEXTS_JSON

CONTEXTS_JSON: {"contexts": [{"stage": s, "digits": [a, b, c, d, e]}, ...], "steps": 6}
Prints:        {"programs": [[tok, ...], ...]}

Uses only PyTorch and the Python standard library: the safetensors file is
parsed with struct and json. Tensors whose names start with "optimizer." and
the metadata are ignored, but for the config's "context": "read" (a model that
reads its context, Policy.read); the model's tensors are loaded with
strict=True.
"""
import json
import struct
import sys

import torch

from simdrl_torch import CTX, Policy, context_batch

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


def greedy_programs(net, contexts, steps):
    """Each context's program: at every step the action with the largest logit,
    fed back as the next input."""
    rows = [c["digits"][:3 + c["stage"]] + [CTX] for c in contexts]
    level = torch.tensor([c["stage"] for c in contexts])
    if net.reads:
        h = net.read(rows, level)
    else:
        ctx, lengths = context_batch(rows)
        h = net.initial_state(ctx, lengths, level)
    token = torch.full((len(contexts),), CTX, dtype=torch.long)
    actions = []
    for _ in range(steps):
        logits, _, h = net.step(token, h)
        token = logits.argmax(1)
        actions.append(token)
    return torch.stack(actions, 1).tolist()


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: torch_interop.py CHECKPOINT CONTEXTS_JSON")
    tensors, metadata = read_safetensors(sys.argv[1])
    state = {k: v for k, v in tensors.items() if not k.startswith(("optimizer.", "items."))}
    vocab, hidden = state["emb.weight"].shape
    read = json.loads(metadata.get("config", "{}")).get("context") == "read"
    net = Policy(vocab=vocab, hidden=hidden, levels=state["stage_emb.weight"].shape[0], read=read)
    net.load_state_dict(state, strict=True)
    net.eval()

    with open(sys.argv[2]) as f:
        spec = json.load(f)
    with torch.no_grad():
        programs = greedy_programs(net, spec["contexts"], spec["steps"])
    json.dump({"programs": programs}, sys.stdout)
    print()


if __name__ == "__main__":
    main()
