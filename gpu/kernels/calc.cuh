// calc.cuh: the calculator task, env/calc's Episode and Machine.Apply
// (../../env/calc/episode.go, machine.go) statement for statement: a per-row
// episode state (simdrl_calc_state, in registers), simdrl_calc_reset and
// simdrl_calc_step per token, and calc.Run's whole-program scorer
// (simdrl_calc_run) as a loop over the step. The tools are
// data: ops holds three int32 per token (kind, source, destination: calc.Ops,
// uploaded by gpu/scorer.go), so a new instruction set needs a new table, not
// a new kernel. int64 registers and the reward in float64 in Go's order, so
// rewards are bit-identical to the CPU's.
#ifndef SIMDRL_CALC_CUH
#define SIMDRL_CALC_CUH

#include "common.cuh"
#include "env.cuh"

// calc.OpKind, calc.Source, calc.Register (env/calc/ops.go; a test compares).
#define SIMDRL_KIND_NONE 0
#define SIMDRL_KIND_SET 1
#define SIMDRL_KIND_ADD 2
#define SIMDRL_KIND_SUB 3
#define SIMDRL_KIND_MUL 4
#define SIMDRL_KIND_SUB_FROM 5
#define SIMDRL_KIND_ANSWER 6
#define SIMDRL_KIND_NEG 7  // dst ← −src (NEG: v ← −v)
#define SIMDRL_KIND_SWAP 8 // dst ↔ src (SWAP: v ↔ m)
#define SIMDRL_SRC_NONE 0
#define SIMDRL_SRC_OPERAND 1
#define SIMDRL_SRC_V 2
#define SIMDRL_SRC_M 3
#define SIMDRL_REG_V 0
#define SIMDRL_REG_M 1
#define SIMDRL_OP_WORDS 3

// calc.Observation, what a task's machine shows the policy after every
// token: nothing, or the signs of v and v − m (calc.ObserveSigns,
// SIMDRL_SIGNS_OBS tokens).
#define SIMDRL_OBSERVE_NONE 0
#define SIMDRL_OBSERVE_SIGNS 1
#define SIMDRL_SIGNS_OBS 9

SIMDRL_HD int simdrl_popcount32(uint32_t x) {
    int n = 0;
    for (; x; x &= x - 1) n++;
    return n;
}

// simdrl_calc_state is calc.Episode: the instance (the record rec, read in
// place, its scalars copied), the op table, the machine (v, m and the operand
// pointer p), the inner values held, the outcome so far and the end.
typedef struct {
    const int32_t *rec;
    const int32_t *ops;
    int V;
    double credit;
    int budget, vars, ninner;
    int64_t target;
    int64_t v, m;
    int p;
    uint32_t held; // bit j: v has held inner value j
    int steps;
    int answered;
    int64_t answer;
    int correct;
    int done;
    int observe; // SIMDRL_OBSERVE_*
} simdrl_calc_state;

// simdrl_calc_reset is calc.Episode.Reset on the instance rec
// (SIMDRL_TASK_WORDS layout) with the V-token op table ops, rewarding
// partial_credit × the share of the inner values held, observing as observe
// (SIMDRL_OBSERVE_*: simdrl_calc_obs is the first input's observation).
SIMDRL_HD simdrl_calc_state simdrl_calc_reset(const int32_t *rec, const int32_t *ops, int V, double partial_credit, int observe) {
    simdrl_calc_state s;
    s.rec = rec;
    s.ops = ops;
    s.V = V;
    s.credit = partial_credit;
    s.budget = rec[SIMDRL_REC_BUDGET];
    s.vars = simdrl_clamp(rec[SIMDRL_REC_VARS], 0, SIMDRL_MAX_DIGITS); // the operands it reads from the record's digits
    s.ninner = rec[SIMDRL_REC_NINNER];
    s.target = simdrl_rec_i64(rec, SIMDRL_REC_TARGET);
    s.v = 0;
    s.m = 0;
    s.p = 0;
    s.held = 0;
    s.steps = 0;
    s.answered = 0;
    s.answer = 0;
    s.correct = 0;
    s.done = s.budget <= 0;
    s.observe = observe;
    return s;
}

SIMDRL_HD int simdrl_sgn64(int64_t x) { return (x > 0) - (x < 0); }

// simdrl_calc_obs is the observation of the machine as it is now
// (calc.Observation's Observe): with SIMDRL_OBSERVE_SIGNS, 3·(sgn v + 1) +
// (sgn(v − m) + 1) ∈ 0..8 (4 at reset: v = m = 0); SIMDRL_NO_OBS without.
// v − m wraps as Go's int64 subtraction does (it cannot overflow within a
// budget, Machine's bound, but the twin stays exact regardless).
SIMDRL_HD int simdrl_calc_obs(const simdrl_calc_state *s) {
    if (s->observe != SIMDRL_OBSERVE_SIGNS) return SIMDRL_NO_OBS;
    return 3 * (simdrl_sgn64(s->v) + 1) + simdrl_sgn64((int64_t)((uint64_t)s->v - (uint64_t)s->m)) + 1;
}

// simdrl_calc_reward is calc.Episode.reward, the reward of an answered
// episode in Go's float64 order: 1[correct] + credit × held / NInner.
SIMDRL_HD double simdrl_calc_reward(const simdrl_calc_state *s) {
    double r = 0.0;
    if (s->correct) r = 1.0;
    if (s->ninner > 0) r = SIMDRL_DADD(r, SIMDRL_DMUL(s->credit, SIMDRL_DDIV((double)simdrl_popcount32(s->held), (double)s->ninner)));
    return r;
}

// simdrl_calc_step is calc.Episode.Step: it consumes one token and returns
// what it earned, the whole reward (partial credit included) at the first
// answer and 0 at every other token; the episode ends at the answer or when
// the budget is spent, and tokens after the end earn 0 and change nothing.
SIMDRL_HD simdrl_step simdrl_calc_step(simdrl_calc_state *s, int tok) {
    simdrl_step out;
    out.reward = 0.0;
    out.done = s->done;
    out.obs = simdrl_calc_obs(s);
    if (s->done) return out;
    s->steps++;
    // calc.OpOf: a token outside the table is no op.
    int kind = SIMDRL_KIND_NONE, src = SIMDRL_SRC_NONE, dst = SIMDRL_REG_V;
    if (tok >= 0 && tok < s->V) {
        kind = s->ops[SIMDRL_OP_WORDS * tok];
        src = s->ops[SIMDRL_OP_WORDS * tok + 1];
        dst = s->ops[SIMDRL_OP_WORDS * tok + 2];
    }
    if (kind == SIMDRL_KIND_ANSWER) {
        s->done = 1;
        s->answered = 1;
        s->answer = s->v;
        s->correct = s->v == s->target;
        out.reward = simdrl_calc_reward(s);
        out.done = 1;
        return out;
    }
    // Machine.Apply: an op whose operand is missing does nothing.
    int64_t x = 0;
    int apply = 1;
    if (src == SIMDRL_SRC_OPERAND) {
        if (s->p >= s->vars) apply = 0;
        else x = s->rec[SIMDRL_REC_DIGITS + s->p++];
    } else if (src == SIMDRL_SRC_V) {
        x = s->v;
    } else if (src == SIMDRL_SRC_M) {
        x = s->m;
    }
    if (apply) {
        // The destination by value, not by pointer: a pointer to v or m
        // would put both in local memory.
        int64_t r = dst == SIMDRL_REG_M ? s->m : s->v;
        switch (kind) {
        case SIMDRL_KIND_SET: r = x; break;
        case SIMDRL_KIND_ADD: r += x; break;
        case SIMDRL_KIND_SUB: r -= x; break;
        case SIMDRL_KIND_MUL: r *= x; break;
        case SIMDRL_KIND_SUB_FROM: r = x - r; break;
        case SIMDRL_KIND_NEG: r = -x; break;
        case SIMDRL_KIND_SWAP:
            // The source's register gets the destination's old value (Go's
            // s.M, *dst = *dst, src: the source's register first).
            if (src == SIMDRL_SRC_M) {
                s->m = r;
                r = x;
            } else if (src == SIMDRL_SRC_V) {
                s->v = r;
                r = x;
            }
            break;
        default: break;
        }
        if (dst == SIMDRL_REG_M) s->m = r;
        else s->v = r;
    }
    for (int j = 0; j < s->ninner && j < SIMDRL_MAX_INNER; j++)
        if (s->v == simdrl_rec_i64(s->rec, SIMDRL_REC_INNER + 2 * j)) s->held |= 1u << j;
    if (s->steps >= s->budget) s->done = 1;
    out.done = s->done;
    out.obs = simdrl_calc_obs(s);
    return out;
}

// simdrl_calc_run is calc.Run: the program of n actions, actions[i*stride],
// stepped from simdrl_calc_reset until the episode ends (at most the
// instance's budget of tokens, up to the first answer); its reward is the
// episode's return (the answer step's reward: a program that does not answer
// earns nothing).
SIMDRL_HD simdrl_outcome simdrl_calc_run(const int32_t *rec, const int32_t *ops, int V, double partial_credit, const int32_t *actions, int stride,
                                         int n) {
    simdrl_calc_state s = simdrl_calc_reset(rec, ops, V, partial_credit, SIMDRL_OBSERVE_NONE);
    simdrl_outcome o;
    o.reward = 0.0;
    for (int i = 0; i < n && !s.done; i++) {
        const simdrl_step st = simdrl_calc_step(&s, actions[i * stride]);
        o.reward = SIMDRL_DADD(o.reward, st.reward);
    }
    o.steps = s.steps;
    o.answered = s.answered;
    o.correct = s.correct;
    return o;
}

// simdrl_calc_slot is an episode the rollout steps inside its step loop
// (O > 0), kept in shared memory between steps: the state and its return so
// far. SIMDRL_CALC_SLOT_DOUBLES is its size in doubles, as gpu/plan.go sizes
// the region (the typedef below fails to compile if it outgrows it).
typedef struct {
    simdrl_calc_state s;
    double ret;
} simdrl_calc_slot;
#define SIMDRL_CALC_SLOT_DOUBLES 16
typedef char simdrl_calc_slot_fits[sizeof(simdrl_calc_slot) <= 8 * SIMDRL_CALC_SLOT_DOUBLES ? 1 : -1];

// simdrl_score is the rollout's scorer: the seed task's environment or the
// calculator's op table.
SIMDRL_HD simdrl_outcome simdrl_score(int scorer, const int32_t *rec, const int32_t *ops, int V, double partial_credit, const int32_t *actions,
                                      int stride, int n) {
    if (scorer == SIMDRL_SCORE_CALC) return simdrl_calc_run(rec, ops, V, partial_credit, actions, stride, n);
    return simdrl_env_run(rec, actions, stride, n);
}

// simdrl_score_ends reports whether simdrl_score's episode, not ended before
// its n-th token act (n from 1), ends at it: at an answer, or at the seed's
// SIMDRL_MAX_STEPS-th token or the calculator's budget-th (an instance of no
// budget, ended before its first token, is reported at it). The rollout's
// until_done knows by it when an episode scored after the loop has ended,
// without stepping a machine (simdrl_env_step and simdrl_calc_step end
// their episodes at exactly these tokens).
SIMDRL_HD int simdrl_score_ends(int scorer, const int32_t *rec, const int32_t *ops, int V, int act, int n) {
    if (scorer == SIMDRL_SCORE_CALC) {
        const int answer = act >= 0 && act < V && ops[SIMDRL_OP_WORDS * act] == SIMDRL_KIND_ANSWER;
        return answer || n >= rec[SIMDRL_REC_BUDGET];
    }
    return act == SIMDRL_ANS || n >= SIMDRL_MAX_STEPS;
}

#endif
