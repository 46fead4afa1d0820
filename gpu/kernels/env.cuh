// env.cuh: the tool environment, env.Episode (../../env/episode.go) statement
// for statement: a per-row episode state (simdrl_env_state, held in
// registers: the functions are inlined and take its address only as an
// argument), simdrl_env_reset from an instance record and simdrl_env_step
// per token; simdrl_env_run, env.Run, scores a whole program as a loop over
// the step. int64 arithmetic and the reward in float64 in the seed's order,
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

// simdrl_step is what one step returns (env.Episode.Step's reward, and Done
// after it), and the observation the policy's next input carries
// (task.Transition.Obs): SIMDRL_NO_OBS for a task that observes nothing.
typedef struct {
    double reward;
    int done;
    int obs;
} simdrl_step;

// task.NoObservation.
#define SIMDRL_NO_OBS (-1)

// simdrl_env_state is env.Episode: the first five digits, the level, the
// seed's `last` as (has_last, last), its memory, the tokens consumed and the
// end.
typedef struct {
    int64_t a, b, c, d, e;
    int level;
    int64_t last;
    int has_last;
    int mem; // 0 None, 1 "ok", 2 "use_d" (env.MemEmpty, MemOK, MemUseD)
    int steps;
    int done;
    int correct;
} simdrl_env_state;

// 1 when the seed's `last` is set and equals v (Python's True in arithmetic).
SIMDRL_HD double simdrl_is(int has_last, int64_t last, int64_t v) { return (has_last && last == v) ? 1.0 : 0.0; }

// simdrl_env_reset is env.Episode.Reset on the seed task's instance rec
// (SIMDRL_TASK_WORDS layout: its level, a..e the first five
// digits).
SIMDRL_HD simdrl_env_state simdrl_env_reset(const int32_t *rec) {
    const int32_t *dg = rec + SIMDRL_REC_DIGITS;
    simdrl_env_state s;
    s.a = dg[0];
    s.b = dg[1];
    s.c = dg[2];
    s.d = dg[3];
    s.e = dg[4];
    s.level = rec[SIMDRL_REC_LEVEL];
    s.last = 0;
    s.has_last = 0;
    s.mem = 0;
    s.steps = 0;
    s.done = 0;
    s.correct = 0;
    return s;
}

// simdrl_env_answer is env.Episode.answer: step_seq's reward at ANS.
SIMDRL_HD double simdrl_env_answer(simdrl_env_state *s) {
    const int64_t goal0 = s->a * s->b, goal1 = goal0 + s->c, goal2 = goal1 - s->d, goal3 = s->d * s->e, goal4 = goal1 - goal3;
    const int has_last = s->has_last;
    const int64_t last = s->last;
    const int64_t target = s->level == 0 ? goal0 : (s->level == 1 ? goal1 : goal2);
    s->correct = has_last && last == target;
    // The seed accumulates `shaped` from 0.0 with the terms summed left to
    // right first.
    double shaped = 0.0, terms = 0.0;
    if (s->level == 0) {
        terms = SIMDRL_DADD(SIMDRL_DMUL(0.25, simdrl_is(has_last, last, goal0)), SIMDRL_DMUL(0.5, simdrl_is(has_last, last, goal1)));
    } else if (s->level == 1) {
        terms = SIMDRL_DADD(SIMDRL_DADD(SIMDRL_DMUL(0.25, simdrl_is(has_last, last, goal0)), SIMDRL_DMUL(0.5, simdrl_is(has_last, last, goal1))),
                            SIMDRL_DMUL(0.75, simdrl_is(has_last, last, goal2)));
    } else {
        terms = SIMDRL_DADD(SIMDRL_DADD(SIMDRL_DADD(SIMDRL_DMUL(0.2, simdrl_is(has_last, last, goal0)), SIMDRL_DMUL(0.4, simdrl_is(has_last, last, goal1))),
                                        SIMDRL_DMUL(0.6, simdrl_is(has_last, last, goal4))),
                            SIMDRL_DMUL(0.6, simdrl_is(has_last, last, goal3)));
    }
    shaped = SIMDRL_DADD(shaped, terms);
    const double base = s->correct ? 1.0 : 0.0;
    return SIMDRL_DADD(base, SIMDRL_DMUL(0.2, shaped));
}

// simdrl_env_step is env.Episode.Step: it consumes one token and returns what
// it earned, the whole reward at ANS and 0 at every other token; the episode
// ends at ANS or after SIMDRL_MAX_STEPS tokens, and tokens after the end earn
// 0 and change nothing.
SIMDRL_HD simdrl_step simdrl_env_step(simdrl_env_state *s, int act) {
    simdrl_step out;
    out.reward = 0.0;
    out.done = s->done;
    out.obs = SIMDRL_NO_OBS;
    if (s->done) return out;
    s->steps++;
    switch (act) {
    case SIMDRL_MUL:
        if (!s->has_last) {
            s->last = s->a * s->b;
            s->has_last = 1;
        } else if (s->level > 0) {
            s->last *= s->d;
        }
        break;
    case SIMDRL_ADD:
        if (s->has_last) s->last += s->c;
        break;
    case SIMDRL_SUB:
        if (s->has_last) {
            if (s->level == 2 && s->mem == 2) s->last -= s->e;
            else if (s->level > 0) s->last -= s->d;
        }
        break;
    case SIMDRL_STO:
        s->mem = s->level >= 1 ? 2 : 1;
        break;
    case SIMDRL_RCL:
        if (s->mem != 0) {
            if (s->level == 2 && s->mem == 2) {
                s->last = s->d * s->e;
                s->has_last = 1;
            } else if (!s->has_last) { // `last if last else 0`: None and 0 both give 0
                s->last = 0;
                s->has_last = 1;
            }
        }
        break;
    case SIMDRL_ANS:
        s->done = 1;
        out.reward = simdrl_env_answer(s);
        out.done = 1;
        return out;
    default:
        break;
    }
    if (s->steps >= SIMDRL_MAX_STEPS) s->done = 1;
    out.done = s->done;
    return out;
}

// simdrl_env_run is env.Run: the program of n actions, actions[i*stride],
// stepped from simdrl_env_reset(rec) until the episode ends; its reward is
// the episode's return (the answer step's reward).
SIMDRL_HD simdrl_outcome simdrl_env_run(const int32_t *rec, const int32_t *actions, int stride, int n) {
    simdrl_env_state s = simdrl_env_reset(rec);
    simdrl_outcome o;
    o.reward = 0.0;
    o.answered = 0;
    for (int i = 0; i < n && !s.done; i++) {
        const int act = actions[i * stride];
        const simdrl_step st = simdrl_env_step(&s, act);
        o.reward = SIMDRL_DADD(o.reward, st.reward);
        if (act == SIMDRL_ANS) o.answered = 1;
    }
    o.steps = s.steps;
    o.correct = s.correct;
    return o;
}

#endif
