#!/usr/bin/env python3
"""Load a simdrl checkpoint into a PyTorch module (simdrl_torch.Policy) and
print its greedy programs for a fixed set of contexts. interop_test.go scores
them with the Go env package and compares them with simdrl's own.

Usage: torch_interop.py CHECKPOINT CONTEXTS_JSON

CONTEXTS_JSON, for any task:
    {"steps": 13, "end": 10, "not_actions": [0, 1, ...], "tokens": ["0", ..., "[ANS]"],
     "episodes": [{"stage": s, "context": [tok, ...], "observations": [o0, o1, ...],
                   "fields": [[f0, f1, ...], ...], "vector": [[x0, x1, ...], ...],
                   "legal": [[tok, ...], ...]}, ...]}
  context: the instance's context tokens, without the end ("end", the task's
  context end, the first input); stage: the level's embedding (task.Stage);
  tokens: the task's token names (the policy server's GET / lists them);
  not_actions: the tokens the policy never writes (task.Task.NotActions).
  What the task's game produced before each step (at the first, its Reset's;
  then after each token), one entry a step to play, which the script cannot
  compute and takes as given:
    observations: for a model that observes (obs_emb.weight);
    fields and vector: for a model with fields (task.Fielded: field_emb.f.weight,
      vec.weight), each step's categorical fields and float vector;
    legal: for a task with a legal-action mask (task.LegalGame), each step's
      legal tokens; the others are never played (gru.MaskedLogit).
  An episode plays as many steps as its lists hold (all equally long), or
  "steps" without any.
or the seed task's own form:
    {"contexts": [{"stage": s, "digits": [a, b, c, d, e]}, ...], "steps": 6}
Prints: {"programs": [[tok, ...], ...], "tokens": [["[MUL]", ...], ...]}:
  the greedy programs as token ids and as the task's token names.

Uses only PyTorch and the Python standard library: the safetensors file is
parsed with struct and json. Tensors whose names start with "optimizer." and
the metadata are ignored, but for the config's "context": "read" (a model that
reads its context, Policy.read); the model's tensors (obs_emb.weight,
field_emb.*.weight and vec.* too, for a model that observes) are loaded with
strict=True.
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


def model_inputs(net):
    """The per-step inputs net takes beside the previous token, by their
    names in an episode (the general form)."""
    names = []
    if net.obs_emb is not None:
        names.append("observations")
    if net.field_emb is not None:
        names.append("fields")
    if net.vec is not None:
        names.append("vector")
    return names


def check_range(b, what, values, size):
    """Refuses a categorical input outside 0..size-1 in one line."""
    if values.numel() and (values.min() < 0 or values.max() >= size):
        sys.exit(f"episode {b}: {what} outside 0..{size - 1}")


def step_inputs(net, spec):
    """What each episode's steps are fed beside the previous token, as the
    task's game produced them in Go (the script cannot compute them), and
    the steps each plays: observations (B, T) for a model that observes
    (obs_emb), fields (B, T, nf) and vector (B, T, F) for one with fields
    (field_emb.*, vec.*), and legal (B, T, V) for a task with a legal-action
    mask (True everywhere without one). An episode plays one step per entry
    of its lists (all as long), else "steps"; the rest of a row is padding."""
    episodes, steps, V = spec["episodes"], spec["steps"], net.pi.out_features
    keys = model_inputs(net)
    if any("legal" in e for e in episodes):
        keys.append("legal")
    lengths = []
    for b, e in enumerate(episodes):
        counts = {len(e.get(k) or []) for k in keys} or {steps}
        if len(counts) != 1 or not 1 <= min(counts) <= steps:
            takes = ", ".join(model_inputs(net)) or "no observation"
            sys.exit(f"episode {b}: give {', '.join(keys)} for each step it plays, "
                     f"as many of each, 1 to {steps} (the model takes {takes})")
        lengths.append(counts.pop())
    B, nf = len(episodes), len(net.field_emb or [])
    obs = torch.zeros((B, steps), dtype=torch.long)
    fields = torch.zeros((B, steps, nf), dtype=torch.long)
    vector = torch.zeros((B, steps, 0 if net.vec is None else net.vec.in_features))
    legal = torch.ones((B, steps, V), dtype=torch.bool)
    for b, (e, n) in enumerate(zip(episodes, lengths)):
        try:
            if net.obs_emb is not None:
                obs[b, :n] = torch.tensor(e["observations"], dtype=torch.long)
                check_range(b, "an observation", obs[b, :n], net.obs_emb.num_embeddings)
            if net.field_emb is not None:
                fields[b, :n] = torch.tensor(e["fields"], dtype=torch.long).reshape(n, nf)
                for f, emb in enumerate(net.field_emb):
                    check_range(b, f"a field {f} value", fields[b, :n, f], emb.num_embeddings)
            if net.vec is not None:
                vector[b, :n] = torch.tensor(e["vector"], dtype=torch.float32).reshape(n, vector.shape[2])
            if "legal" in keys:
                legal[b, :n] = False
                for t, toks in enumerate(e["legal"]):
                    if not toks or min(toks) < 0 or max(toks) >= V:
                        sys.exit(f"episode {b}, step {t}: the legal tokens {toks} "
                                 f"are not a non-empty list of 0..{V - 1}")
                    legal[b, t, toks] = True
        except (TypeError, ValueError, RuntimeError, IndexError) as err:
            sys.exit(f"episode {b}: its {', '.join(keys)} do not fit the model: {err}".replace("\n", " "))
    return obs, fields, vector, legal, lengths


def greedy_programs(net, spec):
    """Each episode's program: at every step the action with the largest
    logit (never a token of not_actions, never one the step's legal mask
    leaves out: gru.MaskedLogit replaces its logit, as simdrl's engines
    do), fed back as the next input, with what the episode observed at
    that step (step_inputs); a reading model reads with step 0's."""
    episodes, steps, end = spec["episodes"], spec["steps"], spec["end"]
    rows = [list(e["context"]) + [end] for e in episodes]
    level = torch.tensor([e["stage"] for e in episodes])
    obs, fields, vector, legal, lengths = step_inputs(net, spec)

    def seen(t):  # what Policy.inputs takes at step t
        return (fields[:, t], vector[:, t]) if net.fielded else obs[:, t]

    if net.reads:
        h = net.read(rows, level, seen(0), pad=end)
    else:
        ctx, counts = context_batch(rows, pad=end)
        h = net.initial_state(ctx, counts, level)
    not_actions = torch.zeros(net.pi.out_features)
    not_actions[list(spec.get("not_actions", []))] = -1e4  # gru.NotActionLogit
    token = torch.full((len(episodes),), end, dtype=torch.long)
    actions = []
    for t in range(steps):
        logits, _, h = net.step(token, h, seen(t))
        token = (logits + not_actions).masked_fill(~legal[:, t], -1e30).argmax(1)  # gru.MaskedLogit
        actions.append(token)
    programs = torch.stack(actions, 1).tolist()
    return [p[:n] for p, n in zip(programs, lengths)]


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: torch_interop.py CHECKPOINT CONTEXTS_JSON")
    tensors, metadata = read_safetensors(sys.argv[1])
    state = {k: v for k, v in tensors.items() if not k.startswith(("optimizer.", "items."))}
    vocab, hidden = state["emb.weight"].shape
    read = json.loads(metadata.get("config", "{}")).get("context") == "read"
    observations = state["obs_emb.weight"].shape[0] if "obs_emb.weight" in state else 0
    # A task.Fielded model: field_emb.0.weight, field_emb.1.weight, ... and vec.weight (d, F).
    fields = []
    while f"field_emb.{len(fields)}.weight" in state:
        fields.append(state[f"field_emb.{len(fields)}.weight"].shape[0])
    vector = state["vec.weight"].shape[1] if "vec.weight" in state else 0
    net = Policy(vocab=vocab, hidden=hidden, levels=state["stage_emb.weight"].shape[0], observations=observations,
                 read=read, fields=fields, vector=vector)
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
