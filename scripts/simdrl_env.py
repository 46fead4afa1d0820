"""The tool environment's scoring, in Python, for make_golden.py and
torch_update_bench.py: the rules docs/tasks.md ("The seed task") gives, which
env.Run implements in Go. Written from those rules as a table of tools, one
function each, over a machine (value, stored)."""
from simdrl_torch import TOKENS

MUL, ADD, SUB, ANS, STO, RCL = (TOKENS[k] for k in ("MUL", "ADD", "SUB", "ANS", "STO", "RCL"))
MAX_STEPS = 7


def _mul(level, t, value, stored):
    """The first MUL computes a·b; later ones multiply by d (by 1 in level 0)."""
    a, b, _, d, _ = t
    if value is None:
        return a * b, stored
    return value * (1 if level == 0 else d), stored


def _add(level, t, value, stored):
    return (None if value is None else value + t[2]), stored


def _sub(level, t, value, stored):
    """SUB takes d away (e in level 2 once STO ran; nothing in level 0)."""
    if value is None:
        return None, stored
    if level == 0:
        return value, stored
    return value - (t[4] if level == 2 and stored else t[3]), stored


def _sto(level, t, value, stored):
    return value, True


def _rcl(level, t, value, stored):
    """RCL after a STO: d·e in level 2, else the value, 0 when there is none."""
    if not stored:
        return value, stored
    if level == 2:
        return t[3] * t[4], stored
    return (value if value else 0), stored


TOOLS = {MUL: _mul, ADD: _add, SUB: _sub, STO: _sto, RCL: _rcl}


def goals(level, a, b, c, d, e):
    """The intermediate goals of a level and their bonus weights, in the
    order they are summed (works on ints and on tensors alike)."""
    if level == 2:
        return [(0.2, a * b), (0.4, a * b + c), (0.6, a * b + c - d * e), (0.6, d * e)]
    out = [(0.25, a * b), (0.5, a * b + c)]
    if level == 1:
        out.append((0.75, a * b + c - d))
    return out


def rewarded_target(level, a, b, c, d, e):
    """a·b, a·b+c, a·b+c−d for levels 0, 1, 2 (what ANS must hold)."""
    return (a * b, a * b + c, a * b + c - d)[level]


def score(level, digits, program):
    """(reward, steps) of running program on a task. Every token is a step,
    unknown ones do nothing; no program runs past MAX_STEPS; ANS ends it and
    is the only way to earn a reward."""
    value, stored = None, False  # None: nothing computed yet, equal to no goal
    for steps, tok in enumerate(program[:MAX_STEPS], 1):
        if tok == ANS:
            return answer_reward(level, digits, value), steps
        if tok in TOOLS:
            value, stored = TOOLS[tok](level, digits, value, stored)
    return 0.0, min(len(program), MAX_STEPS)


def answer_reward(level, digits, value):
    """1 for the rewarded target, plus 0.2 times the weights of the goals the
    value equals, summed left to right from zero in float64 (which fixes the
    reward's bits)."""
    bonus = 0.0 + sum(w * (value == g) for w, g in goals(level, *digits))
    hit = value == rewarded_target(level, *digits)
    return (1.0 if hit else 0.0) + 0.2 * bonus
