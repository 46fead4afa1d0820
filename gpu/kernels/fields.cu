// fields.cu: observation fields and the float vector (gru/fields.go) for a
// task whose game the host steps (gpu/hoststep.go, gpu/fields.go). The input
// at a step is emb[a] + Σ_f field_emb.f[o_f] + vec.weight·v + vec.bias; the
// table keeps V token rows (emb·W_ihᵀ + b_ih + W_ih·vec.bias) then FR = Σ O_f
// field rows (field_emb·W_ihᵀ), and vecM = W_ih·vec.weight (3d×F) multiplies
// the vector. A step's input gates are its token row, its fields' rows and
// vecM·v (simdrl_field_gates), which simdrl_host_step reads as a table of
// one row per episode; the backward spreads the gates' gradient over the
// same rows (simdrl_field_partial, simdrl_vec_grad) and carries it to the
// parameters as gru.TableGradient.applyFields does (simdrl_field_grads).
// Field offsets: offs[f] is field f's first row among the FR field rows,
// offs[nf] = FR; a field value is clamped into its field (the host refused a
// bad one first: task.CheckFields).
#include "args.cuh"
#include "common.cuh"

// simdrl_field_row is the field row (0..FR−1) of value o of field f.
__device__ __forceinline__ int simdrl_field_row(const int32_t *offs, int f, int o) {
    return offs[f] + simdrl_clamp(o, 0, offs[f + 1] - offs[f] - 1);
}

// simdrl_derive_fields writes what simdrl_derive does not for a fielded
// layout (gru.Derived.computeFields), after it: with a vector (F > 0) the V
// token rows again with W_ih·vec.bias folded into their bias, vecM; always
// the FR field rows after the tokens'. fe, vw, vb: the offsets of
// field_emb (FR×d), vec.weight (d×F) and vec.bias (d) in P.
extern "C" __global__ void simdrl_derive_fields(SIMDRL_DERIVE_FIELDS_PARAMS) {
    const simdrl_layout L = simdrl_layout_of(V, d, S);
    const int G3 = 3 * d;
    const long nTok = F > 0 ? (long)V * G3 : 0, nField = (long)FR * G3, nM = (long)G3 * F, total = nTok + nField + nM;
    for (long q = (long)blockIdx.x * blockDim.x + threadIdx.x; q < total; q += (long)gridDim.x * blockDim.x) {
        long k = q;
        if (k < nTok) {
            const int v = (int)(k / G3), g = (int)(k % G3);
            const float *w = P + L.wih + (long)g * d, *e = P + L.emb + (long)v * d;
            float b = 0.0f, s = 0.0f;
            for (int c = 0; c < d; c++) b += P[vb + c] * w[c];
            for (int c = 0; c < d; c++) s += e[c] * w[c];
            table[k] = (P[L.bih + g] + b) + s;
            continue;
        }
        k -= nTok;
        if (k < nField) {
            const int r = (int)(k / G3), g = (int)(k % G3);
            const float *w = P + L.wih + (long)g * d, *e = P + fe + (long)r * d;
            float s = 0.0f;
            for (int c = 0; c < d; c++) s += e[c] * w[c];
            table[(long)V * G3 + k] = s;
            continue;
        }
        k -= nField;
        const int g = (int)(k / F), f = (int)(k % F);
        const float *w = P + L.wih + (long)g * d;
        float s = 0.0f;
        for (int c = 0; c < d; c++) s += w[c] * P[vw + (long)c * F + f];
        vecM[k] = s;
    }
}

// simdrl_field_gates writes the input gates of B episodes at one step
// (gru.Workspace.inputGates): gates[b] = table[in_rows[b]] + Σ_f
// table[V + field row of fields[b·nf + f]] + vecM·vec[b·F…], 3d each.
extern "C" __global__ void simdrl_field_gates(SIMDRL_FIELD_GATES_PARAMS) {
    const int G3 = 3 * d;
    const long total = (long)B * G3;
    for (long q = (long)blockIdx.x * blockDim.x + threadIdx.x; q < total; q += (long)gridDim.x * blockDim.x) {
        const int b = (int)(q / G3), g = (int)(q % G3);
        float s = table[(long)simdrl_clamp(in_rows[b], 0, V - 1) * G3 + g];
        for (int f = 0; f < nf; f++) s += table[(long)(V + simdrl_field_row(offs, f, fields[(long)b * nf + f])) * G3 + g];
        float m = 0.0f;
        for (int k = 0; k < F; k++) m += vecM[(long)g * F + k] * vec[(long)b * F + k];
        gates[q] = s + m;
    }
}

// simdrl_dgi is row r's gradient of its input gates, column g: dgh for the
// r and z columns, dgin (the n gate's before the reset gate) for n.
__device__ __forceinline__ float simdrl_dgi(const float *dgh, const float *dgin, long r, int G3, int g) {
    const int d = G3 / 3;
    return g < 2 * d ? dgh[r * G3 + g] : dgin[r * d + g - 2 * d];
}

// simdrl_field_partial: per slab s of rows r (= t·B + b), the gradient of
// the field rows, part[s][row][g] = Σ over the slab's rows of dgi[r][g] for
// each of their fields' rows (simdrl_token_partial's twin for the fields).
// One thread per column g accumulates in its column of part, in row order.
// Grid: (ceil(G3/blockDim.x), slabs).
extern "C" __global__ void simdrl_field_partial(SIMDRL_FIELD_PARTIAL_PARAMS) {
    const int g = blockIdx.x * blockDim.x + threadIdx.x, s = blockIdx.y;
    if (g >= G3) return;
    const int r0 = s * slab, r1 = min(R, r0 + slab);
    float *acc = part + (size_t)s * FR * G3 + g;
    for (int k = 0; k < FR; k++) acc[(size_t)k * G3] = 0.0f;
    for (int r = r0; r < r1; r++) {
        const float x = simdrl_dgi(dgh, dgin, r, G3, g);
        for (int f = 0; f < nf; f++) acc[(size_t)simdrl_field_row(offs, f, fields[(size_t)r * nf + f]) * G3] += x;
    }
}

// simdrl_vec_grad writes dM = Σ_r dgi[r]·vec[r]ᵀ (3d×F, summed in row
// order): the gradient of vecM = W_ih·vec.weight.
extern "C" __global__ void simdrl_vec_grad(SIMDRL_VEC_GRAD_PARAMS) {
    const long total = (long)G3 * F;
    for (long q = (long)blockIdx.x * blockDim.x + threadIdx.x; q < total; q += (long)gridDim.x * blockDim.x) {
        const int g = (int)(q / F), k = (int)(q % F);
        float s = 0.0f;
        for (int r = 0; r < R; r++) s += simdrl_dgi(dgh, dgin, r, G3, g) * vec[(size_t)r * F + k];
        dM[q] = s;
    }
}

// simdrl_field_grads carries the field rows' gradient dF (FR×3d) and dM to
// the parameters after simdrl_input_grads (gru.TableGradient.applyFields):
// dW_ih += dFᵀ·field_emb + dc·vec.biasᵀ + dM·vec.weightᵀ, dfield_emb =
// dF·W_ih, dvec.bias = dc·W_ih, dvec.weight = W_ihᵀ·dM, where dc = Σ_v dT[v]
// (every step's gates hold one token row, so W_ih·vec.bias has the token
// rows' column sums as its gradient).
extern "C" __global__ void simdrl_field_grads(SIMDRL_FIELD_GRADS_PARAMS) {
    const simdrl_layout L = simdrl_layout_of(V, d, S);
    const int G3 = 3 * d;
    const long nW = (long)G3 * d, nE = (long)FR * d, nB = F > 0 ? d : 0, nVW = (long)d * F, total = nW + nE + nB + nVW;
    for (long q = (long)blockIdx.x * blockDim.x + threadIdx.x; q < total; q += (long)gridDim.x * blockDim.x) {
        long k = q;
        if (k < nW) {
            const int g = (int)(k / d), c = (int)(k % d);
            float s = 0.0f;
            for (int r = 0; r < FR; r++) s += dF[(long)r * G3 + g] * P[fe + (long)r * d + c];
            if (F > 0) {
                float dc = 0.0f;
                for (int v = 0; v < V; v++) dc += dT[(long)v * G3 + g];
                s += dc * P[vb + c];
                for (int f = 0; f < F; f++) s += dM[(long)g * F + f] * P[vw + (long)c * F + f];
            }
            grad[L.wih + k] += s;
            continue;
        }
        k -= nW;
        if (k < nE) {
            const int r = (int)(k / d), c = (int)(k % d);
            float s = 0.0f;
            for (int g = 0; g < G3; g++) s += dF[(long)r * G3 + g] * P[L.wih + (long)g * d + c];
            grad[fe + k] = s;
            continue;
        }
        k -= nE;
        if (k < nB) {
            const int c = (int)k;
            float s = 0.0f;
            for (int g = 0; g < G3; g++) {
                float dc = 0.0f;
                for (int v = 0; v < V; v++) dc += dT[(long)v * G3 + g];
                s += dc * P[L.wih + (long)g * d + c];
            }
            grad[vb + c] = s;
            continue;
        }
        k -= nB;
        const int c = (int)(k / F), f = (int)(k % F);
        float s = 0.0f;
        for (int g = 0; g < G3; g++) s += P[L.wih + (long)g * d + c] * dM[(long)g * F + f];
        grad[vw + k] = s;
    }
}
