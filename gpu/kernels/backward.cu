// backward.cu: backpropagation through time and the weight gradients
// (gru/backward.go). simdrl_backward walks a tile of episodes from step T−1
// to 0 with dL/dh in shared memory and writes the per-row gradients (dlogits
// and value, dL/dgh, dL/dh0); the weight gradients are then reductions over
// all T·B rows, each in two deterministic stages (per-slab partial sums, then
// the slabs summed in order), so the result does not depend on scheduling.
#include "args.cuh"
#include "gru.cuh"
#include "policy.cuh"
#include "recurrent.cuh"

// Writes dheads T×B×(V+1) (dL/dlogits, then dL/dvalue), dgh T×B×3d (dL/d(W_hh·h
// + b_hh)), dgin T×B×d (dL/d of the token table's n rows: dgh's n part
// before the reset gate r multiplied it, so not derivable from dgh) and dh0g
// B×d (dL/d(pre-tanh of h0)). Thread layout as the rollout.
// unread_context propagates dL/dh (in sDh) back through the R reading steps
// (gru.Workspace.Backward's unread), leaving dL/dh0 in sDh: no loss at them;
// a row still waiting at step r (before its first token) passes dh through
// unchanged and gets zero dgh and dgin, so that it adds nothing to W_hh or
// the token table. Steps where every row of the tile waits only write the
// zeros.
template <int EPT>
__device__ __forceinline__ void unread_context(int R, int B, int d, const int32_t *__restrict__ tasks, const float *W, const float *__restrict__ h,
                                               const float *__restrict__ act, const float *__restrict__ ghn, float *dgh, float *dgin, float *&sDh,
                                               float *&sDhp, float *sDgh, int b0, int nE, int tid, int nthr) {
    const int G3 = 3 * d, G3S = simdrl_stride4(G3), g4 = G3 & ~3;
    const int j = threadIdx.x, y = threadIdx.y;
    int most = 0;
    // (Not unrolled: unrolled, it took the EPT 1 kernel from 72 to 95 registers.)
#pragma unroll 1
    for (int e = 0; e < nE; e++) most = max(most, simdrl_rec_ctx_len(tasks + (size_t)(b0 + e) * SIMDRL_TASK_WORDS));
    for (int r = R - 1; r >= 0; r--) {
        if (r < R - most) {
            for (int i = tid; i < nE * G3; i += nthr) dgh[((size_t)r * B + b0) * G3 + i] = 0.0f;
            for (int i = tid; i < nE * d; i += nthr) dgin[((size_t)r * B + b0) * d + i] = 0.0f;
            continue;
        }
        if (j < d) {
#pragma unroll
            for (int i = 0; i < EPT; i++) {
                const int e = y * EPT + i;
                float dg[3] = {0.0f, 0.0f, 0.0f}, dt[3] = {0.0f, 0.0f, 0.0f};
                float dhp = 0.0f;
                if (e < nE) {
                    const size_t row = (size_t)r * B + b0 + e;
                    const float dh = sDh[e * d + j];
                    dhp = dh;
                    if (r >= R - simdrl_rec_ctx_len(tasks + (size_t)(b0 + e) * SIMDRL_TASK_WORDS)) {
                        const float *a = act + row * G3;
                        dhp = simdrl_gru_unit_back(a[j], a[d + j], a[2 * d + j], ghn[row * d + j], h[row * d + j], dh, dg, dt);
                    }
                    float *o = dgh + row * G3;
                    o[j] = dg[0];
                    o[d + j] = dg[1];
                    o[2 * d + j] = dg[2];
                    dgin[row * d + j] = dt[2];
                }
                sDgh[e * G3S + j] = dg[0];
                sDgh[e * G3S + d + j] = dg[1];
                sDgh[e * G3S + 2 * d + j] = dg[2];
                sDhp[e * d + j] = dhp;
            }
        }
        __syncthreads();
        if (j < d) {
            float acc[EPT];
#pragma unroll
            for (int i = 0; i < EPT; i++) acc[i] = sDhp[(y * EPT + i) * d + j];
            simdrl_dh_product<EPT>(sDgh + y * EPT * G3S, G3S, W, G3, g4, d, j, acc);
#pragma unroll
            for (int i = 0; i < EPT; i++) sDhp[(y * EPT + i) * d + j] = acc[i];
        }
        __syncthreads();
        float *s = sDh;
        sDh = sDhp;
        sDhp = s;
    }
}

// READ: the reading entry points (R > 0); the bag's (READ = false) compile
// without the reading code, R taken as 0.
template <int EPT, bool READ> __device__ __forceinline__ void backward_tile(SIMDRL_BACKWARD_PARAMS) {
    if (!READ) R = 0;
    extern __shared__ float4 smem_v[];
    const int DP = blockDim.x, G = blockDim.y, E = EPT * G;
    const int tid = threadIdx.y * DP + threadIdx.x, nthr = DP * G;
    const int b0 = blockIdx.x * E;
    const int nE = min(E, B - b0);
    const int G3 = 3 * d, V1 = V + 1, G3S = simdrl_stride4(G3);
    const simdrl_layout L = simdrl_layout_of(V, d, S);
    // The policy steps' blocks follow the R reading steps' (R = 0: the bag).
    const float *const hP = h + (size_t)R * B * d, *const actP = act + (size_t)R * B * G3, *const ghnP = ghn + (size_t)R * B * d;
    float *const dghP = dgh + (size_t)R * B * G3, *const dginP = dgin + (size_t)R * B * d;

    // Shared memory: the regions of args.cuh (gpu/internal/abi), which
    // gpu/plan.go's backwardSmem sizes from the same table.
    simdrl_carver cv = {(char *)smem_v, 0};
    SIMDRL_BACKWARD_SMEM(cv)

    if (use_smem_w)
        for (int i = tid; i < G3 * d; i += nthr) sW[i] = P[L.whh + i];
    for (int i = tid; i < V1 * d; i += nthr) sHW[i] = headsN[i];
    for (int i = tid; i < E * d; i += nthr) sDh[i] = 0.0f;
    for (int i = tid; i < E * G3S; i += nthr) sDgh[i] = 0.0f;
    const float *W = use_smem_w ? sW : P + L.whh;
    __syncthreads();

    const int j = threadIdx.x, y = threadIdx.y;
    const int g4 = G3 & ~3;
    // ends (not null: a rollout that stopped when its episodes were done,
    // rollout.cu's until_done): each episode's last step in the loss, whose
    // weights are 0 after it. Past the tile's last, every row's gradients
    // are 0 and dL/dh stays 0: they are written, not computed (the rollout
    // left those steps' activations unwritten).
    int last = T - 1;
    if (ends) {
        last = -1;
#pragma unroll 1
        for (int e = 0; e < nE; e++) last = max(last, ends[b0 + e]);
    }
    for (int t = T - 1; t > last; t--) {
        for (int i = tid; i < nE * V1; i += nthr) dheads[((size_t)t * B + b0) * V1 + i] = 0.0f;
        for (int i = tid; i < nE * G3; i += nthr) dghP[((size_t)t * B + b0) * G3 + i] = 0.0f;
        for (int i = tid; i < nE * d; i += nthr) dginP[((size_t)t * B + b0) * d + i] = 0.0f;
    }
    for (int t = min(last, T - 1); t >= 0; t--) {
        // The policy head's backward (kernels.PolicyBackward), spread over (episode, column).
        for (int i = tid; i < E * V; i += nthr) {
            const int e = i / V, v = i % V;
            float p = 0.0f, g = 0.0f;
            if (e < nE) {
                p = expf(logp[((size_t)t * B + b0 + e) * V + v]);
                g = simdrl_entropy_g(p);
            }
            sX[e * V1 + v] = p;
            sG[i] = g;
        }
        __syncthreads();
        for (int e = tid; e < E; e += nthr) {
            float pg = 0.0f;
            for (int v = 0; v < V; v++) pg += sX[e * V1 + v] * sG[e * V + v];
            sPg[e] = pg;
        }
        __syncthreads();
        for (int i = tid; i < E * V1; i += nthr) {
            const int e = i / V1, v = i % V1;
            float x = 0.0f;
            if (e < nE) {
                const size_t row = (size_t)t * B + b0 + e;
                if (v < V)
                    x = simdrl_policy_dlogit(sX[i], sG[e * V + v], sPg[e], dlogp[row], dent[row], v == tokens[row + B]);
                else
                    x = dval[row];
                dheads[row * V1 + v] = x;
            }
            sX[i] = x;
        }
        __syncthreads();
        // dh' += dheads·[pi;v] (each episode summed over v in order), then the
        // GRU unit's backward.
        if (j < d) {
            float dh[EPT];
#pragma unroll
            for (int i = 0; i < EPT; i++) dh[i] = sDh[(y * EPT + i) * d + j];
            for (int v = 0; v < V1; v++) {
                const float w = sHW[v * d + j];
#pragma unroll
                for (int i = 0; i < EPT; i++) dh[i] += sX[(y * EPT + i) * V1 + v] * w;
            }
#pragma unroll
            for (int i = 0; i < EPT; i++) {
                const int e = y * EPT + i;
                float dg[3] = {0.0f, 0.0f, 0.0f}, dt[3];
                float dhp = 0.0f;
                if (e < nE) {
                    const size_t row = (size_t)t * B + b0 + e;
                    const float *a = actP + row * G3;
                    dhp = simdrl_gru_unit_back(a[j], a[d + j], a[2 * d + j], ghnP[row * d + j], hP[row * d + j], dh[i], dg, dt);
                    float *o = dghP + row * G3;
                    o[j] = dg[0];
                    o[d + j] = dg[1];
                    o[2 * d + j] = dg[2];
                    dginP[row * d + j] = dt[2];
                }
                sDgh[e * G3S + j] = dg[0];
                sDgh[e * G3S + d + j] = dg[1];
                sDgh[e * G3S + 2 * d + j] = dg[2];
                sDhp[e * d + j] = dhp;
            }
        }
        __syncthreads();
        // dh += dgh·W_hh, summed over g in order (recurrent.cuh).
        if (j < d) {
            float acc[EPT];
#pragma unroll
            for (int i = 0; i < EPT; i++) acc[i] = sDhp[(y * EPT + i) * d + j];
            simdrl_dh_product<EPT>(sDgh + y * EPT * G3S, G3S, W, G3, g4, d, j, acc);
#pragma unroll
            for (int i = 0; i < EPT; i++) sDhp[(y * EPT + i) * d + j] = acc[i];
        }
        __syncthreads();
        float *s = sDh;
        sDh = sDhp;
        sDhp = s;
    }
    if (READ && R > 0) unread_context<EPT>(R, B, d, tasks, W, h, act, ghn, dgh, dgin, sDh, sDhp, sDgh, b0, nE, tid, nthr);
    if (j < d) {
#pragma unroll
        for (int i = 0; i < EPT; i++) {
            const int e = y * EPT + i;
            if (e < nE) {
                const size_t b = b0 + e;
                const float h0 = h[b * d + j];
                dh0g[b * d + j] = sDh[e * d + j] * (1.0f - h0 * h0);
            }
        }
    }
}

extern "C" __global__ void __launch_bounds__(SIMDRL_MAX_BLOCK_THREADS, 1) simdrl_backward_e1(SIMDRL_BACKWARD_PARAMS) { backward_tile<1, false>(SIMDRL_BACKWARD_ARGS); }
extern "C" __global__ void __launch_bounds__(SIMDRL_MAX_BLOCK_THREADS, 1) simdrl_backward_e2(SIMDRL_BACKWARD_PARAMS) { backward_tile<2, false>(SIMDRL_BACKWARD_ARGS); }
extern "C" __global__ void __launch_bounds__(SIMDRL_MAX_BLOCK_THREADS, 1) simdrl_backward_e4(SIMDRL_BACKWARD_PARAMS) { backward_tile<4, false>(SIMDRL_BACKWARD_ARGS); }
extern "C" __global__ void __launch_bounds__(SIMDRL_MAX_BLOCK_THREADS, 1) simdrl_backward_e8(SIMDRL_BACKWARD_PARAMS) { backward_tile<8, false>(SIMDRL_BACKWARD_ARGS); }
extern "C" __global__ void __launch_bounds__(SIMDRL_MAX_BLOCK_THREADS, 1) simdrl_backward_read_e1(SIMDRL_BACKWARD_PARAMS) { backward_tile<1, true>(SIMDRL_BACKWARD_ARGS); }
extern "C" __global__ void __launch_bounds__(SIMDRL_MAX_BLOCK_THREADS, 1) simdrl_backward_read_e2(SIMDRL_BACKWARD_PARAMS) { backward_tile<2, true>(SIMDRL_BACKWARD_ARGS); }
extern "C" __global__ void __launch_bounds__(SIMDRL_MAX_BLOCK_THREADS, 1) simdrl_backward_read_e4(SIMDRL_BACKWARD_PARAMS) { backward_tile<4, true>(SIMDRL_BACKWARD_ARGS); }
extern "C" __global__ void __launch_bounds__(SIMDRL_MAX_BLOCK_THREADS, 1) simdrl_backward_read_e8(SIMDRL_BACKWARD_PARAMS) { backward_tile<8, true>(SIMDRL_BACKWARD_ARGS); }

// gemm_tn: per slab s of rows, part[s] (M×(N+ones)) = Aᵀ·B over the slab's
// rows, A R×M (lda), B R×N (ldb); with ones, column N holds the column sums of
// A (the bias gradient). A block computes a BM×96 tile of the output: 192
// threads, each a TM×8 register tile (rows ty·TM…, columns tx·4… and
// 48 + tx·4…, so that the 16-byte shared loads of a warp hit distinct banks),
// over the slab's rows 16 at a time. Grid: (ceil(N/96), ceil(M/BM), slabs).
#define TN_BN 96
#define TN_BK 16
#define TN_THREADS 192
template <int BM, int TM>
__device__ __forceinline__ void gemm_tn(const float *__restrict__ A, int lda, const float *__restrict__ Bm, int ldb, int M, int N, int ones, int R,
                                        int slab, float *part) {
    __shared__ __align__(16) float As[TN_BK][BM];
    __shared__ __align__(16) float Bs[TN_BK][TN_BN];
    const int Nc = N + ones;
    const int tx = threadIdx.x % (TN_BN / 8), ty = threadIdx.x / (TN_BN / 8);
    const int i0 = blockIdx.y * BM, j0 = blockIdx.x * TN_BN;
    const int s = blockIdx.z;
    const int r0 = s * slab, r1 = min(R, r0 + slab);
    float c[TM][8], bias[TM];
#pragma unroll
    for (int p = 0; p < TM; p++) {
        bias[p] = 0.0f;
#pragma unroll
        for (int q = 0; q < 8; q++) c[p][q] = 0.0f;
    }
    for (int rb = r0; rb < r1; rb += TN_BK) {
        for (int q = threadIdx.x; q < TN_BK * BM; q += TN_THREADS) {
            const int kk = q / BM, ii = q % BM, r = rb + kk, i = i0 + ii;
            As[kk][ii] = (r < r1 && i < M) ? A[(size_t)r * lda + i] : 0.0f;
        }
        for (int q = threadIdx.x; q < TN_BK * TN_BN; q += TN_THREADS) {
            const int kk = q / TN_BN, jj = q % TN_BN, r = rb + kk, jx = j0 + jj;
            Bs[kk][jj] = (r < r1 && jx < N) ? Bm[(size_t)r * ldb + jx] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < TN_BK; kk++) {
            float a[TM];
#pragma unroll
            for (int p = 0; p < TM; p += 2) {
                const float2 a2 = *(const float2 *)&As[kk][ty * TM + p];
                a[p] = a2.x;
                a[p + 1] = a2.y;
            }
            const float4 b0 = *(const float4 *)&Bs[kk][tx * 4], b1 = *(const float4 *)&Bs[kk][TN_BN / 2 + tx * 4];
            const float b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int p = 0; p < TM; p++) {
#pragma unroll
                for (int q = 0; q < 8; q++) c[p][q] += a[p] * b[q];
                bias[p] += a[p];
            }
        }
        __syncthreads();
    }
#pragma unroll
    for (int p = 0; p < TM; p++) {
        const int i = i0 + ty * TM + p;
        if (i >= M) continue;
        float *o = part + ((size_t)s * M + i) * Nc;
#pragma unroll
        for (int q = 0; q < 8; q++) {
            const int jx = j0 + (q < 4 ? tx * 4 + q : TN_BN / 2 + tx * 4 + q - 4);
            if (jx < N) o[jx] = c[p][q];
        }
        if (ones && tx == 0 && blockIdx.x == 0) o[N] = bias[p];
    }
}

// dW_hh and b_hh: M = 3d rows in tiles of 96. The heads: M = V+1 = 19 rows in one tile of 32.
extern "C" __global__ void __launch_bounds__(TN_THREADS) simdrl_gemm_tn_m96(SIMDRL_GEMM_TN_PARAMS) { gemm_tn<96, 6>(A, lda, Bm, ldb, M, N, ones, R, slab, part); }
extern "C" __global__ void __launch_bounds__(TN_THREADS) simdrl_gemm_tn_m32(SIMDRL_GEMM_TN_PARAMS) { gemm_tn<32, 2>(A, lda, Bm, ldb, M, N, ones, R, slab, part); }

// simdrl_sum_slabs sums S partial M×(N+ones) blocks in slab order and writes
// rows below split to out (ldo) and bias, the others to out2 and bias2 (the
// stacked heads go to pi.* and v.*).
extern "C" __global__ void simdrl_sum_slabs(SIMDRL_SUM_SLABS_PARAMS) {
    const int Nc = N + ones;
    const long total = (long)M * Nc;
    for (long q = (long)blockIdx.x * blockDim.x + threadIdx.x; q < total; q += (long)gridDim.x * blockDim.x) {
        float s = 0.0f;
        for (int k = 0; k < S; k++) s += part[(size_t)k * total + q];
        const int i = (int)(q / Nc), jx = (int)(q % Nc);
        if (i < split) {
            if (jx < N)
                out[(size_t)i * ldo + jx] = s;
            else
                bias[i] = s;
        } else {
            if (jx < N)
                out2[(size_t)(i - split) * ldo + jx] = s;
            else
                bias2[i - split] = s;
        }
    }
}

// simdrl_token_partial: per slab of rows r (= t·B + b), the gradient of the
// token table, part[s][v][g] = Σ_{r: tokens[r] = v} dgi[r][g] (V rows of the
// table: with observations V·O, and tokens the inputs a·O + o), where dgi is
// dgh for the r and z columns and dgin (d columns) for the n columns. One
// thread per column g; its V accumulators live in shared memory (V ×
// blockDim.x). Grid: (ceil(3d/blockDim.x), slabs).
extern "C" __global__ void simdrl_token_partial(SIMDRL_TOKEN_PARTIAL_PARAMS) {
    extern __shared__ float acc[];
    const int bd = blockDim.x, tx = threadIdx.x;
    const int g = blockIdx.x * bd + tx, s = blockIdx.y;
    const int r0 = s * slab, r1 = min(R, r0 + slab);
    for (int v = 0; v < V; v++) acc[v * bd + tx] = 0.0f;
    if (g >= G3) return;
    const int d = G3 / 3;
    // (tokens[r] clamped: the rollout's inputs, from a task's observations)
    if (g < 2 * d)
        for (int r = r0; r < r1; r++) acc[simdrl_clamp(tokens[r], 0, V - 1) * bd + tx] += dgh[(size_t)r * G3 + g];
    else
        for (int r = r0; r < r1; r++) acc[simdrl_clamp(tokens[r], 0, V - 1) * bd + tx] += dgin[(size_t)r * d + g - 2 * d];
    for (int v = 0; v < V; v++) part[((size_t)s * V + v) * G3 + g] = acc[v * bd + tx];
}

// simdrl_h0_partial: per slab of episodes, the gradient of h0's inputs:
// rows 0..V−1 of part[s] for emb (each context token, the shown tokens or
// digits then the context end ctx_end, gets dh0g/len), rows V..V+S−1 for stage_emb (one per
// level embedding, simdrl_stage). Grid: (ceil(d/blockDim.x), slabs).
extern "C" __global__ void simdrl_h0_partial(SIMDRL_H0_PARTIAL_PARAMS) {
    extern __shared__ float acc[];
    const int bd = blockDim.x, tx = threadIdx.x;
    const int j = blockIdx.x * bd + tx, s = blockIdx.y, rows = V + S;
    const int r0 = s * slab, r1 = min(B, r0 + slab);
    for (int v = 0; v < rows; v++) acc[v * bd + tx] = 0.0f;
    if (j >= d) return;
    for (int b = r0; b < r1; b++) {
        const float g = dh0g[(size_t)b * d + j];
        const int32_t *tk = tasks + (size_t)b * SIMDRL_TASK_WORDS;
        acc[(V + simdrl_stage(tk[SIMDRL_REC_LEVEL], S)) * bd + tx] += g;
        if (read) continue; // reading: h0 = tanh(stage_emb[stage]), no bag
        const int n = simdrl_rec_ctx_len(tk);
        const float inv = 1.0f / (float)(n + 1);
        for (int q = 0; q < n; q++) acc[simdrl_rec_ctx_tok(tk, q, V) * bd + tx] += g * inv;
        acc[ctx_end * bd + tx] += g * inv;
    }
    for (int v = 0; v < rows; v++) part[((size_t)s * rows + v) * d + j] = acc[v * bd + tx];
}

// simdrl_input_grads: from the token table's gradient dT (V×3d) and h0's
// (h0s: V rows for emb, S for stage_emb, d columns): dW_ih = dTᵀ·emb,
// db_ih = Σ_v dT, demb = dT·W_ih + h0's part, dstage_emb. With O > 0
// observations dT has V·O rows, row a·O + o for the input emb[a] +
// obs_emb[o] =: X: dW_ih = dTᵀ·X, db_ih = Σ_rows dT, and with dX = dT·W_ih,
// demb[a] = Σ_o dX[a·O + o] + h0's part, dobs_emb[o] = Σ_a dX[a·O + o].
extern "C" __global__ void simdrl_input_grads(SIMDRL_INPUT_GRADS_PARAMS) {
    const simdrl_layout L = simdrl_layout_obs(V, d, S, O);
    const int G3 = 3 * d, NV = simdrl_input_rows(V, O);
    const long nW = (long)G3 * d, nB = G3, nE = (long)V * d, nS = (long)S * d, nO = (long)O * d, total = nW + nB + nE + nS + nO;
    for (long q = (long)blockIdx.x * blockDim.x + threadIdx.x; q < total; q += (long)gridDim.x * blockDim.x) {
        long k = q;
        if (k < nW) {
            const int g = (int)(k / d), c = (int)(k % d);
            float s = 0.0f;
            if (O > 0)
                for (int v = 0; v < NV; v++) s += dT[v * G3 + g] * (P[L.emb + (v / O) * d + c] + P[L.obs + (v % O) * d + c]);
            else
                for (int v = 0; v < V; v++) s += dT[v * G3 + g] * P[L.emb + v * d + c];
            grad[L.wih + k] = s;
            continue;
        }
        k -= nW;
        if (k < nB) {
            float s = 0.0f;
            for (int v = 0; v < NV; v++) s += dT[v * G3 + k];
            grad[L.bih + k] = s;
            continue;
        }
        k -= nB;
        if (k < nE) {
            const int v = (int)(k / d), c = (int)(k % d);
            float s = 0.0f;
            if (O > 0)
                for (int o = 0; o < O; o++) {
                    const float *row = dT + (long)(v * O + o) * G3;
                    float x = 0.0f;
                    for (int g = 0; g < G3; g++) x += row[g] * P[L.wih + (long)g * d + c];
                    s += x;
                }
            else
                for (int g = 0; g < G3; g++) s += dT[v * G3 + g] * P[L.wih + (long)g * d + c];
            grad[L.emb + k] = s + h0s[k];
            continue;
        }
        k -= nE;
        if (k < nS) {
            grad[L.level_emb + k] = h0s[(long)V * d + k];
            continue;
        }
        k -= nS;
        const int o = (int)(k / d), c = (int)(k % d);
        float s = 0.0f;
        for (int a = 0; a < V; a++) {
            const float *row = dT + (long)(a * O + o) * G3;
            float x = 0.0f;
            for (int g = 0; g < G3; g++) x += row[g] * P[L.wih + (long)g * d + c];
            s += x;
        }
        grad[L.obs + k] = s;
    }
}
