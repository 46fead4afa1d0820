// gru.cuh: one GRU unit, forward and backward (../../kernels/gru_generic.go),
// PyTorch's gate order (r, z, n).
#ifndef SIMDRL_GRU_CUH
#define SIMDRL_GRU_CUH

#include "common.cuh"

SIMDRL_HD float simdrl_sigmoid(float x) { return 1.0f / (1.0f + expf(-x)); }

// gi* = W_ih·emb[token] + b_ih (the token table), gh* = W_hh·h + b_hh.
SIMDRL_HD float simdrl_gru_unit(float gir, float giz, float gin, float ghr, float ghz, float ghn, float hp, float *r, float *z, float *n) {
    *r = simdrl_sigmoid(gir + ghr);
    *z = simdrl_sigmoid(giz + ghz);
    *n = tanhf(gin + *r * ghn);
    return (1.0f - *z) * *n + *z * hp;
}

// Backward of one unit given dL/dh' (dh): dg[0..2] = dL/dgh (r, z, n),
// dt[0..2] = dL/dgi, and the direct part of dL/dh (dh·z) as the result.
SIMDRL_HD float simdrl_gru_unit_back(float r, float z, float n, float ghn, float hp, float dh, float dg[3], float dt[3]) {
    const float dn = dh * (1.0f - z);
    const float dz = dh * (hp - n);
    const float dan = dn * (1.0f - n * n);
    const float dar = dan * ghn * r * (1.0f - r);
    const float daz = dz * z * (1.0f - z);
    dg[0] = dar;
    dg[1] = daz;
    dg[2] = dan * r;
    dt[0] = dar;
    dt[1] = daz;
    dt[2] = dan;
    return dh * z;
}

#endif
