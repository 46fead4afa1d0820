// ppo.cuh: PPO's clipped surrogate (-estimator ppo), the CUDA twin of
// ../../internal/enginekit/ppo.go's PPOStep, and one stored episode's loss
// weights in a minibatch (cpu/ppo.go's weigh, one episode). The host keeps
// what needs the task's Env (rewards, terminated or truncated, GAE:
// gpu/ppo.go); the device weighs each minibatch's teacher-forced replay.
#ifndef SIMDRL_PPO_CUH
#define SIMDRL_PPO_CUH

#include "common.cuh"

typedef struct {
    double pg, dpg, vl, dv;
} simdrl_ppo_out;

// simdrl_ppo_step is one step's clipped surrogate pg and value loss vl and
// their derivatives by the new log-probability and the new value:
// pg = max(−A·r, −A·clip(r, 1−ε, 1+ε)), r = π/π_old; vl = ½(v − G)², or with
// clip_v ½·max((v − G)², (v_old + clip(v − v_old, −ε, ε) − G)²). Where max
// picks the clipped term and the clip binds, the derivative is 0.
SIMDRL_HD simdrl_ppo_out simdrl_ppo_step(double logp, double old_logp, double adv, double v, double old_v, double ret, double clip, int clip_v) {
    simdrl_ppo_out o;
    const double r = exp(logp - old_logp);
    const double un = -adv * r, cl = -adv * fmin(fmax(r, 1 - clip), 1 + clip);
    o.pg = fmax(un, cl);
    o.dpg = un >= cl ? -adv * r : 0.0;
    o.vl = 0.5 * (v - ret) * (v - ret);
    o.dv = v - ret;
    if (clip_v) {
        const double vc = old_v + fmin(fmax(v - old_v, -clip), clip);
        const double c = 0.5 * (vc - ret) * (vc - ret);
        if (c > o.vl) {
            o.vl = c;
            o.dv = fabs(v - old_v) <= clip ? vc - ret : 0.0; // the clamp passes v through
        }
    }
    return o;
}

// The sums a minibatch's steps add up (the host divides by the steps).
typedef struct {
    double pg, value, entropy, kl, clipped;
} simdrl_ppo_sums;

// simdrl_ppo_episode writes the loss weights of one stored episode replayed
// in a minibatch of stride s (its step t at t*s: the new logpa, val and ent
// in, dlogp, dent, dval out) from its stored steps (old_logp, old_val, adv,
// ret, at t) up to its end (0 after); adv is normalised as (adv − mean)·scale
// and every weight is divided by steps, the minibatch's steps.
SIMDRL_HD simdrl_ppo_sums simdrl_ppo_episode(int T, int s, const float *logpa, const float *val, const float *ent, const float *old_logp,
                                             const float *old_val, const float *adv, const float *ret, int end, double mean, double scale,
                                             double steps, double clip, int clip_v, double value_coef, double entropy_coef, float *dlogp,
                                             float *dent, float *dval) {
    simdrl_ppo_sums o;
    o.pg = 0;
    o.value = 0;
    o.entropy = 0;
    o.kl = 0;
    o.clipped = 0;
    for (int t = 0; t < T; t++) {
        const int i = t * s;
        if (t > end) {
            dlogp[i] = 0;
            dval[i] = 0;
            dent[i] = 0;
            continue;
        }
        const double logp = (double)logpa[i], old = (double)old_logp[t];
        const double a = ((double)adv[t] - mean) * scale;
        const simdrl_ppo_out x = simdrl_ppo_step(logp, old, a, (double)val[i], (double)old_val[t], (double)ret[t], clip, clip_v);
        o.pg += x.pg;
        o.value += x.vl;
        o.entropy += (double)ent[i];
        const double lr = logp - old, em1 = expm1(lr);
        o.kl += em1 - lr;
        if (fabs(em1) > clip) o.clipped += 1;
        dlogp[i] = (float)(x.dpg / steps);
        dval[i] = (float)(value_coef * x.dv / steps);
        dent[i] = (float)(-entropy_coef / steps);
    }
    return o;
}

#endif
