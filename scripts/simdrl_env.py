"""The tool environment's scoring, in Python, for make_golden.py: the rules
README.md ("The environment") gives, which env.Run implements in Go.
"""
from simdrl_torch import TOKENS

MUL, ADD, SUB, ANS, STO, RCL = (TOKENS[k] for k in ("MUL", "ADD", "SUB", "ANS", "STO", "RCL"))
MAX_STEPS = 7


def score(stage, digits, program):
    """(reward, steps) of running program on a task. Every token is a step;
    no program runs past MAX_STEPS; ANS ends it and is the only way to
    earn a reward."""
    a, b, c, d, e = digits
    value = None  # nothing computed yet: comparisons with it are false
    stored = False  # STO seen
    for steps, tok in enumerate(program[:MAX_STEPS], 1):
        if tok == MUL:
            value = a * b if value is None else value * (d if stage > 0 else 1)
        elif tok == ADD and value is not None:
            value += c
        elif tok == SUB and value is not None:
            value -= e if stage == 2 and stored else d if stage > 0 else 0
        elif tok == STO:
            stored = True
        elif tok == RCL and stored:
            value = d * e if stage == 2 else value or 0
        elif tok == ANS:
            return answer_reward(stage, (a, b, c, d, e), value), steps
    return 0.0, min(len(program), MAX_STEPS)


def answer_reward(stage, digits, value):
    """1 for the rewarded target (a*b, a*b+c, a*b+c-d by stage), plus 0.2 times
    the weights of the intermediate goals value equals. The weights are summed
    left to right from zero in float64, which fixes the reward's bits."""
    a, b, c, d, e = digits
    ab = a * b
    goals = [(0.25, ab), (0.5, ab + c)]
    if stage == 1:
        goals.append((0.75, ab + c - d))
    elif stage == 2:
        goals = [(0.2, ab), (0.4, ab + c), (0.6, ab + c - d * e), (0.6, d * e)]
    bonus = 0.0 + sum(w * (value == g) for w, g in goals)
    hit = value == (ab, ab + c, ab + c - d)[stage]
    return (1.0 if hit else 0.0) + 0.2 * bonus
