// env.cuh: the tool environment's scoring, env.Run (../../env/run.go) line
// for line: int64 arithmetic and the reward in float64 in the seed's order,
// so that rewards are bit-identical to the CPU's.
#ifndef SIMDRL_ENV_CUH
#define SIMDRL_ENV_CUH

#include "common.cuh"

typedef struct {
    double reward;
    int steps;
    int answered;
    int correct;
} simdrl_outcome;

// 1 when the seed's `last` is set and equals v (Python's True in arithmetic).
SIMDRL_HD double simdrl_is(int has_last, int64_t last, int64_t v) { return (has_last && last == v) ? 1.0 : 0.0; }

// simdrl_env_run scores a program of n actions, actions[i*stride], on the
// seed task's instance rec (SIMDRL_TASK_WORDS layout: its level,
// a..e the first five digits).
SIMDRL_HD simdrl_outcome simdrl_env_run(const int32_t *rec, const int32_t *actions, int stride, int n) {
    const int32_t *dg = rec + SIMDRL_REC_DIGITS;
    const int level = rec[SIMDRL_REC_LEVEL];
    const int64_t a = dg[0], b = dg[1], c = dg[2], d = dg[3], e = dg[4];
    int64_t last = 0;
    int has_last = 0;
    int mem = 0; // 0 None, 1 "ok", 2 "use_d"
    int steps = 0;
    const int64_t goal0 = a * b, goal1 = goal0 + c, goal2 = goal1 - d, goal3 = d * e, goal4 = goal1 - goal3;
    simdrl_outcome o;
    o.reward = 0.0;
    o.answered = 0;
    o.correct = 0;
    for (int i = 0; i < n; i++) {
        const int act = actions[i * stride];
        steps++;
        switch (act) {
        case SIMDRL_MUL:
            if (!has_last) {
                last = a * b;
                has_last = 1;
            } else if (level > 0) {
                last *= d;
            }
            break;
        case SIMDRL_ADD:
            if (has_last) last += c;
            break;
        case SIMDRL_SUB:
            if (has_last) {
                if (level == 2 && mem == 2) last -= e;
                else if (level > 0) last -= d;
            }
            break;
        case SIMDRL_STO:
            mem = level >= 1 ? 2 : 1;
            break;
        case SIMDRL_RCL:
            if (mem != 0) {
                if (level == 2 && mem == 2) {
                    last = d * e;
                    has_last = 1;
                } else if (!has_last) {
                    last = 0;
                    has_last = 1;
                }
            }
            break;
        case SIMDRL_ANS: {
            const int64_t target = level == 0 ? goal0 : (level == 1 ? goal1 : goal2);
            const int correct = has_last && last == target;
            double shaped = 0.0, terms = 0.0;
            if (level == 0) {
                terms = SIMDRL_DADD(SIMDRL_DMUL(0.25, simdrl_is(has_last, last, goal0)), SIMDRL_DMUL(0.5, simdrl_is(has_last, last, goal1)));
            } else if (level == 1) {
                terms = SIMDRL_DADD(SIMDRL_DADD(SIMDRL_DMUL(0.25, simdrl_is(has_last, last, goal0)), SIMDRL_DMUL(0.5, simdrl_is(has_last, last, goal1))),
                                    SIMDRL_DMUL(0.75, simdrl_is(has_last, last, goal2)));
            } else {
                terms = SIMDRL_DADD(SIMDRL_DADD(SIMDRL_DADD(SIMDRL_DMUL(0.2, simdrl_is(has_last, last, goal0)), SIMDRL_DMUL(0.4, simdrl_is(has_last, last, goal1))),
                                                SIMDRL_DMUL(0.6, simdrl_is(has_last, last, goal4))),
                                    SIMDRL_DMUL(0.6, simdrl_is(has_last, last, goal3)));
            }
            shaped = SIMDRL_DADD(shaped, terms);
            o.reward = SIMDRL_DADD(correct ? 1.0 : 0.0, SIMDRL_DMUL(0.2, shaped));
            o.steps = steps;
            o.answered = 1;
            o.correct = correct;
            return o;
        }
        default:
            break;
        }
        if (steps >= SIMDRL_MAX_STEPS) break;
    }
    o.steps = steps;
    return o;
}

#endif
