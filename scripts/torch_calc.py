#!/usr/bin/env python3
"""simdrl -task calc in PyTorch: the project's own float32 port of the calc
task and its default recipe, written from the Go code (env/calc, task/calc.go,
trainer/, cpu/loss.go, cpu/adam.go, gru/, rng/), the anchor that simdrl's
calc timings are set against (scripts/calc_anchor.sh).

What it ports, and from where:
  * the calculator (env/calc: ops.go, machine.go, episode.go): the op table
    and its interpreter, scored for the whole batch at once with tensor ops
    (vector_score), partial credit paid only at an answer within the budget,
    in calc.Run's float64 order;
  * the levels as expressions (expr.go: the parser, post-order nodes, the
    inner values), the held-out split (split.go, function.go: FNV-1a of the
    expanded polynomial's key, the splitmix-style hash, one tuple in 5) and
    the draw (draw.go, tuples.go: 64 rejection tries, then a walk);
  * the counter-based random numbers (rng/: Philox4x32-10, NewKey, Uniform),
    so that with --rng philox (the default) the tasks, the levels of a mixed
    batch, the sampled actions' uniforms, the evaluation rounds and the
    initial parameters are Go's (--rng torch draws them with torch instead);
  * the model (gru/, scripts/simdrl_torch.py): h0 = tanh(mean emb[ctx] +
    stage_emb[level]), one GRU cell, the policy head with the not-action
    logits offset by -1e4 in its bias, the value head;
  * the loss (cpu/loss.go: the per-step baseline, the mask after the first
    done step, the entropy averaged over all T steps), clip_grad_norm_ and
    Adam (cpu/adam.go, torch.optim.Adam);
  * the trainer (trainer/: the mixed curriculum with focus, the entropy
    schedule, the periodic evaluation, the confirmation and its test at
    the run's k-th share of alpha, the final evaluation).

Modes (each prints JSON lines; a check exits 1 on a mismatch):
  --check-score FILE        rewards and outcomes against `calcdump score`
  --check-split FILE        held-out tuples of every level against `calcdump split`
  --check-draw FILE         instances, level words and uniforms against `calcdump draw`
  --check-init CKPT         initial parameters (--seed S) against `simdrl -updates 0 -save CKPT`
  --check-greedy CKPT FILE  greedy programs of a checkpoint against `calcdump greedy`
  --check-trajectory FILE   the first updates against `simdrl -eval-every 1 -metrics FILE` (same seed)
  --check-confirmations R   the stop rule's tests, bounds and verdicts against a `simdrl -report R`
  --bench-update            median ms per update (--batch, --threads), rollout / backward / step split out
  --solve                   train with the stop rule (--seed S): updates and seconds to solve

Usage (from the repository root): scripts/torch_calc_check.sh runs the
checks; scripts/calc_anchor.sh the timings side by side with simdrl.
"""
import argparse
from fractions import Fraction
import json
import math
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

from simdrl_torch import Policy  # noqa: E402
from torch_interop import read_safetensors  # noqa: E402

# ---------------------------------------------------------------- tokens, ops (env/calc/tokens.go, ops.go)

VOCAB = 19
CTX, LOAD, ADD, SUB, MUL, STO, MADD, MSUB, ANS = 10, 11, 12, 13, 14, 15, 16, 17, 18
MAX_VARS = 8
MAX_BUDGET = 16
NOT_ACTIONS = list(range(11))  # the digits and CTX
NOT_ACTION_LOGIT = -1e4  # gru.NotActionLogit
ENTROPY_EPS = 1e-9  # kernels.EntropyEps

K_NONE, K_SET, K_ADD, K_SUB, K_MUL, K_SUBFROM, K_ANSWER = range(7)
S_NONE, S_OPERAND, S_V, S_M = range(4)
R_V, R_M = 0, 1
OPS = [(K_NONE, S_NONE, R_V)] * VOCAB
OPS[LOAD] = (K_SET, S_OPERAND, R_V)
OPS[ADD] = (K_ADD, S_OPERAND, R_V)
OPS[SUB] = (K_SUB, S_OPERAND, R_V)
OPS[MUL] = (K_MUL, S_OPERAND, R_V)
OPS[STO] = (K_SET, S_V, R_M)
OPS[MADD] = (K_ADD, S_M, R_V)
OPS[MSUB] = (K_SUBFROM, S_M, R_V)
OPS[ANS] = (K_ANSWER, S_NONE, R_V)
OP_KIND = torch.tensor([o[0] for o in OPS] + [K_NONE])  # index VOCAB: any token outside the vocabulary
OP_SRC = torch.tensor([o[1] for o in OPS] + [S_NONE])
OP_DST = torch.tensor([o[2] for o in OPS] + [R_V])

# The default curriculum (calc.DefaultLevelsSpec) and its budgets: the
# shortest program's length (env/calc's search, default_programs.go) plus 2.
DEFAULT_LEVELS = "a*b, a*b+c, (a*b+c)-d, a*b+c*d, (a*b+c)-(d*e), a*b+c*d-e*f"
DEFAULT_BUDGETS = {"a*b": 5, "a*b+c": 6, "(a*b+c)-d": 7, "a*b+c*d": 9, "(a*b+c)-(d*e)": 10, "a*b+c*d-e*f": 13}

M64 = (1 << 64) - 1

# ---------------------------------------------------------------- expressions (env/calc/expr.go, function.go)

N_VAR, N_ADD, N_SUB, N_MUL = range(4)


def parse_expr(text):
    """Parses an expression over a..h with + - * and parentheses, as
    calc.ParseExpr: x binds tighter than + and -, which associate to the
    left; nodes in post-order, children before parents. Returns (nodes,
    vars): nodes are (kind, var, left, right)."""
    src = text.replace("×", "*").replace("·", "*").replace("−", "-").replace(" ", "").replace("\t", "")
    nodes, pos, nvars = [], [0], [0]

    def add(nd):
        nodes.append(nd)
        return len(nodes) - 1

    def peek():
        return src[pos[0]] if pos[0] < len(src) else ""

    def factor():
        c = peek()
        if c == "(":
            pos[0] += 1
            i = summ()
            if peek() != ")":
                raise ValueError(f"{text}: missing )")
            pos[0] += 1
            return i
        if "a" <= c <= "h":
            pos[0] += 1
            v = ord(c) - ord("a")
            nvars[0] = max(nvars[0], v + 1)
            return add((N_VAR, v, -1, -1))
        raise ValueError(f"{text}: unexpected {c!r} at {pos[0] + 1}")

    def product():
        left = factor()
        while peek() == "*":
            pos[0] += 1
            right = factor()
            left = add((N_MUL, -1, left, right))
        return left

    def summ():
        left = product()
        while peek() in ("+", "-"):
            kind = N_ADD if peek() == "+" else N_SUB
            pos[0] += 1
            right = product()
            left = add((kind, -1, left, right))
        return left

    summ()
    if pos[0] != len(src):
        raise ValueError(f"{text}: trailing {src[pos[0]:]!r}")
    return nodes, nvars[0]


def eval_nodes(nodes, digits):
    """Every node's value; digits is (N, >= vars) int64 (numpy): (len(nodes), N)."""
    vals = []
    for kind, v, l, r in nodes:
        if kind == N_VAR:
            vals.append(digits[:, v].astype(np.int64))
        elif kind == N_ADD:
            vals.append(vals[l] + vals[r])
        elif kind == N_SUB:
            vals.append(vals[l] - vals[r])
        else:
            vals.append(vals[l] * vals[r])
    return vals


def polynomial(nodes):
    """The expanded polynomial: {monomial (exponents of a..h): coefficient},
    no zero coefficients (function.go's polynomialOf)."""
    polys = []
    for kind, v, l, r in nodes:
        if kind == N_VAR:
            m = [0] * MAX_VARS
            m[v] = 1
            polys.append({tuple(m): 1})
        elif kind in (N_ADD, N_SUB):
            p = dict(polys[l])
            sign = 1 if kind == N_ADD else -1
            for m, c in polys[r].items():
                p[m] = p.get(m, 0) + sign * c
            polys.append({m: c for m, c in p.items() if c != 0})
        else:
            p = {}
            for mx, cx in polys[l].items():
                for my, cy in polys[r].items():
                    m = tuple(a + b for a, b in zip(mx, my))
                    p[m] = p.get(m, 0) + cx * cy
            polys.append({m: c for m, c in p.items() if c != 0})
    return polys[-1]


def function_key(nodes, nvars):
    """function.go's functionKey: "vars:" then the terms, monomials ascending
    then stably by descending degree, e.g. "4:1*a*b+1*c*d"."""
    terms = sorted(polynomial(nodes).items())
    terms.sort(key=lambda t: -sum(t[0]))  # stable
    out = f"{nvars}:"
    for i, (m, c) in enumerate(terms):
        if c < 0:
            out += "-"
        elif i > 0:
            out += "+"
        out += str(abs(c))
        for k, x in enumerate(m):
            out += ("*" + chr(ord("a") + k)) * x
    if not terms:
        out += "0"
    return out


def fnv1a(s):
    """split.go's exprSalt: 64-bit FNV-1a of the key's bytes."""
    h = 0xCBF29CE484222325
    for ch in s.encode():
        h ^= ch
        h = (h * 0x100000001B3) & M64
    return h


def held_out_table(salt, space):
    """split.go's isHeldOut for every tuple index 0..space-1 (numpy uint64, wrapping)."""
    with np.errstate(over="ignore"):
        idx = np.arange(space, dtype=np.uint64)
        z = np.uint64(salt) ^ (idx * np.uint64(0x9E3779B97F4A7C15))
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z ^= z >> np.uint64(31)
        return ((z >> np.uint64(32)) * np.uint64(5)) >> np.uint64(32) == 0


class Level:
    """One level: its expression, digits shown, budget, split and, for every
    tuple index (digit k is variable 'a'+k, least significant first), the
    target and the inner values (every operator node but the root, in
    post-order)."""

    def __init__(self, text, budget):
        self.text = text
        self.nodes, self.vars = parse_expr(text)
        self.budget = budget
        self.key = function_key(self.nodes, self.vars)
        self.salt = fnv1a(self.key)
        self.space = 10 ** self.vars
        self.held = held_out_table(self.salt, self.space)
        idx = np.arange(self.space, dtype=np.int64)
        digits = np.stack([(idx // 10 ** k) % 10 for k in range(self.vars)], 1)
        vals = eval_nodes(self.nodes, digits)
        self.target = vals[-1]
        inner = [vals[i] for i, nd in enumerate(self.nodes[:-1]) if nd[0] != N_VAR]
        self.ninner = len(inner)
        self.inner = np.stack(inner, 1) if inner else np.zeros((self.space, 0), dtype=np.int64)


def parse_levels(spec):
    levels = []
    for item in spec.split(","):
        item = item.strip()
        text, _, budget = item.rpartition(":") if ":" in item else (item, "", "")
        if budget:
            levels.append(Level(text.strip(), int(budget)))
        elif text.replace(" ", "") in DEFAULT_BUDGETS:
            levels.append(Level(text, DEFAULT_BUDGETS[text.replace(" ", "")]))
        else:
            sys.exit(f"torch_calc: level {item!r}: give its budget as expr:N (this port does not search programs)")
    return levels


class Curriculum:
    """The levels as flat tables, so that a mixed batch's instances are
    gathers: target, inner values (padded) and digits of (level, tuple)."""

    def __init__(self, levels):
        self.levels = levels
        self.offset = np.cumsum([0] + [lv.space for lv in levels])[:-1]
        self.max_inner = max(1, max(lv.ninner for lv in levels))
        self.target = torch.from_numpy(np.concatenate([lv.target for lv in levels]))
        inner = np.zeros((sum(lv.space for lv in levels), self.max_inner), dtype=np.int64)
        for lv, off in zip(levels, self.offset):
            inner[off:off + lv.space, :lv.ninner] = lv.inner
        self.inner = torch.from_numpy(inner)
        self.vars = torch.tensor([lv.vars for lv in levels])
        self.budget = torch.tensor([lv.budget for lv in levels])
        self.ninner = torch.tensor([lv.ninner for lv in levels])
        self.offset_t = torch.from_numpy(self.offset.astype(np.int64))
        self.pow10 = torch.tensor([10 ** k for k in range(MAX_VARS)])

    def instances(self, level, idx):
        """Instances of levels (B,) and tuple indices (B,), as a dict of tensors."""
        flat = self.offset_t[level] + idx
        vars_ = self.vars[level]
        digits = (idx[:, None] // self.pow10) % 10 * (torch.arange(MAX_VARS) < vars_[:, None])
        ninner = self.ninner[level]
        return dict(level=level, idx=idx, vars=vars_, budget=self.budget[level], digits=digits,
                    target=self.target[flat], inner=self.inner[flat], ninner=ninner,
                    inner_valid=torch.arange(self.max_inner) < ninner[:, None])

    def from_digits(self, level, digits):
        """Instances of given levels (B,) and digits (B, <=8)."""
        d = torch.zeros(len(level), MAX_VARS, dtype=torch.long)
        d[:, :digits.shape[1]] = digits
        shown = torch.arange(MAX_VARS)[None, :] < self.vars[level][:, None]
        return self.instances(level, (d * self.pow10 * shown).sum(1))


# ---------------------------------------------------------------- scoring (env/calc/episode.go, run.go)

def vector_score(ins, programs, credit, lengths=None):
    """calc.Run for every row at once: programs (B, L) of tokens on instances
    ins (row b's program is its first lengths[b] tokens; all L by default).
    Returns reward (B,) float64, correct, answered (bool), steps, held
    (int64) and end (B,): the step that ended the episode (its answer or its
    budget's last token), or L-1."""
    B, L = programs.shape
    tok = torch.where((programs >= 0) & (programs < VOCAB), programs, torch.full_like(programs, VOCAB))
    digits, nvars, budget, target = ins["digits"], ins["vars"], ins["budget"], ins["target"]
    inner, valid = ins["inner"], ins["inner_valid"]
    v = torch.zeros(B, dtype=torch.long)
    m = torch.zeros(B, dtype=torch.long)
    p = torch.zeros(B, dtype=torch.long)
    steps = torch.zeros(B, dtype=torch.long)
    held = torch.zeros_like(valid)
    done = budget <= 0
    answered = torch.zeros(B, dtype=torch.bool)
    correct = torch.zeros(B, dtype=torch.bool)
    end = torch.full((B,), L - 1, dtype=torch.long)
    zero = torch.zeros_like(v)
    for t in range(L):
        live = ~done if lengths is None else ~done & (t < lengths)
        k, s, dreg = OP_KIND[tok[:, t]], OP_SRC[tok[:, t]], OP_DST[tok[:, t]]
        steps = steps + live
        ans = live & (k == K_ANSWER)
        answered = answered | ans
        correct = correct | (ans & (v == target))
        app = live & ~ans
        need = s == S_OPERAND
        has = p < nvars
        operand = digits.gather(1, p.clamp(max=MAX_VARS - 1)[:, None])[:, 0]
        src = torch.where(need, operand, torch.where(s == S_V, v, torch.where(s == S_M, m, zero)))
        eff = app & ~(need & ~has)  # an op whose operand is missing does nothing
        p = p + (eff & need)
        dst = torch.where(dreg == R_M, m, v)
        new = torch.where(k == K_SET, src,
              torch.where(k == K_ADD, dst + src,
              torch.where(k == K_SUB, dst - src,
              torch.where(k == K_MUL, dst * src,
              torch.where(k == K_SUBFROM, src - dst, dst)))))
        v = torch.where(eff & (dreg == R_V), new, v)
        m = torch.where(eff & (dreg == R_M), new, m)
        held = held | (app[:, None] & (v[:, None] == inner) & valid)
        fin = app & (steps >= budget)
        ended = ans | fin
        end = torch.where(ended & ~done, torch.full_like(end, t), end)
        done = done | ended
    nheld = held.sum(1)
    ninner = ins["ninner"]
    credit_part = credit * (nheld.double() / ninner.clamp(min=1).double())
    r = correct.double() + torch.where(ninner > 0, credit_part, torch.zeros_like(credit_part))
    reward = torch.where(answered, r, torch.zeros_like(r))
    return dict(reward=reward, correct=correct, answered=answered, steps=steps, held=nheld, end=end)


# ---------------------------------------------------------------- random numbers (rng/, env/calc/draw.go, enginekit)

PHILOX_M0, PHILOX_M1, PHILOX_W0, PHILOX_W1 = 0xD2511F53, 0xCD9E8D57, 0x9E3779B9, 0xBB67AE85
P_TASK, P_ACTION, P_LEVEL, P_EVAL, P_INIT = 1, 2, 3, 4, 100
FINAL_ROUND, EXPLAIN_ROUND = 0xFFFFFFF0, 0xFFFFFFF1


def confirm_round(u):
    return (1 << 31) | u


def eval_purpose(level):
    return P_EVAL + (level << 8)


def new_key(seed):
    """rng.NewKey: splitmix64 of the seed, as two 32-bit words."""
    z = (seed + 0x9E3779B97F4A7C15) & M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    z ^= z >> 31
    return (z & 0xFFFFFFFF, z >> 32)


def philox(key, c0, c1, c2, c3):
    """Philox4x32-10 of counters (numpy uint32 arrays, broadcast) under key."""
    u32, u64 = np.uint32, np.uint64
    c0, c1, c2, c3 = (np.broadcast_to(np.asarray(c, dtype=u32), np.broadcast(c0, c1, c2, c3).shape).copy()
                      for c in (c0, c1, c2, c3))
    k0, k1 = key
    for _ in range(10):
        p0 = u64(PHILOX_M0) * c0.astype(u64)
        p1 = u64(PHILOX_M1) * c2.astype(u64)
        hi0, lo0 = (p0 >> u64(32)).astype(u32), p0.astype(u32)
        hi1, lo1 = (p1 >> u64(32)).astype(u32), p1.astype(u32)
        c0, c1, c2, c3 = hi1 ^ c1 ^ u32(k0), lo1, hi0 ^ c3 ^ u32(k1), lo0
        k0, k1 = (k0 + PHILOX_W0) & 0xFFFFFFFF, (k1 + PHILOX_W1) & 0xFFFFFFFF
    return c0, c1, c2, c3


def uniforms(key, rnd, episodes, steps, purpose):
    """rng.Key.Uniform for every (episode, step): (E, T) float32 in [0, 1)."""
    w = philox(key, np.uint32(rnd), episodes[:, None], np.arange(steps, dtype=np.uint32)[None, :], np.uint32(purpose))[0]
    return (w >> np.uint32(8)).astype(np.float32) * np.float32(1.0 / (1 << 24))


def below64(w0, w1, n):
    """tuples.go's below64: the high word of (w0<<32|w1) * n, exactly (n < 2^32;
    numpy uint64 arrays, n one or per row)."""
    n = np.asarray(n, dtype=np.uint64)
    return ((w0.astype(np.uint64) * n + ((w1.astype(np.uint64) * n) >> np.uint64(32))) >> np.uint64(32)).astype(np.int64)


def draw_tuples(cur, key, rnd, episodes, purpose, levels, held_out):
    """calc.Levels.Draw's tuple index of each (episode, level): 64 rejection
    tries into the wanted part (try t reads words 2(t%2), 2(t%2)+1 of
    Block(round, episode, t/2, purpose)), then a walk to the next tuple of
    it. episodes, levels: numpy arrays; purpose: one, or one per row."""
    n = len(episodes)
    idx = np.zeros(n, dtype=np.int64)
    found = np.zeros(n, dtype=bool)
    purpose = np.broadcast_to(np.asarray(purpose, dtype=np.uint32), (n,))
    levels = np.asarray(levels, dtype=np.int64)
    space = np.array([lv.space for lv in cur.levels], dtype=np.uint64)[levels]
    for j in range(32):
        rows = np.nonzero(~found)[0]
        if len(rows) == 0:
            break
        w = philox(key, np.uint32(rnd), episodes[rows], np.uint32(j), purpose[rows])
        for half in range(2):
            cand = below64(w[2 * half], w[2 * half + 1], space[rows])
            ok = held_lookup(cur, levels[rows], cand) == held_out
            take = ~found[rows]
            idx[rows[take]] = cand[take]
            found[rows[take & ok]] = True
    for r in np.nonzero(~found)[0]:  # the walk (probability 0.8^64 per draw)
        lv = cur.levels[levels[r]]
        x = int(idx[r])
        for _ in range(lv.space):
            x = (x + 1) % lv.space
            if lv.held[x] == held_out:
                break
        idx[r] = x
    return idx


def held_lookup(cur, levels, idx):
    """Whether tuple idx of each row's level is held out."""
    if not hasattr(cur, "_held_flat"):
        cur._held_flat = np.concatenate([lv.held for lv in cur.levels])
    return cur._held_flat[cur.offset[levels] + idx]


def draw_levels(played, cdf, key, rnd, episodes):
    """enginekit.DrawLevel: u = word/2^32 against the cumulative weights."""
    u = philox(key, np.uint32(rnd), episodes, np.uint32(0), np.uint32(P_LEVEL))[0].astype(np.float64) / (1 << 32)
    i = (u[:, None] >= np.asarray(cdf[:-1], dtype=np.float64)[None, :]).sum(1) if len(played) > 1 else np.zeros(len(u), dtype=np.int64)
    return np.asarray(played)[i]


# ---------------------------------------------------------------- the model (gru/, scripts/simdrl_torch.py)

class CalcPolicy(Policy):
    """simdrl_torch.Policy on calc's vocabulary and levels, with the not-action
    logits offset by -1e4 in the policy head's bias (gru.Derived.HeadsBias)."""

    def __init__(self, hidden, levels):
        super().__init__(vocab=VOCAB, hidden=hidden, levels=levels)
        off = torch.zeros(VOCAB)
        off[NOT_ACTIONS] = NOT_ACTION_LOGIT
        self.register_buffer("not_action", off, persistent=False)

    def context_state(self, ins):
        """h0 (B, d) = tanh(mean over the context (digits, CTX) of emb + stage_emb[level])."""
        B = ins["digits"].shape[0]
        ctx = torch.cat([ins["digits"], torch.full((B, 1), CTX, dtype=torch.long)], 1)
        pos = torch.arange(MAX_VARS + 1)
        n = ins["vars"][:, None]
        ctx = torch.where(pos == n, torch.full_like(ctx, CTX), ctx)  # CTX right after the shown digits
        keep = (pos <= n).to(self.emb.weight.dtype)[:, :, None]
        mean = (self.emb(ctx) * keep).sum(1) / (ins["vars"] + 1).to(self.emb.weight.dtype)[:, None]
        return torch.tanh(mean + self.stage_emb(ins["level"]))

    def cell(self, tok, h):
        """One GRU step on the tokens (B,) from h (B, d): nn.GRUCell's
        computation (torch._VF.gru_cell) on nn.GRU's parameters, whose names
        are the checkpoint's; a little faster than a one-step nn.GRU."""
        r = self.rnn
        return torch._VF.gru_cell(self.emb(tok), h, r.weight_ih_l0, r.weight_hh_l0, r.bias_ih_l0, r.bias_hh_l0)

    def heads(self, out):
        logits = F.linear(out, self.pi.weight, self.pi.bias + self.not_action)
        return logits, self.v(out)[:, 0]


def go_init(net, seed, hidden):
    """gru.Layout.Init: N(0,1) embeddings (Box-Muller), U(+-1/sqrt(d)) for the
    rest, element i of the tensor at flat offset o from Block(o, i, 0, 100)."""
    key = new_key(seed)
    offset = 0
    b = 1 / math.sqrt(hidden)
    with torch.no_grad():
        for name, t in net.state_dict().items():
            n = t.numel()
            w = philox(key, np.uint32(offset), np.arange(n, dtype=np.uint32), np.uint32(0), np.uint32(P_INIT))
            unit = lambda x: ((x >> np.uint32(8)).astype(np.float64) + 0.5) / (1 << 24)  # noqa: E731
            if name in ("emb.weight", "stage_emb.weight"):
                vals = np.sqrt(-2 * np.log(unit(w[0]))) * np.cos(2 * math.pi * unit(w[1]))
            else:
                vals = (2 * unit(w[0]) - 1) * b
            t.copy_(torch.from_numpy(vals.astype(np.float32)).reshape(t.shape))
            offset += n


def load_checkpoint(path):
    tensors, meta = read_safetensors(path)
    state = {k: v for k, v in tensors.items() if not k.startswith("optimizer.")}
    cfg = json.loads(meta["config"]) if "config" in meta else {}
    return state, cfg


# ---------------------------------------------------------------- the run (trainer/, cpu/)

class Config:
    """trainer.DefaultRecipe with the calc task's defaults (trainer.taskDefaults, task/calc.go)."""

    def __init__(self, a):
        self.seed, self.batch, self.lr, self.clip, self.hidden = a.seed, a.batch, a.lr, a.clip, a.hidden
        self.updates, self.entropy_coef, self.entropy_final, self.entropy_updates = a.updates, a.entropy_coef, 0.0, 6000
        self.value_coef, self.eval_every, self.eval_batch, self.final_episodes = 0.5, a.eval_every, 200, a.final_episodes
        self.stop_at, self.focus, self.mask, self.credit = a.stop_at, not a.no_focus, not a.no_mask, a.partial_credit

    def entropy_at(self, u):
        """Config.EntropyAt: linear from the coefficient at update 1 to the final one at entropy_updates."""
        n = self.entropy_updates if self.entropy_updates > 0 else self.updates
        if self.entropy_final < 0 or u <= 1:
            return self.entropy_coef
        if n <= 1:
            return self.entropy_final
        f = min((u - 1) / (n - 1), 1.0)
        return self.entropy_coef + (self.entropy_final - self.entropy_coef) * f


# The stop rule (trainer/stoprule.go), written again from its definition:
# the k-th confirmation of a run is an exact binomial test at
# alpha_k = CONFIRM_ALPHA * 6 / (pi^2 k^2), on the smallest number of
# episodes (from CONFIRM_EPISODES, in steps of CONFIRM_STEP, at most
# MAX_CONFIRM_EPISODES) at which a level failing a fifth of what stop_at
# allows passes with probability at least 1/2 (CONFIRM_EPISODES, passing
# nothing, when not even MAX_CONFIRM_EPISODES perfect episodes would pass). The binomial sums here are
# exact (rational arithmetic), independent of Go's logarithms.
CONFIRM_EPISODES, CONFIRM_STEP, MAX_CONFIRM_EPISODES, CONFIRM_ALPHA = 1000, 500, 10000, 0.01


def confirm_alpha(k):
    k = max(k, 1)
    return CONFIRM_ALPHA * 6 / (math.pi * math.pi * k * k)


def binom_cdf_exact(f, n, q):
    """P(Binomial(n, q) <= f) as a Fraction, q a float taken exactly."""
    q = Fraction(q)
    p = 1 - q
    return sum(math.comb(n, i) * q ** i * p ** (n - i) for i in range(min(f, n) + 1))


def max_failures(n, stop_at, alpha):
    f, a = -1, Fraction(alpha)
    while f + 1 <= n and binom_cdf_exact(f + 1, n, 1 - stop_at) <= a:
        f += 1
    return f


def confirm_test(k, stop_at):
    """(episodes, alpha, max_failures) of a run's k-th confirmation."""
    alpha = confirm_alpha(k)
    if stop_at >= 1:
        return CONFIRM_EPISODES, alpha, 0
    solved = 1 - (1 - stop_at) / 5
    n = CONFIRM_EPISODES
    while True:
        f = max_failures(n, stop_at, alpha)
        if f >= 0 and binom_cdf_exact(f, n, 1 - solved) >= Fraction(1, 2):
            return n, alpha, f
        if n + CONFIRM_STEP > MAX_CONFIRM_EPISODES:
            # nothing passes even at the most episodes: a small confirmation says so
            return (n, alpha, f) if f >= 0 else (CONFIRM_EPISODES, alpha, -1)
        n += CONFIRM_STEP


def lower_bound(successes, n, alpha):
    """The one-sided Clopper-Pearson lower bound at confidence 1 - alpha."""
    if n <= 0 or successes <= 0:
        return 0.0
    lo, hi = 0.0, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        if float(binom_cdf_exact(n - successes, n, 1 - mid)) <= alpha:
            lo = mid
        else:
            hi = mid
    return lo


class Run:
    def __init__(self, cfg, cur, net, rng_kind):
        self.cfg, self.cur, self.net, self.rng = cfg, cur, net, rng_kind
        self.key = new_key(cfg.seed)
        self.levels = len(cur.levels)
        self.T = max(lv.budget for lv in cur.levels)
        self.opt = torch.optim.Adam(net.parameters(), lr=cfg.lr, betas=(0.9, 0.999), eps=1e-8)
        self.gen = torch.Generator().manual_seed(cfg.seed)
        self.np_rng = np.random.default_rng(cfg.seed)

    # -- drawing
    def draw(self, rnd, levels, held_out, purpose):
        """Instances of the given levels (numpy (B,)) for round rnd, episodes 0..B-1."""
        B = len(levels)
        if self.rng == "philox":
            idx = draw_tuples(self.cur, self.key, rnd, np.arange(B, dtype=np.uint32), purpose, levels, held_out)
        else:
            idx = np.zeros(B, dtype=np.int64)
            todo = np.arange(B)
            while len(todo):
                space = np.array([self.cur.levels[lv].space for lv in levels[todo]])
                cand = self.np_rng.integers(0, space)
                ok = held_lookup(self.cur, levels[todo], cand) == held_out
                idx[todo[ok]] = cand[ok]
                todo = todo[~ok]
        return self.cur.instances(torch.from_numpy(np.asarray(levels, dtype=np.int64)), torch.from_numpy(idx))

    # -- rollouts
    def rollout(self, ins, greedy, u=None):
        """T steps from h0; sampling (inverse CDF at Go's uniforms, or
        torch.multinomial) or greedy (argmax, the first on ties)."""
        net, T = self.net, self.T
        B = ins["digits"].shape[0]
        h = net.context_state(ins)
        tok = torch.full((B,), CTX, dtype=torch.long)
        acts, logps, ents, vals = [], [], [], []
        for t in range(T):
            h = net.cell(tok, h)
            logits, value = net.heads(h)
            if greedy:
                tok = logits.argmax(1)
                acts.append(tok)
                continue
            logp_all = F.log_softmax(logits, dim=1)
            probs = logp_all.exp()
            with torch.no_grad():
                if u is not None:
                    cum = probs.detach().cumsum(1)
                    tok = (cum <= u[:, t:t + 1]).sum(1)
                    if (tok >= VOCAB).any():  # rounding left the total below u: the last p > 0
                        last_pos = VOCAB - 1 - (probs.detach() > 0).flip(1).to(torch.int8).argmax(1)
                        tok = torch.where(tok >= VOCAB, last_pos, tok)
                else:
                    tok = torch.multinomial(probs.detach(), 1, generator=self.gen)[:, 0]
            acts.append(tok)
            logps.append(logp_all.gather(1, tok[:, None])[:, 0])
            ents.append(-(probs * torch.log(probs + ENTROPY_EPS)).sum(1))
            vals.append(value)
        acts = torch.stack(acts, 1)
        if greedy:
            return acts
        return acts, torch.stack(logps, 1), torch.stack(ents, 1), torch.stack(vals, 1)

    def plan(self, last_eval):
        """The mixed curriculum's cumulative weights (curriculum.updateWeights)."""
        w = [1.0] * self.levels
        if self.cfg.focus and last_eval is not None:
            w = [0.1 + (1 - last_eval[s]["solve_rate"]) for s in range(self.levels)]
        total = 0.0
        for x in w:
            total += x
        cdf, acc = [], 0.0
        for x in w:
            acc += x / total
            cdf.append(acc)
        return cdf

    def update(self, u, cdf, timing=None):
        """Training update u (1-based): the batch, the rollout, the loss
        (cpu/loss.go stepLoss), backward, clip and Adam (cpu/adam.go)."""
        cfg, B, T = self.cfg, self.cfg.batch, self.T
        t0 = time.perf_counter()
        eps = np.arange(B, dtype=np.uint32)
        if self.rng == "philox":
            levels = draw_levels(list(range(self.levels)), cdf, self.key, u, eps)
            uni = torch.from_numpy(uniforms(self.key, u, eps, T, P_ACTION))
        else:
            c = np.asarray(cdf)
            levels = np.minimum((self.np_rng.random(B)[:, None] >= c[None, :-1]).sum(1), self.levels - 1)
            uni = None
        ins = self.draw(u, levels, False, P_TASK)
        ta = time.perf_counter()
        acts, logps, ents, vals = self.rollout(ins, False, uni)
        tb = time.perf_counter()
        sc = vector_score(ins, acts, cfg.credit)
        t1 = time.perf_counter()
        R = sc["reward"].float()
        steps = torch.arange(T)
        mask = (steps[None, :] <= sc["end"][:, None]) if cfg.mask else torch.ones(B, T, dtype=torch.bool)
        maskf = mask.float()
        adv = (R[:, None] - vals).detach()
        pg = -(logps * adv * maskf).sum() / B
        value_loss = ((vals - R[:, None]) ** 2 * maskf).sum() / B
        ent_loss = -(ents * maskf).sum() / (B * T)
        ec = cfg.entropy_at(u)
        loss = pg + cfg.value_coef * value_loss + ec * ent_loss
        self.opt.zero_grad(set_to_none=False)
        loss.backward()
        t2 = time.perf_counter()
        norm = torch.nn.utils.clip_grad_norm_(self.net.parameters(), cfg.clip)
        self.opt.step()
        t3 = time.perf_counter()
        if timing is not None:
            timing["rollout"].append(t1 - t0)
            timing["draw"].append(ta - t0)
            timing["policy"].append(tb - ta)
            timing["score"].append(t1 - tb)
            timing["backward"].append(t2 - t1)
            timing["step"].append(t3 - t2)
        if not math.isfinite(loss.item()) or not math.isfinite(norm.item()):
            sys.exit(f"torch_calc: update {u}: non-finite loss {loss.item()} or gradient norm {norm.item()}")
        return dict(update=u, loss=loss.item(), pg=pg.item(), value=value_loss.item(), entropy=ent_loss.item(),
                    grad_norm=norm.item(), mean_reward=R.double().sum().item() / B,  # Go sums the float32 returns
                    solve_rate=sc["correct"].sum().item() / B)

    @torch.no_grad()
    def evaluate_all(self, episodes, rnd, held_out):
        """Greedy episodes of every level on round rnd (its own task stream
        per level, enginekit.EvalPurpose), all levels in one rollout."""
        L = self.levels
        levels = np.repeat(np.arange(L), episodes)
        eps = np.tile(np.arange(episodes, dtype=np.uint32), L)
        if self.rng == "philox":
            purpose = np.array([eval_purpose(lv) for lv in range(L)], dtype=np.uint32)[levels]
            idx = draw_tuples(self.cur, self.key, rnd, eps, purpose, levels, held_out)
            ins = self.cur.instances(torch.from_numpy(levels.astype(np.int64)), torch.from_numpy(idx))
        else:
            ins = self.draw(rnd, levels, held_out, 0)
        acts = self.rollout(ins, True)
        sc = vector_score(ins, acts, self.cfg.credit)
        out = []
        for lv in range(L):
            sl = slice(lv * episodes, (lv + 1) * episodes)
            out.append(dict(level=lv, episodes=episodes, mean_reward=sc["reward"][sl].sum().item() / episodes,
                            solve_rate=sc["correct"][sl].sum().item() / episodes))
        return out

    def train(self, verbose=False, on_eval=None):
        """trainer.Drive: updates until solved (a periodic evaluation at
        stop_at on every level, then a confirmation that every level
        passes at the run's k-th share of alpha) or the update limit."""
        cfg = self.cfg
        last_eval, solved, confirmations, evals = None, False, [], []
        start = time.perf_counter()
        train_s = 0.0
        u = 0
        while u < cfg.updates and not solved:
            u += 1
            t0 = time.perf_counter()
            st = self.update(u, self.plan(last_eval))
            train_s += time.perf_counter() - t0
            if cfg.eval_every and u % cfg.eval_every == 0:
                ev = self.evaluate_all(cfg.eval_batch, u, True)
                nominates = not solved and cfg.stop_at > 0 and all(r["solve_rate"] >= cfg.stop_at for r in ev)
                last_eval = ev
                line = dict(update=u, train_reward=st["mean_reward"], train_solve_rate=st["solve_rate"],
                            loss=dict(PG=st["pg"], Value=st["value"], Entropy=st["entropy"], Total=st["loss"]),
                            grad_norm=st["grad_norm"], eval_solve_rate=[r["solve_rate"] for r in ev],
                            eval_mean_reward=[r["mean_reward"] for r in ev])
                if nominates:
                    n, alpha, maxf = confirm_test(len(confirmations) + 1, cfg.stop_at)
                    cev = self.evaluate_all(n, confirm_round(u), True)
                    fails = [n - round(r["solve_rate"] * n) for r in cev]
                    lower = [lower_bound(n - f, n, alpha) for f in fails]
                    ok = all(f <= maxf for f in fails)
                    cf = dict(update=u, number=len(confirmations) + 1, alpha=alpha, episodes=n,
                              solve_rate=[r["solve_rate"] for r in cev], lower_bound=lower, solved=ok)
                    confirmations.append(cf)
                    line["confirmation"] = cf
                    solved = ok
                evals.append(line)
                if on_eval is not None:
                    on_eval(line)
                if verbose:
                    print(json.dumps(dict(eval=line)), flush=True)
        loop_s = time.perf_counter() - start
        final = self.evaluate_all(cfg.final_episodes, FINAL_ROUND, True) if cfg.final_episodes else []
        final_train = self.evaluate_all(cfg.final_episodes, FINAL_ROUND, False) if cfg.final_episodes else []
        wall = time.perf_counter() - start
        return dict(updates=u, solved=solved, train_seconds=train_s, loop_seconds=loop_s, wall_seconds=wall,
                    confirmations=len(confirmations),
                    final_solve_rate=[r["solve_rate"] for r in final],
                    final_mean_reward=[r["mean_reward"] for r in final],
                    final_train_solve_rate=[r["solve_rate"] for r in final_train])


# ---------------------------------------------------------------- checks

def read_jsonl(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def fail(msg):
    print(json.dumps(dict(check="FAILED", error=msg)), flush=True)
    sys.exit(1)


def check_score(cur, path):
    recs = read_jsonl(path)
    bad = 0
    kinds = {}
    by_credit = {}
    for r in recs:
        by_credit.setdefault(r["credit"], []).append(r)
        kinds[r["kind"]] = kinds.get(r["kind"], 0) + 1
    n_exact = 0
    for credit, rs in by_credit.items():
        level = torch.tensor([r["level"] for r in rs])
        digits = torch.tensor([r["digits"] + [0] * (MAX_VARS - len(r["digits"])) for r in rs])
        ins = cur.from_digits(level, digits)
        # our instances (target, inner values, budget) must be Go's
        for i, r in enumerate(rs):
            if ins["target"][i].item() != r["target"] or ins["budget"][i].item() != r["budget"] or \
                    ins["inner"][i, :ins["ninner"][i]].tolist() != (r["inner"] or []):
                fail(f"instance {r}: ours has target {ins['target'][i].item()}, inner {ins['inner'][i].tolist()}")
        width = max(len(r["program"]) for r in rs)
        progs = torch.tensor([r["program"] + [-1] * (width - len(r["program"])) for r in rs])
        sc = vector_score(ins, progs, credit, torch.tensor([len(r["program"]) for r in rs]))
        for i, r in enumerate(rs):
            got = (sc["reward"][i].item(), sc["correct"][i].item(), sc["answered"][i].item(),
                   sc["steps"][i].item(), sc["held"][i].item())
            want = (r["reward"], r["correct"], r["answered"], r["steps"], r["held"])
            if got != want:
                bad += 1
                if bad <= 5:
                    print(json.dumps(dict(mismatch=r, got=got)), flush=True)
            else:
                n_exact += 1
    levels = sorted({r["level"] for r in recs})
    res = dict(check="score", programs=len(recs), equal=n_exact, mismatches=bad, levels=levels, kinds=kinds,
               credits=sorted(by_credit), correct=sum(r["correct"] for r in recs))
    print(json.dumps(res), flush=True)
    if bad or len(recs) < 6000:
        fail(f"score: {bad} mismatches of {len(recs)}")


def check_split(cur, path):
    recs = read_jsonl(path)
    if len(recs) != len(cur.levels):
        fail(f"split: Go has {len(recs)} levels, we have {len(cur.levels)}")
    total = 0
    for r, lv in zip(recs, cur.levels):
        ours = np.nonzero(lv.held)[0].tolist()
        if r["vars"] != lv.vars or r["budget"] != lv.budget or r["space"] != lv.space or r["held"] != ours:
            fail(f"split: level {r['level']} {r['expr']}: Go holds out {len(r['held'])} tuples, we {len(ours)} "
                 f"(vars {r['vars']}/{lv.vars}, budget {r['budget']}/{lv.budget})")
        total += len(ours)
        print(json.dumps(dict(check="split", level=r["level"], expr=r["expr"], key=lv.key, salt=f"{lv.salt:#018x}",
                              tuples=lv.space, held_out=len(ours), equal=True)), flush=True)
    print(json.dumps(dict(check="split", levels=len(recs), held_out_tuples=total, mismatches=0)), flush=True)


def check_draw(cur, path):
    recs = read_jsonl(path)
    groups = {}
    for r in recs:
        groups.setdefault((r["seed"], r["round"], r["purpose"], r["level"], r["held_out"]), []).append(r)
    bad = 0
    for (seed, rnd, purpose, level, held_out), rs in groups.items():
        key = new_key(seed)
        eps = np.array([r["episode"] for r in rs], dtype=np.uint32)
        idx = draw_tuples(cur, key, rnd, eps, purpose, np.full(len(rs), level), held_out)
        ins = cur.instances(torch.full((len(rs),), level), torch.from_numpy(idx))
        words = philox(key, np.uint32(rnd), eps, np.uint32(0), np.uint32(P_LEVEL))[0]
        uni = uniforms(key, rnd, eps, 4, P_ACTION)[:, 3]
        for i, r in enumerate(rs):
            d = ins["digits"][i, :len(r["digits"])].tolist()
            if d != r["digits"] or int(words[i]) != r["level_word"] or uni[i] != np.float32(r["uniform_step3"]):  # Go writes a float32 shortest
                bad += 1
                if bad <= 5:
                    print(json.dumps(dict(mismatch=r, got=[d, int(words[i]), float(uni[i])])), flush=True)
    print(json.dumps(dict(check="draw", instances=len(recs), streams=len(groups), mismatches=bad)), flush=True)
    if bad:
        fail(f"draw: {bad} mismatches")


def check_init(a, path):
    state, cfg = load_checkpoint(path)
    net = CalcPolicy(a.hidden, state["stage_emb.weight"].shape[0])
    go_init(net, a.seed, a.hidden)
    worst, differ, total = 0.0, 0, 0
    for name, t in net.state_dict().items():
        g = state[name]
        differ += (t != g).sum().item()
        total += t.numel()
        worst = max(worst, (t - g).abs().max().item())
    print(json.dumps(dict(check="init", seed=a.seed, params=total, differ=differ, max_abs_diff=worst)), flush=True)
    if differ:
        fail(f"init: {differ} of {total} parameters differ (max {worst})")


def check_greedy(a, cur, ckpt, path):
    state, cfg = load_checkpoint(ckpt)
    net = CalcPolicy(state["emb.weight"].shape[1], state["stage_emb.weight"].shape[0])
    net.load_state_dict(state, strict=True)
    recs = read_jsonl(path)
    level = torch.tensor([r["level"] for r in recs])
    digits = torch.tensor([r["digits"] + [0] * (MAX_VARS - len(r["digits"])) for r in recs])
    ins = cur.from_digits(level, digits)
    T = len(recs[0]["program"])
    B = len(recs)
    with torch.no_grad():
        h = net.context_state(ins)
        tok = torch.full((B,), CTX, dtype=torch.long)
        acts, gaps = [], []
        for _ in range(T):
            h = net.cell(tok, h)
            logits, _ = net.heads(h)
            top = logits.topk(2, 1).values
            gaps.append((top[:, 0] - top[:, 1]) / top[:, 0].abs().clamp(min=1))
            tok = logits.argmax(1)
            acts.append(tok)
    acts, gaps = torch.stack(acts, 1), torch.stack(gaps, 1)
    go = torch.tensor([r["program"] for r in recs])
    credit = a.partial_credit
    for part in cfg.get("task_spec", "").split(";"):
        k, _, v = part.partition("=")
        if k.strip() == "partial_credit":
            credit = float(v)
        elif k.strip() == "levels" and v.strip() not in ("", DEFAULT_LEVELS) and a.levels == DEFAULT_LEVELS:
            fail(f"greedy: the checkpoint's levels are {v.strip()!r}; give them with --levels")
    sc = vector_score(ins, acts, credit)
    scored = torch.arange(T)[None, :] <= vector_score(ins, go, credit)["end"][:, None]
    diff_full = (acts != go).any(1)
    diff_scored = ((acts != go) & scored).any(1)
    ties = 0
    worst_gap = 0.0
    for i in torch.nonzero(diff_full)[:, 0].tolist():
        t = int(torch.nonzero(acts[i] != go[i])[0, 0])
        g = gaps[i, t].item()
        worst_gap = max(worst_gap, g)
        if g < 1e-5:
            ties += 1
    go_reward = torch.tensor([r["reward"] for r in recs], dtype=torch.float64)
    go_correct = torch.tensor([r["correct"] for r in recs])
    res = dict(check="greedy", instances=B, steps=T, levels=sorted(set(level.tolist())),
               differ_full_rollout=int(diff_full.sum()), differ_scored_tokens=int(diff_scored.sum()),
               near_ties_at_first_difference=ties, largest_relative_gap_at_a_difference=worst_gap,
               smallest_relative_gap=gaps.min().item(),
               reward_mismatches=int((sc["reward"] != go_reward).sum()),
               torch_solve_rate=sc["correct"].double().mean().item(), go_solve_rate=go_correct.double().mean().item())
    print(json.dumps(res), flush=True)
    if int(diff_full.sum()) != ties:
        fail(f"greedy: {int(diff_full.sum())} programs differ, {ties} of them at a near-tie")


def check_trajectory(a, cur, path):
    """The first updates of a run from Go's initial parameters on Go's
    streams against `simdrl -task calc -eval-every 1 -metrics FILE`: the same
    sampled programs (so the same training rewards, up to the order of a
    float64 sum) as long as no float32 difference moves a sample across a
    CDF boundary, the loss and gradient norm to float32 accuracy, and the
    same greedy evaluations."""
    go = read_jsonl(path)
    a = argparse.Namespace(**vars(a))
    a.eval_every, a.updates, a.final_episodes = 1, len(go), 0
    net = CalcPolicy(a.hidden, len(cur.levels))
    go_init(net, a.seed, a.hidden)
    run = Run(Config(a), cur, net, "philox")
    lines = []
    run.train(on_eval=lines.append)
    worst = dict(train_reward=0.0, loss=0.0, grad_norm=0.0, eval_mean_reward=0.0)
    bad = 0
    for g, t in zip(go, lines):
        rel = lambda x, y: abs(x - y) / max(abs(y), 1.0)  # noqa: E731
        d = dict(train_reward=rel(t["train_reward"], g["train_reward"]),
                 loss=rel(t["loss"]["Total"], g["loss"]["Total"]),
                 grad_norm=rel(t["grad_norm"], g["grad_norm"]),
                 eval_mean_reward=max(rel(x, y) for x, y in zip(t["eval_mean_reward"], g["eval_mean_reward"])))
        for k in worst:
            worst[k] = max(worst[k], d[k])
        if d["train_reward"] > 1e-9 or d["loss"] > 1e-4 or d["grad_norm"] > 1e-4 or d["eval_mean_reward"] > 1e-12 \
                or t["eval_solve_rate"] != g["eval_solve_rate"]:
            bad += 1
            print(json.dumps(dict(mismatch_at_update=g["update"], go=g, torch=t)), flush=True)
    print(json.dumps(dict(check="trajectory", seed=a.seed, updates=len(go), mismatches=bad,
                          largest_relative_difference=worst)), flush=True)
    if bad:
        fail(f"trajectory: {bad} of {len(go)} updates differ")


def check_confirmations(path):
    """The stop rule's arithmetic against a Go report's confirmations: the
    k-th confirmation's alpha, episodes and failures allowed (exact
    binomial sums), each level's lower bound (to 1e-9) and the verdict
    (every trained level within the failures allowed)."""
    rep = json.load(open(path))
    cfg = rep["config"]
    stop_at, trained = cfg["stop_at"], sorted(set(cfg["stages"]))
    confs = rep.get("confirmations") or []
    bad = 0
    for k, cf in enumerate(confs, 1):
        n, alpha, maxf = confirm_test(k, stop_at)
        fails = [n - round(r * n) for r in cf["solve_rate"]]
        lower = [lower_bound(n - f, n, alpha) for f in fails]
        ok = all(fails[s] <= maxf for s in trained)
        close = all(abs(a - b) <= 1e-9 for a, b in zip(lower, cf["lower_bound"]))
        if (cf["number"], cf["episodes"]) != (k, n) or abs(cf["alpha"] - alpha) > 1e-15 or not close or ok != cf["solved"]:
            bad += 1
            print(json.dumps(dict(mismatch=cf, number=k, episodes=n, alpha=alpha, lower_bound=lower, solved=ok)), flush=True)
    print(json.dumps(dict(check="confirmations", confirmations=len(confs), solved=[cf["solved"] for cf in confs],
                          mismatches=bad)), flush=True)
    if bad or not confs:
        fail(f"confirmations: {bad} of {len(confs)} differ")


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check-score", metavar="FILE")
    ap.add_argument("--check-split", metavar="FILE")
    ap.add_argument("--check-draw", metavar="FILE")
    ap.add_argument("--check-init", metavar="CKPT")
    ap.add_argument("--check-greedy", nargs=2, metavar=("CKPT", "FILE"))
    ap.add_argument("--check-trajectory", metavar="GO_METRICS")
    ap.add_argument("--check-confirmations", metavar="GO_REPORT")
    ap.add_argument("--bench-update", action="store_true")
    ap.add_argument("--solve", action="store_true")
    ap.add_argument("--levels", default=DEFAULT_LEVELS, help="the curriculum; levels other than the default's need :budget")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--batch", type=int, default=192)
    ap.add_argument("--threads", type=int, default=1, help="torch.set_num_threads")
    ap.add_argument("--iters", type=int, default=30, help="--bench-update: timed updates (after 3 warm-up ones)")
    ap.add_argument("--updates", type=int, default=6000)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--clip", type=float, default=1.0)
    ap.add_argument("--hidden", type=int, default=96)
    ap.add_argument("--entropy-coef", type=float, default=0.5)
    ap.add_argument("--partial-credit", type=float, default=0.3)
    ap.add_argument("--stop-at", type=float, default=0.99)
    ap.add_argument("--eval-every", type=int, default=20)
    ap.add_argument("--final-episodes", type=int, default=1000)
    ap.add_argument("--no-focus", action="store_true")
    ap.add_argument("--no-mask", action="store_true")
    ap.add_argument("--rng", default="philox", choices=["philox", "torch"],
                    help="philox: Go's counter-based streams and initialisation; torch: torch's generators and init")
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()

    torch.set_num_threads(a.threads)
    try:
        torch.set_num_interop_threads(1)
    except RuntimeError:
        pass
    cur = Curriculum(parse_levels(a.levels))
    did = False
    if a.check_split:
        check_split(cur, a.check_split)
        did = True
    if a.check_score:
        check_score(cur, a.check_score)
        did = True
    if a.check_draw:
        check_draw(cur, a.check_draw)
        did = True
    if a.check_init:
        check_init(a, a.check_init)
        did = True
    if a.check_greedy:
        check_greedy(a, cur, *a.check_greedy)
        did = True
    if a.check_confirmations:
        check_confirmations(a.check_confirmations)
        did = True
    if a.check_trajectory:
        check_trajectory(a, cur, a.check_trajectory)
        did = True
    if a.bench_update or a.solve:
        torch.manual_seed(a.seed)
        net = CalcPolicy(a.hidden, len(cur.levels))
        if a.rng == "philox":
            go_init(net, a.seed, a.hidden)
        run = Run(Config(a), cur, net, a.rng)
        common = dict(batch=a.batch, steps=run.T, threads=torch.get_num_threads(), rng=a.rng, torch=torch.__version__,
                      seed=a.seed)
        if a.bench_update:
            cdf = run.plan(None)
            timing = dict(rollout=[], draw=[], policy=[], score=[], backward=[], step=[])
            for u in range(1, 4):
                run.update(u, cdf)
            full = []
            for u in range(4, 4 + a.iters):
                t0 = time.perf_counter()
                run.update(u, cdf, timing)
                full.append(time.perf_counter() - t0)
            med = lambda xs: round(1e3 * statistics.median(xs), 4)  # noqa: E731
            print(json.dumps(dict(part="calc_update", median_ms=med(full), min_ms=round(1e3 * min(full), 4),
                                  rollout_ms=med(timing["rollout"]), draw_ms=med(timing["draw"]),
                                  policy_rollout_ms=med(timing["policy"]), score_ms=med(timing["score"]),
                                  backward_ms=med(timing["backward"]),
                                  step_ms=med(timing["step"]), iters=a.iters, **common)), flush=True)
        if a.solve:
            res = run.train(a.verbose)
            print(json.dumps(dict(part="calc_solve", **res, **common)), flush=True)
        did = True
    if not did:
        ap.error("give a mode: --check-*, --bench-update or --solve")


if __name__ == "__main__":
    main()
