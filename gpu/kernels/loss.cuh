// loss.cuh: the loss weights of one episode (../../cpu/loss.go): the
// seed's loss (advantage R − Σ_t v_t) and the per-step baseline (advantage
// R − v_t) with the tokens after the episode's end optionally masked out. The
// episode's share of the loss terms is returned in float64; every mean is
// over the whole batch (batch episodes, T steps).
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

#endif
