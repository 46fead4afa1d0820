// ppo.cu: PPO's loss weights on the device (-estimator ppo, gpu/ppo.go).
#include "args.cuh"
#include "common.cuh"
#include "ppo.cuh"

// simdrl_ppo_weights writes the loss weights of a minibatch of S stored
// episodes just replayed teacher-forced (logpa, val, ent: T×S, step t of
// row i at t*S + i): one thread a row, simdrl_ppo_episode over row i's
// episode mb[i] of the stored rollout (old_logp, old_val, adv, ret: B×T,
// episode-major; end: B), and each block's sums (simdrl_ppo_sums, 5
// doubles) in sums, added in thread order.
#define SIMDRL_PPO_THREADS 64
#define SIMDRL_PPO_SUMS 5
extern "C" __global__ void __launch_bounds__(SIMDRL_PPO_THREADS) simdrl_ppo_weights(SIMDRL_PPO_WEIGHTS_PARAMS) {
    __shared__ double sSums[SIMDRL_PPO_THREADS * SIMDRL_PPO_SUMS];
    const int x = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
    simdrl_ppo_sums o;
    o.pg = 0;
    o.value = 0;
    o.entropy = 0;
    o.kl = 0;
    o.clipped = 0;
    if (i < S) {
        const size_t e = (size_t)mb[i];
        o = simdrl_ppo_episode(T, S, logpa + i, val + i, ent + i, old_logp + e * T, old_val + e * T, adv + e * T, ret + e * T, end[e], adv_mean,
                               adv_scale, steps, clip, clip_v, value_coef, entropy_coef, dlogp + i, dent + i, dval + i);
    }
    double *m = sSums + x * SIMDRL_PPO_SUMS;
    m[0] = o.pg;
    m[1] = o.value;
    m[2] = o.entropy;
    m[3] = o.kl;
    m[4] = o.clipped;
    __syncthreads();
    if (x < SIMDRL_PPO_SUMS) {
        double s = 0.0;
        for (int j = 0; j < (int)blockDim.x; j++) s += sSums[j * SIMDRL_PPO_SUMS + x];
        sums[(size_t)blockIdx.x * SIMDRL_PPO_SUMS + x] = s;
    }
}
