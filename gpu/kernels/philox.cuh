// philox.cuh: the counter-based random numbers of ../../rng, bit for bit:
// Philox4x32-10, Key.Block, Below, Uniform, env.DrawTask and the trainer's
// level draw for the mixed curriculum.
#ifndef SIMDRL_PHILOX_CUH
#define SIMDRL_PHILOX_CUH

#include "common.cuh"

// rng.Purpose values.
#define SIMDRL_PURPOSE_TASK 1u
#define SIMDRL_PURPOSE_ACTION 2u
#define SIMDRL_PURPOSE_LEVEL 3u
#define SIMDRL_PURPOSE_EVAL 4u

// trainer/rounds.go's EvalPurpose: PurposeEval + level<<8.
SIMDRL_HD uint32_t simdrl_eval_purpose(int level) { return SIMDRL_PURPOSE_EVAL + ((uint32_t)level << 8); }

// rng.Philox4x32: ten rounds on counter c under key (k0, k1).
SIMDRL_HD void simdrl_philox(uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3, uint32_t k0, uint32_t k1, uint32_t out[4]) {
    for (int i = 0; i < 10; i++) {
        uint64_t p0 = (uint64_t)0xD2511F53u * c0;
        uint64_t p1 = (uint64_t)0xCD9E8D57u * c2;
        uint32_t hi0 = (uint32_t)(p0 >> 32), lo0 = (uint32_t)p0;
        uint32_t hi1 = (uint32_t)(p1 >> 32), lo1 = (uint32_t)p1;
        uint32_t n0 = hi1 ^ c1 ^ k0, n2 = hi0 ^ c3 ^ k1;
        c0 = n0;
        c1 = lo1;
        c2 = n2;
        c3 = lo0;
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
    out[0] = c0;
    out[1] = c1;
    out[2] = c2;
    out[3] = c3;
}

// rng.Key.Block: four words for (round, episode, step, purpose).
SIMDRL_HD void simdrl_block(uint32_t k0, uint32_t k1, uint32_t round, uint32_t episode, uint32_t step, uint32_t purpose, uint32_t out[4]) {
    simdrl_philox(round, episode, step, purpose, k0, k1, out);
}

// rng.Below: [0, n) by a 32×32→64 multiply.
SIMDRL_HD uint32_t simdrl_below(uint32_t w, uint32_t n) { return (uint32_t)(((uint64_t)w * n) >> 32); }

// rng.Key.Uniform: (w0>>8)·2^-24, a float32 in [0, 1).
SIMDRL_HD float simdrl_uniform(uint32_t k0, uint32_t k1, uint32_t round, uint32_t episode, uint32_t step, uint32_t purpose) {
    uint32_t w[4];
    simdrl_block(k0, k1, round, episode, step, purpose, w);
    return (float)(w[0] >> 8) * (1.0f / 16777216.0f);
}

// env.DrawTask as task.FromEnv stores it: the seed task's instance of level
// (the five digits, the context length, the budget and the rewarded target;
// every other word zero).
SIMDRL_HD void simdrl_draw_task(uint32_t k0, uint32_t k1, uint32_t round, uint32_t episode, uint32_t purpose, int level, int32_t rec[SIMDRL_TASK_WORDS]) {
    uint32_t w0[4], w1[4];
    simdrl_block(k0, k1, round, episode, 0, purpose, w0);
    simdrl_block(k0, k1, round, episode, 1, purpose, w1);
    for (int q = 0; q < SIMDRL_TASK_WORDS; q++) rec[q] = 0;
    int32_t *dg = rec + SIMDRL_REC_DIGITS;
    dg[0] = (int32_t)simdrl_below(w0[0], 10);
    dg[1] = (int32_t)simdrl_below(w0[1], 10);
    dg[2] = (int32_t)simdrl_below(w0[2], 10);
    dg[3] = (int32_t)simdrl_below(w0[3], 10);
    dg[4] = (int32_t)simdrl_below(w1[0], 10);
    rec[SIMDRL_REC_LEVEL] = level;
    rec[SIMDRL_REC_VARS] = 3 + level; // env.ContextLen
    rec[SIMDRL_REC_BUDGET] = SIMDRL_MAX_STEPS;
    const int64_t ab = (int64_t)dg[0] * dg[1]; // env.Task.RewardedTarget
    simdrl_rec_set_i64(rec, SIMDRL_REC_TARGET, level == 0 ? ab : level == 1 ? ab + dg[2] : ab + dg[2] - dg[3]);
}

// Trainer.drawLevel: the mixed curriculum's level of one episode. mix packs
// the unlocked levels in ascending order one per byte; cdf0 and cdf1 are the
// cumulative weights of the first two (the last level takes the rest).
SIMDRL_HD int simdrl_draw_level(uint32_t k0, uint32_t k1, uint32_t round, uint32_t episode, int mix, int unlocked, double cdf0, double cdf1) {
    uint32_t w[4];
    simdrl_block(k0, k1, round, episode, 0, SIMDRL_PURPOSE_LEVEL, w);
    double u = (double)w[0] / 4294967296.0;
    for (int i = 0; i < unlocked - 1; i++) {
        double c = i == 0 ? cdf0 : cdf1;
        if (u < c) return (mix >> (8 * i)) & 0xff;
    }
    return (mix >> (8 * (unlocked - 1))) & 0xff;
}

#endif
