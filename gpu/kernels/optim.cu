// optim.cu: the gradient norm (float64, in a fixed order), the update's
// closing reduction, and Adam with clip_grad_norm_'s scale folded in
// (cpu/adam.go, kernels/adam_generic.go).
#include "args.cuh"
#include "common.cuh"

// Block i sums g² over elements i·256+tid + k·gridDim·256 in float64, then a
// fixed tree: part[i].
extern "C" __global__ void __launch_bounds__(256) simdrl_sumsq_partial(SIMDRL_SUMSQ_PARTIAL_PARAMS) {
    __shared__ double red[256];
    const int tid = threadIdx.x;
    double s = 0.0;
    for (long i = (long)blockIdx.x * 256 + tid; i < n; i += (long)gridDim.x * 256) {
        const double x = (double)g[i];
        s += x * x;
    }
    red[tid] = s;
    __syncthreads();
    for (int w = 128; w > 0; w >>= 1) {
        if (tid < w) red[tid] += red[tid + w];
        __syncthreads();
    }
    if (tid == 0) part[blockIdx.x] = red[0];
}

// simdrl_finish (one block of 256): sums the rollout's per-block statistics
// and the squared-gradient partials in a fixed order and writes fin[]
// (SIMDRL_FIN_*): the totals, the gradient norm, the clip scale as
// clip_grad_norm_ computes it, and whether the loss and norm are finite (Adam
// skips the step otherwise, leaving the parameters as they were). extra_loss
// is what the loss adds beyond the batch's terms (the replayed programs'
// weighted negative log-likelihood, computed on the host; 0 without).
extern "C" __global__ void __launch_bounds__(256) simdrl_finish(SIMDRL_FINISH_PARAMS) {
    __shared__ double red[256];
    const int tid = threadIdx.x;
    for (int q = 0; q <= SIMDRL_NSTATS; q++) {
        double s = 0.0;
        if (q < SIMDRL_NSTATS) {
            for (int i = tid; i < nblocks; i += 256) s += stats[(size_t)i * SIMDRL_NSTATS + q];
        } else {
            for (int i = tid; i < nsq; i += 256) s += sq[i];
        }
        red[tid] = s;
        __syncthreads();
        for (int w = 128; w > 0; w >>= 1) {
            if (tid < w) red[tid] += red[tid + w];
            __syncthreads();
        }
        if (tid == 0) fin[q] = red[0]; // q == SIMDRL_NSTATS is SIMDRL_FIN_SUMSQ
        __syncthreads();
    }
    if (tid == 0) {
        const double norm = sqrt(fin[SIMDRL_FIN_SUMSQ]);
        const double c = clip / (norm + 1e-6);
        const double total = fin[SIMDRL_FIN_PG] + value_coef * fin[SIMDRL_FIN_VALUE] + entropy_coef * fin[SIMDRL_FIN_ENTROPY] + extra_loss;
        fin[SIMDRL_FIN_NORM] = norm;
        fin[SIMDRL_FIN_SCALE] = c < 1.0 ? (double)(float)c : 1.0;
        fin[SIMDRL_FIN_OK] = (isfinite(total) && isfinite(norm)) ? 1.0 : 0.0;
    }
}

// simdrl_adam: torch.optim.Adam's step on every element (kernels.Adam), the
// gradient scaled by fin[SIMDRL_FIN_SCALE]; nothing when fin[SIMDRL_FIN_OK] is 0.
extern "C" __global__ void simdrl_adam(SIMDRL_ADAM_PARAMS) {
    if (fin[SIMDRL_FIN_OK] == 0.0) return;
    const float scale = (float)fin[SIMDRL_FIN_SCALE];
    for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
        const float gi = g[i] * scale;
        const float mi = beta1 * m[i] + (1.0f - beta1) * gi;
        const float vi = beta2 * v[i] + (1.0f - beta2) * gi * gi;
        const float denom = sqrtf(vi) / bc2_sqrt + eps;
        p[i] -= step_size * mi / denom;
        m[i] = mi;
        v[i] = vi;
    }
}

// simdrl_add: y += x over n elements (the replayed rows' gradient, summed
// over the replay's parts and then added to the batch's).
extern "C" __global__ void simdrl_add(SIMDRL_ADD_PARAMS) {
    for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) y[i] += x[i];
}
