"""simdrl's policy network as a PyTorch module, shared by make_golden.py and
torch_interop.py.

The architecture docs/architecture.md and docs/tasks.md describe: a token embedding and a level
embedding, one GRU layer, a policy head over the 18 tokens and a value head.
The initial state is per sample, h0 = tanh(mean over the context tokens of
emb + stage_emb[level]); the first input is CTX, then each chosen (or given)
action. With observations (a task whose tools answer, gru.Config.Observations)
the input is emb(action) + obs_emb(observation), obs_emb built last so that
the other parameters draw the values they draw without it. A reading model
(gru.Config.Read, make_golden.py --context read) starts from
h0 = tanh(stage_emb[level]) and feeds the context tokens but the end one GRU
step each before the first action (Policy.read). Parameter names are simdrl's
checkpoint and golden-file names.
"""
import torch
from torch import nn

VOCAB, HIDDEN, LEVELS = 18, 96, 3
TOKENS = dict(CTX=10, MUL=11, ADD=12, SUB=13, ANS=14, STO=15, RCL=16, EOS=17)
CTX, EOS = TOKENS["CTX"], TOKENS["EOS"]


class Policy(nn.Module):
    def __init__(self, vocab=VOCAB, hidden=HIDDEN, levels=LEVELS, observations=0, read=False, fields=(), vector=0):
        super().__init__()
        self.reads = read  # read the context (Policy.read) instead of its mean (initial_state)
        # Built in this order: after torch.manual_seed(s) it draws the initial
        # values the golden files hold as `init`.
        self.emb = nn.Embedding(vocab, hidden)
        self.stage_emb = nn.Embedding(levels, hidden)
        self.rnn = nn.GRU(hidden, hidden)  # weight rows in gate order r, z, n
        self.pi = nn.Linear(hidden, vocab)
        self.v = nn.Linear(hidden, 1)
        # Last: the state_dict order simdrl's layout has (obs_emb.weight after v.bias).
        self.obs_emb = nn.Embedding(observations, hidden) if observations > 0 else None
        # Fields (task.Fielded), after it: one embedding per categorical field
        # (field_emb.f.weight) and a linear layer for the float vector (vec).
        self.field_emb = nn.ModuleList([nn.Embedding(o, hidden) for o in fields]) if fields else None
        self.vec = nn.Linear(vector, hidden) if vector > 0 else None
        self.fielded = bool(fields) or vector > 0

    def inputs(self, tokens, obs):
        """The GRU's input for tokens (B,) with what the model observes:
        obs (B,) for an observation, or (fields (B, nf), vec (B, F)) for
        fields: the tokens' embedding plus each field's and the vector's
        layer."""
        x = self.emb(tokens)
        if self.obs_emb is not None:
            x = x + self.obs_emb(obs)
        if self.fielded:
            fields, vec = obs
            for f, e in enumerate(self.field_emb or []):
                x = x + e(fields[:, f])
            if self.vec is not None:
                x = x + self.vec(vec)
        return x

    def initial_state(self, ctx, lengths, level):
        """h0 (1, B, d) for contexts ctx (B, L), row b holding lengths[b]
        tokens then padding, and levels (B,)."""
        width = self.emb.weight.dtype
        keep = (torch.arange(ctx.shape[1], device=ctx.device) < lengths[:, None]).to(width)[:, :, None]
        mean = (self.emb(ctx) * keep).sum(1) / lengths[:, None].to(width)
        return torch.tanh(mean + self.stage_emb(level))[None]

    def read(self, contexts, level, obs=None, pad=CTX):
        """h (1, B, d) after reading: h0 = tanh(stage_emb[level]), then each
        row's context tokens but the last (the end) one GRU step each, with
        observation obs (B,) when the model observes. Aligned at the end:
        the batch reads for its longest context's steps and a shorter row
        keeps its h until its first token, so every row reads as alone (the
        rows not reading yet are fed pad, a token of the vocabulary, and keep
        their h)."""
        h = torch.tanh(self.stage_emb(level))[None]
        reads = [c[:-1] for c in contexts]
        R = max(len(c) for c in reads)
        for r in range(R):
            active = torch.tensor([r >= R - len(c) for c in reads])
            tokens = torch.tensor([c[r - (R - len(c))] if r >= R - len(c) else pad for c in reads], dtype=torch.long)
            x = self.inputs(tokens, obs)
            _, nxt = self.rnn(x[None], h)
            h = torch.where(active[None, :, None], nxt, h)
        return h

    def step(self, tokens, h, obs=None):
        """Feeds one token (B,) per row, with its observation (B,) when the
        model observes: logits (B, V), values (B,), next h."""
        x = self.inputs(tokens, obs)
        out, h = self.rnn(x[None], h)
        return self.pi(out[0]), self.v(out[0])[:, 0], h


def context_batch(contexts, pad=EOS):
    """Token tensor (B, L) padded with pad (a token of the vocabulary: the
    mean leaves it out), and the lengths (B,), for lists of context tokens."""
    width = max(len(c) for c in contexts)
    ctx = torch.full((len(contexts), width), pad, dtype=torch.long)
    for row, c in enumerate(contexts):
        ctx[row, :len(c)] = torch.tensor(c, dtype=torch.long)
    return ctx, torch.tensor([len(c) for c in contexts], dtype=torch.long)
