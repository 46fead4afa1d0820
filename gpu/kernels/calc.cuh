// calc.cuh: the calculator task's scoring, env/calc's run and Machine.Apply
// (../../env/calc/run.go, machine.go) statement for statement. The tools are
// data: ops holds three int32 per token (kind, source, destination: calc.Ops,
// uploaded by gpu/engine.go), so a new instruction set needs a new table, not
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
#define SIMDRL_SRC_NONE 0
#define SIMDRL_SRC_OPERAND 1
#define SIMDRL_SRC_V 2
#define SIMDRL_SRC_M 3
#define SIMDRL_REG_V 0
#define SIMDRL_REG_M 1
#define SIMDRL_OP_WORDS 3

SIMDRL_HD int simdrl_popcount32(uint32_t x) {
    int n = 0;
    for (; x; x &= x - 1) n++;
    return n;
}

// simdrl_calc_run scores a program of n actions, actions[i*stride], on the
// instance rec (SIMDRL_TASK_WORDS layout) with the V-token op table ops:
// at most the instance's budget of tokens, up to the first answer;
// reward = 1[answer == target] + partial_credit × (inner values held) /
// NInner, the credit only for a program that answers.
SIMDRL_HD simdrl_outcome simdrl_calc_run(const int32_t *rec, const int32_t *ops, int V, double partial_credit, const int32_t *actions, int stride,
                                         int n) {
    const int budget = rec[SIMDRL_REC_BUDGET], vars = rec[SIMDRL_REC_VARS], ninner = rec[SIMDRL_REC_NINNER];
    const int32_t *digits = rec + SIMDRL_REC_DIGITS;
    const int64_t target = simdrl_rec_i64(rec, SIMDRL_REC_TARGET);
    int64_t v = 0, m = 0;
    int p = 0;
    uint32_t held = 0; // bit j: v has held inner value j
    simdrl_outcome o;
    o.reward = 0.0;
    o.steps = 0;
    o.answered = 0;
    o.correct = 0;
    for (int i = 0; i < n; i++) {
        if (o.steps >= budget) break;
        o.steps++;
        const int tok = actions[i * stride];
        int kind = SIMDRL_KIND_NONE, src = SIMDRL_SRC_NONE, dst = SIMDRL_REG_V;
        if (tok >= 0 && tok < V) {
            kind = ops[SIMDRL_OP_WORDS * tok];
            src = ops[SIMDRL_OP_WORDS * tok + 1];
            dst = ops[SIMDRL_OP_WORDS * tok + 2];
        }
        if (kind == SIMDRL_KIND_ANSWER) {
            o.answered = 1;
            o.correct = v == target;
            break;
        }
        // Machine.Apply: an op whose operand is missing does nothing.
        int64_t s = 0;
        int apply = 1;
        if (src == SIMDRL_SRC_OPERAND) {
            if (p >= vars) apply = 0;
            else s = digits[p++];
        } else if (src == SIMDRL_SRC_V) {
            s = v;
        } else if (src == SIMDRL_SRC_M) {
            s = m;
        }
        if (apply) {
            // The destination by value, not by pointer: a pointer to v or m
            // would put both in local memory.
            int64_t r = dst == SIMDRL_REG_M ? m : v;
            switch (kind) {
            case SIMDRL_KIND_SET: r = s; break;
            case SIMDRL_KIND_ADD: r += s; break;
            case SIMDRL_KIND_SUB: r -= s; break;
            case SIMDRL_KIND_MUL: r *= s; break;
            case SIMDRL_KIND_SUB_FROM: r = s - r; break;
            default: break;
            }
            if (dst == SIMDRL_REG_M) m = r;
            else v = r;
        }
        for (int j = 0; j < ninner && j < SIMDRL_MAX_INNER; j++)
            if (v == simdrl_rec_i64(rec, SIMDRL_REC_INNER + 2 * j)) held |= 1u << j;
    }
    if (o.correct) o.reward = 1.0;
    if (ninner > 0 && o.answered)
        o.reward = SIMDRL_DADD(o.reward, SIMDRL_DMUL(partial_credit, SIMDRL_DDIV((double)simdrl_popcount32(held), (double)ninner)));
    return o;
}

// simdrl_score is the rollout's scorer: the seed task's environment or the
// calculator's op table.
SIMDRL_HD simdrl_outcome simdrl_score(int scorer, const int32_t *rec, const int32_t *ops, int V, double partial_credit, const int32_t *actions,
                                      int stride, int n) {
    if (scorer == SIMDRL_SCORE_CALC) return simdrl_calc_run(rec, ops, V, partial_credit, actions, stride, n);
    return simdrl_env_run(rec, actions, stride, n);
}

#endif
