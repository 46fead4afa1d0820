// policy.cuh: the policy head of ../../kernels/policy*.go for one row:
// log-softmax and the seed's entropy, its backward, inverse-CDF sampling and
// argmax. One thread handles one row, in the CPU's order of summation.
#ifndef SIMDRL_POLICY_CUH
#define SIMDRL_POLICY_CUH

#include "common.cuh"

#define SIMDRL_ENTROPY_EPS 1e-9f

// simdrl_policy_row writes logp[j] = log-softmax(x)[j] for j < V and returns
// −Σ p·log(p + 1e-9) with p = exp(logp) (kernels.PolicyForward).
SIMDRL_HD float simdrl_policy_row(const float *x, int V, float *logp) {
    float mx = x[0];
    for (int j = 1; j < V; j++) mx = x[j] > mx ? x[j] : mx;
    float sum = 0.0f;
    for (int j = 0; j < V; j++) sum += expf(x[j] - mx);
    const float lse = mx + logf(sum);
    float e = 0.0f;
    for (int j = 0; j < V; j++) {
        const float l = x[j] - lse;
        logp[j] = l;
        const float p = expf(l);
        e -= p * logf(p + SIMDRL_ENTROPY_EPS);
    }
    return e;
}

// kernels.SampleRows for one row: the first column whose running sum of
// p = exp(logp) exceeds u, else the last column with p > 0.
SIMDRL_HD int simdrl_sample_row(const float *logp, int V, float u) {
    float cum = 0.0f;
    int last_positive = 0;
    for (int j = 0; j < V; j++) {
        const float p = expf(logp[j]);
        if (p > 0.0f) last_positive = j;
        cum += p;
        if (u < cum) return j;
    }
    return last_positive;
}

// kernels.ArgmaxRows for one row: the first largest.
SIMDRL_HD int simdrl_argmax_row(const float *x, int V) {
    int best = 0;
    for (int j = 1; j < V; j++)
        if (x[j] > x[best]) best = j;
    return best;
}

// The entropy's derivative term g_j = −(log(p_j+ε) + p_j/(p_j+ε)).
SIMDRL_HD float simdrl_entropy_g(float p) { return -(logf(p + SIMDRL_ENTROPY_EPS) + p / (p + SIMDRL_ENTROPY_EPS)); }

// dL/dlogit_j given p_j, g_j, pg = Σ p·g over the row, the weights dl on
// log p(action) and de on the entropy (kernels.PolicyBackward).
SIMDRL_HD float simdrl_policy_dlogit(float p, float g, float pg, float dl, float de, int is_action) {
    float x = de * p * (g - pg) - dl * p;
    if (is_action) x += dl;
    return x;
}

#endif
