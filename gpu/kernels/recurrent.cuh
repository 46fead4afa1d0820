// recurrent.cuh: the two W_hh products every GRU step runs, one thread per
// hidden unit j and EPT episodes, shared by the policy steps and the
// reading steps (rollout.cu, backward.cu). CUDA only (float4, templates):
// devfn compiles gru.cuh as C, not this.
#ifndef SIMDRL_RECURRENT_CUH
#define SIMDRL_RECURRENT_CUH

// simdrl_gate_product: ar/az/an[i] = Σ_k h[i][k]·W_hhᵀ[k][j] for the r, z, n
// gates, k = 0, 1, … in order; the hidden values come four at a time (one
// broadcast 16-byte load per episode; hrow rows dS apart), W (W_hhᵀ, G3
// wide) one float per row.
template <int EPT>
__device__ __forceinline__ void simdrl_gate_product(const float *hrow, int dS, const float *W, int G3, int d, int d4, int j,
                                                    float ar[EPT], float az[EPT], float an[EPT]) {
#pragma unroll
    for (int i = 0; i < EPT; i++) ar[i] = az[i] = an[i] = 0.0f;
    for (int k = 0; k < d4; k += 4) {
        float4 hv[EPT];
#pragma unroll
        for (int i = 0; i < EPT; i++) hv[i] = *(const float4 *)(hrow + i * dS + k);
#pragma unroll
        for (int q = 0; q < 4; q++) {
            const float *wk = W + (k + q) * G3;
            const float wr = wk[j], wz = wk[d + j], wn = wk[2 * d + j];
#pragma unroll
            for (int i = 0; i < EPT; i++) {
                const float hvq = q == 0 ? hv[i].x : q == 1 ? hv[i].y : q == 2 ? hv[i].z : hv[i].w;
                ar[i] += hvq * wr;
                az[i] += hvq * wz;
                an[i] += hvq * wn;
            }
        }
    }
    for (int k = d4; k < d; k++) {
        const float *wk = W + k * G3;
        const float wr = wk[j], wz = wk[d + j], wn = wk[2 * d + j];
#pragma unroll
        for (int i = 0; i < EPT; i++) {
            const float hvk = hrow[i * dS + k];
            ar[i] += hvk * wr;
            az[i] += hvk * wz;
            an[i] += hvk * wn;
        }
    }
}

// simdrl_dh_product: acc[i] += Σ_g dgh[i][g]·W_hh[g][j], g = 0, 1, … in
// order; dgh comes four rows at a time (one broadcast 16-byte load per
// episode; drow rows G3S apart), W (W_hh, d wide) one float per row.
template <int EPT>
__device__ __forceinline__ void simdrl_dh_product(const float *drow, int G3S, const float *W, int G3, int g4, int d, int j,
                                                  float acc[EPT]) {
    for (int g = 0; g < g4; g += 4) {
        const float w0 = W[g * d + j], w1 = W[(g + 1) * d + j], w2 = W[(g + 2) * d + j], w3 = W[(g + 3) * d + j];
#pragma unroll
        for (int i = 0; i < EPT; i++) {
            const float4 dg4 = *(const float4 *)(drow + i * G3S + g);
            acc[i] += dg4.x * w0;
            acc[i] += dg4.y * w1;
            acc[i] += dg4.z * w2;
            acc[i] += dg4.w * w3;
        }
    }
    for (int g = g4; g < G3; g++) {
        const float w = W[g * d + j];
#pragma unroll
        for (int i = 0; i < EPT; i++) acc[i] += drow[i * G3S + g] * w;
    }
}

#endif
