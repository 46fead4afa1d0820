"""simdrl's update written once against an array module `xp`: numpy here
(scripts/peers_check.py checks it against simdrl_env.score and
simdrl_torch.Policy), jax.numpy on the GPU (scripts/jax_update_bench.py
builds its jitted update from these functions). Only operations numpy and
jax.numpy share, and no in-place writes.

The model is simdrl_torch.Policy at one level: h0 = tanh(mean of the context
tokens' embeddings + stage_emb[level]), one GRU step a token (gate order r,
z, n), a policy head over the 18 tokens and a value head. Parameters are a
dict under simdrl's checkpoint names. The loss is torch_update_bench.py's
(the reference's sum baseline), the optimiser clip_grad_norm_(1.0) then
torch.optim.Adam's arithmetic.
"""
import numpy as np

from simdrl_env import MAX_STEPS, goals, rewarded_target
from simdrl_torch import CTX, HIDDEN, LEVELS, TOKENS, VOCAB

MUL, ADD, SUB, ANS, STO, RCL = (TOKENS[k] for k in ("MUL", "ADD", "SUB", "ANS", "STO", "RCL"))
NAMES = ("emb.weight", "stage_emb.weight", "rnn.weight_ih_l0", "rnn.weight_hh_l0", "rnn.bias_ih_l0",
         "rnn.bias_hh_l0", "pi.weight", "pi.bias", "v.weight", "v.bias")


def score(xp, level, digits, programs, real=None):
    """Rewards (B,) of programs (B, T) on tasks digits (B, 5) by
    simdrl_env.score's rules, every row at once (torch_update_bench's
    vector_score in xp). real: the rewards' float type (xp.float64 unless
    given; jax without x64 has only float32)."""
    real = xp.float64 if real is None else real
    a, b, c, d, e = (digits[:, i] for i in range(5))
    B = programs.shape[0]
    zero = xp.zeros_like(a)
    no = xp.zeros((B,), dtype=bool)
    value, has, stored, done, answered, answered_has, hit_ans = zero, no, no, no, zero, no, no
    mul_by = d if level > 0 else xp.ones_like(d)
    for t in range(min(programs.shape[1], MAX_STEPS)):
        tok = programs[:, t]
        live = ~done
        m = live & (tok == MUL)
        value = xp.where(m, xp.where(has, value * mul_by, a * b), value)
        has = has | m
        m = live & (tok == ADD) & has
        value = xp.where(m, value + c, value)
        m = live & (tok == SUB) & has
        sub = xp.where(stored, e, d) if level == 2 else (d if level == 1 else zero)
        value = xp.where(m, value - sub, value)
        stored = stored | (live & (tok == STO))
        m = live & (tok == RCL) & stored
        value = xp.where(m, d * e if level == 2 else xp.where(has, value, zero), value)
        has = has | m
        m = live & (tok == ANS)
        answered = xp.where(m, value, answered)
        answered_has = answered_has | (m & has)
        hit_ans = hit_ans | m
        done = done | m
    bonus = xp.zeros((B,), dtype=real)
    for w, g in goals(level, a, b, c, d, e):  # left to right from zero, as simdrl_env does
        bonus = bonus + w * (answered_has & (answered == g)).astype(real)
    hit = (answered_has & (answered == rewarded_target(level, a, b, c, d, e))).astype(real)
    return xp.where(hit_ans, hit + 0.2 * bonus, xp.zeros_like(bonus))


def init_params(rng, vocab=VOCAB, hidden=HIDDEN, levels=LEVELS):
    """float32 numpy parameters drawn as PyTorch's defaults draw them
    (embeddings N(0, 1), GRU and linear layers U(-1/sqrt(d), 1/sqrt(d)))
    from a numpy Generator rng."""
    k = 1 / np.sqrt(hidden)
    u = lambda *shape: rng.uniform(-k, k, shape)  # noqa: E731
    p = {"emb.weight": rng.standard_normal((vocab, hidden)), "stage_emb.weight": rng.standard_normal((levels, hidden)),
         "rnn.weight_ih_l0": u(3 * hidden, hidden), "rnn.weight_hh_l0": u(3 * hidden, hidden),
         "rnn.bias_ih_l0": u(3 * hidden), "rnn.bias_hh_l0": u(3 * hidden),
         "pi.weight": u(vocab, hidden), "pi.bias": u(vocab), "v.weight": u(1, hidden), "v.bias": u(1)}
    return {n: p[n].astype(np.float32) for n in NAMES}


def contexts(xp, level, digits):
    """The shown context (B, 3 + level + 1): the level's digits, then CTX."""
    end = xp.full((digits.shape[0], 1), CTX, dtype=digits.dtype)
    return xp.concatenate([digits[:, :3 + level], end], axis=1)


def initial_state(xp, p, level, ctx):
    """h0 (B, d): every row's context has the same length at one level, so
    the masked mean of Policy.initial_state is the plain mean."""
    return xp.tanh(xp.mean(p["emb.weight"][ctx], axis=1) + p["stage_emb.weight"][level])


def sigmoid(xp, x):
    return 1 / (1 + xp.exp(-x))


def policy_step(xp, p, tokens, h):
    """Policy.step: one GRU step on tokens (B,) from h (B, d): logits (B, V),
    values (B,), the next h."""
    d = h.shape[1]
    gi = p["emb.weight"][tokens] @ p["rnn.weight_ih_l0"].T + p["rnn.bias_ih_l0"]
    gh = h @ p["rnn.weight_hh_l0"].T + p["rnn.bias_hh_l0"]
    r = sigmoid(xp, gi[:, :d] + gh[:, :d])
    z = sigmoid(xp, gi[:, d:2 * d] + gh[:, d:2 * d])
    n = xp.tanh(gi[:, 2 * d:] + r * gh[:, 2 * d:])
    h = (1 - z) * n + z * h
    return h @ p["pi.weight"].T + p["pi.bias"], (h @ p["v.weight"].T)[:, 0] + p["v.bias"][0], h


def log_softmax(xp, logits):
    shifted = logits - xp.max(logits, axis=1, keepdims=True)
    return shifted - xp.log(xp.sum(xp.exp(shifted), axis=1, keepdims=True))


def action_stats(xp, logits, actions):
    """log pi(action) (B,) and the entropy (B,) as torch_update_bench takes
    it (-(p log(p + 1e-9)) summed)."""
    logp_all = log_softmax(xp, logits)
    probs = xp.exp(logp_all)
    logp = xp.take_along_axis(logp_all, actions[:, None], axis=1)[:, 0]
    return logp, -xp.sum(probs * xp.log(probs + 1e-9), axis=1)


def loss(xp, logps, ents, vals, R, detach=lambda x: x):
    """The reference's loss from the rollout's (T, B) log-probabilities,
    entropies and values and the rewards R (B,): pg + 0.5 value + 0.01
    entropy, the advantage R - sum_t v_t taken through detach (jax's
    stop_gradient)."""
    predicted = xp.sum(vals, axis=0)
    adv = detach(R - predicted)
    pg = -xp.mean(xp.sum(logps, axis=0) * adv)
    value = xp.mean((predicted - R) ** 2)
    return pg + 0.5 * value + 0.01 * -xp.mean(ents)


def clip_adam(xp, p, g, m, v, step, lr=3e-4, max_norm=1.0, b1=0.9, b2=0.999, eps=1e-8):
    """clip_grad_norm_(max_norm) then one torch.optim.Adam step (step counts
    from 1): new (p, m, v) dicts."""
    total = xp.sqrt(sum(xp.sum(g[n] * g[n]) for n in NAMES))
    coef = xp.minimum(max_norm / (total + 1e-6), 1.0)
    bc1, bc2 = 1 - b1 ** step, 1 - b2 ** step
    P, M, V = {}, {}, {}
    for n in NAMES:
        gn = g[n] * coef
        M[n] = m[n] + (gn - m[n]) * (1 - b1)
        V[n] = v[n] * b2 + gn * gn * (1 - b2)
        P[n] = p[n] - (lr / bc1) * M[n] / (xp.sqrt(V[n]) / xp.sqrt(bc2) + eps)
    return P, M, V
