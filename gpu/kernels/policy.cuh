// policy.cuh: the policy head of ../../kernels/policy*.go for one row:
// log-softmax and the seed's entropy, its backward, inverse-CDF sampling and
// argmax. One thread handles one row, in the CPU's order of summation.
#ifndef SIMDRL_POLICY_CUH
#define SIMDRL_POLICY_CUH

#include "common.cuh"

#define SIMDRL_ENTROPY_EPS 1e-9f

// The forward of one row of logits x[0..V) (kernels.PolicyForward) in
// phases, so that a block can run the exponentials and logarithms of many
// rows in parallel and keep only the running sums, in the CPU's order, one
// thread per row:
//   mx = simdrl_row_max(x);  ex[j] = simdrl_shifted_exp(x[j], mx);
//   lse = simdrl_row_lse(mx, ex);  (logp[j], p[j], term[j]) = simdrl_policy_col(x[j], lse);
//   entropy = simdrl_row_entropy(term)  (= −Σ p·log(p + 1e-9), the seed's).
SIMDRL_HD float simdrl_row_max(const float *x, int V) {
    float mx = x[0];
    for (int j = 1; j < V; j++) mx = x[j] > mx ? x[j] : mx;
    return mx;
}

SIMDRL_HD float simdrl_shifted_exp(float x, float mx) { return expf(x - mx); }

SIMDRL_HD float simdrl_row_lse(float mx, const float *ex, int V) {
    float sum = 0.0f;
    for (int j = 0; j < V; j++) sum += ex[j];
    return mx + logf(sum);
}

typedef struct {
    float logp, p, term; // log p, p, and the entropy term p·log(p + 1e-9)
} simdrl_col;

SIMDRL_HD simdrl_col simdrl_policy_col(float x, float lse) {
    simdrl_col c;
    c.logp = x - lse;
    c.p = expf(c.logp);
    c.term = c.p * logf(c.p + SIMDRL_ENTROPY_EPS);
    return c;
}

SIMDRL_HD float simdrl_row_entropy(const float *term, int V) {
    float e = 0.0f;
    for (int j = 0; j < V; j++) e -= term[j];
    return e;
}

// kernels.SampleRows for one row of probabilities p (exp of the row's
// log-probabilities): the first column whose running sum exceeds u, else the
// last column with p > 0.
SIMDRL_HD int simdrl_sample_probs(const float *p, int V, float u) {
    float cum = 0.0f;
    int last_positive = 0;
    for (int j = 0; j < V; j++) {
        if (p[j] > 0.0f) last_positive = j;
        cum += p[j];
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
