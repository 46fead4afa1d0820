// loss.cuh: the estimators, the CUDA twins of ../../internal/enginekit's pure
// functions. simdrl_episode_loss is the loss weights of one episode: the
// seed's loss (advantage R − Σ_t v_t) and the per-step baseline (advantage
// R − v_t) with the tokens after the episode's end optionally masked out;
// simdrl_group_loss those of groups of episodes that played one instance
// (rloo, grpo, drgrpo: ../../internal/enginekit/group_loss.go). The share of the loss terms is
// returned in float64; every mean is over the whole batch (batch episodes,
// T steps).
#ifndef SIMDRL_LOSS_CUH
#define SIMDRL_LOSS_CUH

#include "common.cuh"

typedef struct {
    double pg, value, entropy;
} simdrl_terms;

// Inputs per step t: logpa[t*s] (log π of the action taken), val[t*s],
// ent[t*s]; outputs dlogp, dent, dval at the same positions. last is the last
// step kept in the loss (T−1 unless masked; only the step baseline masks).
SIMDRL_HD simdrl_terms simdrl_episode_loss(int T, int s, const float *logpa, const float *val, const float *ent, float reward, int batch,
                                           double value_coef, double entropy_coef, int step_baseline, int last,
                                           float *dlogp, float *dent, float *dval) {
    const double B = (double)batch, R = (double)reward;
    simdrl_terms o;
    o.pg = 0;
    o.value = 0;
    o.entropy = 0;
    if (!step_baseline) {
        double vsum = 0, lpsum = 0, esum = 0;
        for (int t = 0; t < T; t++) {
            vsum += (double)val[t * s];
            lpsum += (double)logpa[t * s];
            esum += (double)ent[t * s];
        }
        const double adv = R - vsum;
        o.pg = -(lpsum * adv / B);
        o.value = (vsum - R) * (vsum - R) / B;
        o.entropy = -(esum / (B * (double)T));
        const float dl = (float)(-adv / B), dv = (float)(value_coef * 2 * (vsum - R) / B), de = (float)(-entropy_coef / (B * (double)T));
        for (int t = 0; t < T; t++) {
            dlogp[t * s] = dl;
            dval[t * s] = dv;
            dent[t * s] = de;
        }
        return o;
    }
    for (int t = 0; t < T; t++) {
        if (t > last) {
            dlogp[t * s] = 0;
            dval[t * s] = 0;
            dent[t * s] = 0;
            continue;
        }
        const double v = (double)val[t * s];
        const double adv = R - v;
        o.pg -= (double)logpa[t * s] * adv / B;
        o.value += (v - R) * (v - R) / B;
        o.entropy -= (double)ent[t * s] / (B * (double)T);
        dlogp[t * s] = (float)(-adv / B);
        dval[t * s] = (float)(value_coef * 2 * (v - R) / B);
        dent[t * s] = (float)(-entropy_coef / (B * (double)T));
    }
    return o;
}

// The estimators (trainer.Config.Estimator and Baseline), as the rollout's
// and simdrl_estimate's estimator parameter numbers them.
#define SIMDRL_EST_SUM 0
#define SIMDRL_EST_STEP 1
#define SIMDRL_EST_RLOO 2
#define SIMDRL_EST_GRPO 3
#define SIMDRL_EST_DRGRPO 4

// simdrl_group_is reports whether estimator compares the episodes of a group.
SIMDRL_HD int simdrl_group_is(int estimator) { return estimator >= SIMDRL_EST_RLOO; }

// SIMDRL_GRPO_EPS keeps GRPO's advantage finite in a group whose
// returns are all equal (enginekit.GRPOEpsilon).
#define SIMDRL_GRPO_EPS 1e-6

// simdrl_group_advantage is the advantage of return R in a group of K
// returns of mean mean and sample standard deviation std (enginekit's
// RLOOAdvantage, GRPOAdvantage, DrGRPOAdvantage).
SIMDRL_HD double simdrl_group_advantage(int estimator, double R, int K, double mean, double sd) {
    if (estimator == SIMDRL_EST_RLOO) return (double)K / (double)(K - 1) * (R - mean); // R − the mean of the other K − 1
    if (estimator == SIMDRL_EST_GRPO) return (R - mean) / (sd + SIMDRL_GRPO_EPS);
    return R - mean;
}

// simdrl_group_flat reports whether the K returns of a group are all equal,
// bit for bit as float32 (enginekit.Flat): its advantages are 0 and it
// teaches the policy nothing (Diagnostics.FlatGroups).
SIMDRL_HD int simdrl_group_flat(const float *returns, int K) {
    for (int b = 1; b < K; b++)
        if (returns[b] != returns[0]) return 0;
    return 1;
}

// simdrl_group_loss is enginekit's groupLoss with estimator's advantage:
// the n episodes (a multiple of group) of T steps at stride s (step t of
// episode b at t*s + b): logpa, val, ent per step, returns and end (the
// step that ended it, or T−1) per episode; out the weights dlogp, dent,
// dval. Consecutive episodes of group played one instance; each episode's
// kept steps (up to its end when mask) weigh its log-probability by
// −A_b/B (grpo: −A_b/(B·L_b), L_b its kept steps), its value by the step
// baseline's regression on the return (the value head is not the baseline
// here: the GPU's tasks pay at the end, so the return-to-go the CPU reads
// is the return at every kept step), its entropy as the other estimators.
SIMDRL_HD simdrl_terms simdrl_group_loss(int estimator, int n, int T, int s, const float *logpa, const float *val, const float *ent, const float *returns,
                                         const int32_t *end, int group, int batch, double value_coef, double entropy_coef, int mask, float *dlogp,
                                         float *dent, float *dval) {
    const double B = (double)batch;
    const float de = (float)(-entropy_coef / (B * (double)T));
    const int K = group;
    simdrl_terms o;
    o.pg = 0;
    o.value = 0;
    o.entropy = 0;
    for (int g = 0; g < n; g += K) {
        // The mean as the first return plus the mean deviation from it, so that
        // a group of equal returns has exactly their mean and advantages 0.
        const double first = (double)returns[g];
        double dev = 0;
        for (int b = g; b < g + K; b++) dev += (double)returns[b] - first;
        const double mean = first + dev / (double)K;
        double ss = 0;
        for (int b = g; b < g + K; b++) {
            const double x = (double)returns[b] - mean;
            ss += x * x;
        }
        const double sd = sqrt(ss / (double)(K - 1));
        for (int b = g; b < g + K; b++) {
            const int last = mask ? end[b] : T - 1;
            const double R = (double)returns[b];
            double w = simdrl_group_advantage(estimator, R, K, mean, sd) / B;
            if (estimator == SIMDRL_EST_GRPO) w /= (double)(last + 1);
            for (int t = 0; t < T; t++) {
                const int i = t * s + b;
                if (t > last) {
                    dlogp[i] = 0;
                    dval[i] = 0;
                    dent[i] = 0;
                    continue;
                }
                const double v = (double)val[i];
                o.pg -= (double)logpa[i] * w;
                o.value += (v - R) * (v - R) / B;
                o.entropy -= (double)ent[i] / (B * (double)T);
                dlogp[i] = (float)(-w);
                dval[i] = (float)(value_coef * 2 * (v - R) / B);
                dent[i] = de;
            }
        }
    }
    return o;
}

#endif
